import { ALERTS_PATH } from '../contract/alerts';
import { CHAT_API_KEY_HEADER, CHAT_TOKEN_HEADER } from '../contract/chat';
import { DNI_AUTH_HEADER, DNI_RESERVATION_PATH } from '../contract/dni';
import { EXTERNAL_EVENTS_AUTH_HEADER, EXTERNAL_EVENTS_WEBHOOK_PATH } from '../contract/externalEvents';
import { OUTBOUND_AUTH_HEADER, OUTBOUND_CALL_PATH } from '../contract/outbound';
import type { ClientContext } from './context';
import { type ApiFamily, FAMILY_LABEL, PlatformError } from './errors';
import type { CredentialId } from './profile';
import type { RequestSpec } from './transport';

export type ProbeOutcome = 'works' | 'rejected' | 'notConfigured' | 'unreachable' | 'unknown';

export interface ProbeResult {
  family: ApiFamily;
  label: string;
  outcome: ProbeOutcome;
  /** Why, in a sentence, for anything but `works`. */
  detail?: string;
  ms?: number;
}

interface Probe {
  family: ApiFamily;
  needs: CredentialId[];
  /**
   * A call that changes nothing. Where the family has no read endpoint, the probe sends a request
   * the platform must refuse after checking the credential: 400 then means the credential was
   * accepted, 401/403 that it was not (see docs/api-assumptions.md).
   */
  request(ctx: ClientContext, credential: (id: CredentialId) => string): Omit<RequestSpec, 'family' | 'retry'>;
  acceptedStatuses: number[];
  /**
   * For families whose 400 the spec does not explain (Chat, DNI): the field the probe left out on purpose.
   * A 400 counts as "works" only when the answer names it; any other 400 leaves the outcome unknown.
   */
  explainedBy?: string;
  /** Words in the answer's message that explain the accepted status as well as the field would. */
  explainedByWords?: RegExp;
}

/** The agent whose phone numbers the Agents API check reads: an id in the usual form that no agent has. */
const PROBE_AGENT_ID = 'ag_connection_check';

const PROBES: Probe[] = [
  {
    // A spec-shown read that needs an agent: the phone numbers of an agent id no one has. The platform checks the key
    // before the id, so a 404 (or 422) that is about the agent means the key was accepted.
    family: 'agents',
    needs: ['agentsApiKey'],
    acceptedStatuses: [200, 404, 422],
    explainedBy: 'agentId',
    explainedByWords: /\bagent\b/i,
    request: (ctx, credential) => ({
      baseUrl: ctx.base('build'),
      method: 'GET',
      path: `/v1/agents/${PROBE_AGENT_ID}/telephony/phone-numbers`,
      headers: { 'x-api-key': credential('agentsApiKey') },
    }),
  },
  {
    family: 'conversations',
    needs: ['conversationsApiKey'],
    acceptedStatuses: [200],
    request: (ctx, credential) => ({
      baseUrl: ctx.base('runtime'),
      method: 'GET',
      path: `/v3${ctx.projectPath}/conversations`,
      query: { limit: 1 },
      headers: { 'x-api-key': credential('conversationsApiKey') },
    }),
  },
  {
    // The current alerts: the one read of the Alerts API the spec shows.
    family: 'alerts',
    needs: ['alertsApiKey'],
    acceptedStatuses: [200],
    request: (ctx, credential) => ({
      baseUrl: ctx.base('build'),
      method: 'GET',
      path: ALERTS_PATH,
      headers: { 'x-api-key': credential('alertsApiKey') },
    }),
  },
  {
    // A close without conversation_id: 400 only once key and token were accepted (a 404 would also come from a wrong address).
    family: 'chat',
    needs: ['chatApiKey', 'chatConnectorToken'],
    acceptedStatuses: [400],
    explainedBy: 'conversation_id',
    request: (ctx, credential) => ({
      baseUrl: ctx.base('runtime'),
      method: 'PUT',
      path: `/v1${ctx.projectPath}/chat/close`,
      body: {},
      headers: {
        [CHAT_API_KEY_HEADER]: credential('chatApiKey'),
        [CHAT_TOKEN_HEADER]: credential('chatConnectorToken'),
      },
    }),
  },
  {
    family: 'messaging',
    needs: ['messagingConnectorToken', 'messagingHost'],
    acceptedStatuses: [200],
    request: (ctx, credential) => ({
      baseUrl: ctx.base('messaging'),
      method: 'POST',
      path: '/api/v1/access-token',
      body: {},
      headers: { 'X-Token': credential('messagingConnectorToken'), 'X-Host': credential('messagingHost') },
    }),
  },
  {
    family: 'outbound',
    needs: ['outboundAuthToken'],
    acceptedStatuses: [400],
    request: (ctx, credential) => ({
      baseUrl: ctx.base('runtime'),
      method: 'POST',
      path: OUTBOUND_CALL_PATH,
      body: {},
      headers: { [OUTBOUND_AUTH_HEADER]: credential('outboundAuthToken') },
    }),
  },
  {
    family: 'externalEvents',
    needs: ['externalEventsApiKey'],
    acceptedStatuses: [400],
    request: (ctx, credential) => ({
      baseUrl: ctx.base('runtime'),
      method: 'POST',
      path: EXTERNAL_EVENTS_WEBHOOK_PATH,
      query: {
        event_id_location: 'payload',
        event_id_path: 'id',
        account_id: ctx.profile.accountId,
        project_id: ctx.profile.projectId,
      },
      body: { id: 'connection-check' },
      headers: { [EXTERNAL_EVENTS_AUTH_HEADER]: credential('externalEventsApiKey') },
    }),
  },
  {
    family: 'dni',
    needs: ['dniApiKey'],
    acceptedStatuses: [400],
    explainedBy: 'attributes',
    request: (ctx, credential) => ({
      baseUrl: ctx.base('runtime'),
      method: 'POST',
      path: DNI_RESERVATION_PATH,
      body: { attributes: 'connection-check' },
      headers: { [DNI_AUTH_HEADER]: credential('dniApiKey') },
    }),
  },
];

