import assert from 'node:assert/strict';
import { ClientContext } from '../../src/client/context';
import { PlatformError } from '../../src/client/errors';
import type { ConnectionProfile, CredentialId } from '../../src/client/profile';
import { type RequestLog, Transport } from '../../src/client/transport';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import type { LocalPlatform } from '../../src/localPlatform/server';

/** The credentials of the seeded local account, by the client's credential names. */
export const localCredentials: Record<CredentialId, string> = {
  agentsApiKey: LOCAL_KEYS.agents,
  conversationsApiKey: LOCAL_KEYS.conversations,
  alertsApiKey: LOCAL_KEYS.alerts,
  chatApiKey: LOCAL_KEYS.chat,
  chatConnectorToken: LOCAL_CONNECTORS.chatToken,
  messagingConnectorToken: LOCAL_CONNECTORS.webchatToken,
  messagingHost: LOCAL_CONNECTORS.webchatHost,
  outboundAuthToken: LOCAL_CONNECTORS.outboundToken,
  externalEventsApiKey: LOCAL_KEYS.externalEvents,
  dniApiKey: LOCAL_KEYS.dni,
};

/** The Local profile of a local platform (started here, or in a process of its own that said its addresses). */
export function localProfile(
  lp: Pick<LocalPlatform, 'urls'>,
  ids: { accountId?: string; projectId?: string } = {},
): ConnectionProfile {
  return {
    id: 'local',
    name: 'Local',
    accountId: ids.accountId ?? LOCAL_ACCOUNT.slug,
    projectId: ids.projectId ?? LOCAL_PROJECT.slug,
    region: 'local',
    runtimeUrl: lp.urls.runtime,
    buildUrl: lp.urls.build,
    messagingUrl: lp.urls.messaging,
  };
}

/** A client context for the local platform; `overrides` replaces or (with undefined) removes credentials. */
export function localContext(
  lp: Pick<LocalPlatform, 'urls'>,
  opts: {
    overrides?: Partial<Record<CredentialId, string | undefined>>;
    logs?: RequestLog[];
    transport?: Transport;
    ids?: { accountId?: string; projectId?: string };
  } = {},
): ClientContext {
  const creds: Partial<Record<CredentialId, string | undefined>> = { ...localCredentials, ...opts.overrides };
  const transport =
    opts.transport ??
    new Transport({
      backoff: { retries: 2, baseMs: 5, maxMs: 20 },
      ...(opts.logs ? { onRequest: (l: RequestLog) => opts.logs!.push(l) } : {}),
    });
  return new ClientContext(localProfile(lp, opts.ids), async (id) => creds[id], transport);
}

/** For assert.rejects: the error is a PlatformError of this kind, its message matching `pattern`. */
export const isError =
  (kind: PlatformError['kind'], pattern?: RegExp) =>
  (err: unknown): boolean => {
    assert.ok(err instanceof PlatformError, `expected a PlatformError, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    if (pattern) assert.match(err.message, pattern);
    return true;
  };

/** The PlatformError a promise rejects with (fails when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PlatformError, `expected a PlatformError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}