/** Checks every configured credential with a call that changes nothing, all families at once. */
export async function probeConnection(ctx: ClientContext, signal?: AbortSignal): Promise<ProbeResult[]> {
  return Promise.all(PROBES.map((p) => runProbe(ctx, p, signal)));
}

async function runProbe(ctx: ClientContext, probe: Probe, signal?: AbortSignal): Promise<ProbeResult> {
  const label = FAMILY_LABEL[probe.family];
  const creds = new Map<CredentialId, string>();
  for (const id of probe.needs) {
    try {
      creds.set(id, await ctx.credential(id, probe.family, `Test ${label}`));
    } catch (err) {
      return {
        family: probe.family,
        label,
        outcome: 'notConfigured',
        detail: err instanceof Error ? err.message : String(err),
      };
    }
  }
  const started = performance.now();
  const request = probe.request(ctx, (id) => {
    const value = creds.get(id);
    if (value === undefined) throw new Error(`The check of the ${label} reads ${id} without naming it in its needs.`);
    return value;
  });
  try {
    await ctx.transport.request({
      ...request,
      family: probe.family,
      operation: `Test ${label}`,
      // A probe that posts is sent once: a write the platform refuses is still a write, never repeated by itself.
      retry: request.method === 'GET' ? 'safe' : 'never',
      signal,
      timeoutMs: 10_000,
    });
    return { family: probe.family, label, outcome: 'works', ms: Math.round(performance.now() - started) };
  } catch (err) {
    const ms = Math.round(performance.now() - started);
    if (!(err instanceof PlatformError))
      return { family: probe.family, label, outcome: 'unknown', detail: String(err), ms };
    if (err.status !== undefined && probe.acceptedStatuses.includes(err.status)) {
      if (
        !probe.explainedBy ||
        names(err, probe.explainedBy) ||
        (probe.explainedByWords?.test(err.serverMessage ?? '') ?? false)
      )
        return { family: probe.family, label, outcome: 'works', ms };
      const detail = `The platform answered HTTP ${err.status} without saying why (the spec does not explain this status for the ${label}), so whether the credential was accepted is not known. ${err.message}`;
      return { family: probe.family, label, outcome: 'unknown', detail, ms };
    }
    if (err.kind === 'unauthorized' || err.kind === 'forbidden')
      return { family: probe.family, label, outcome: 'rejected', detail: err.message, ms };
    if (err.kind === 'network' || err.kind === 'timeout')
      return { family: probe.family, label, outcome: 'unreachable', detail: err.message, ms };
    return { family: probe.family, label, outcome: 'unknown', detail: err.message, ms };
  }
}

/** True when an error answer names the field (in `field`, in `errors[].field` or in its words). */
function names(err: PlatformError, field: string): boolean {
  if (err.fieldErrors.some((e) => e.field === field)) return true;
  const body = err.body;
  if (typeof body === 'object' && body !== null && (body as { field?: unknown }).field === field) return true;
  return (err.serverMessage ?? '').includes(field);
}
