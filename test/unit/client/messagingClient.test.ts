import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { PlatformError } from '../../../src/client/errors';
import { AccessToken } from '../../../src/client/accessToken';
import { MessagingClient } from '../../../src/client/messaging';
import { type RequestLog, Transport } from '../../../src/client/transport';
import { isError, localContext } from '../../support/localClient';
import { useLocalPlatform } from '../../support/localPlatform';
import { messaging } from './messagingKit';

describe('client: Messaging API over HTTP (spec: Endpoints > Messaging API, Errors > Messaging HTTP errors)', () => {
  const t = useLocalPlatform();

  it('[MSG-5][MSG-10] gets an access token and creates a session with the chosen streaming and platform', async () => {
    const client = messaging(t.lp);
    const token = await client.accessToken();
    assert.equal(token.expiresInSeconds, 3600);
    assert.ok(token.expiresAt > Date.now() + 3500_000);
    assert.match(token.reveal(), /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const created = await client.createSession({ streamingEnabled: true, platform: 'ios' }, token);
    assert.match(created.sessionId, /^ses_/);
    assert.equal(created.accessToken, token);
    const [stored] = await t.admin.messagingSessions();
    assert.deepEqual(
      { id: stored?.session_id, streaming: stored?.streaming_enabled, platform: stored?.platform },
      { id: created.sessionId, streaming: true, platform: 'ios' },
    );
  });

  it('[MSG-10] without options a session gets a new token and the defaults (streaming off, web)', async () => {
    const logs: RequestLog[] = [];
    const created = await messaging(t.lp, logs).createSession();
    assert.deepEqual(
      logs.map((l) => l.path),
      ['/messaging/api/v1/access-token', '/messaging/api/v1/sessions'],
    );
    assert.equal(created.streamingEnabled, false);
    assert.equal(created.platform, 'web');
    assert.equal((await t.admin.messagingSessions())[0]?.platform, 'web');
  });

  it('[MSG-5] the access token is a secret: it shows in no JSON, string or inspection of the token', async () => {
    const token = await messaging(t.lp).accessToken();
    const secret = token.reveal();
    for (const shown of [
      JSON.stringify(token),
      String(token),
      inspect(token),
      JSON.stringify({ created: { accessToken: token } }),
    ]) {
      assert.equal(shown.includes(secret), false, shown);
    }
  });

  it('[MSG-3] a host that does not match the connector is refused with "Failed to validate connector", not retried', async () => {
    const logs: RequestLog[] = [];
    const client = new MessagingClient(localContext(t.lp, { logs, overrides: { messagingHost: 'notexample.com' } }));
    await assert.rejects(client.accessToken(), isError('unauthorized', /Failed to validate connector/));
    assert.equal(logs.length, 1);
    assert.equal(logs[0]!.retries, 0);
  });

  it('[MSG-3] a subdomain of the registered domain is accepted', async () => {
    const client = new MessagingClient(
      localContext(t.lp, { overrides: { messagingHost: 'https://shop.example.com' } }),
    );
    assert.ok((await client.accessToken()).reveal());
  });

  it('[MSG-2] an unknown connector token is refused with "Connector token does not exist"', async () => {
    const client = new MessagingClient(
      localContext(t.lp, { overrides: { messagingConnectorToken: 'no-such-connector-token' } }),
    );
    await assert.rejects(
      client.accessToken(),
      isError('unauthorized', /Connector token does not exist.*Set Credential/),
    );
  });

  it('[MSG-4] a connector with neither host domain nor app namespace: "Connector missing host domain"', async () => {
    const connector = t.lp.platform.state.connectors.find((c) => c.kind === 'webchat')!;
    await t.admin.setConnector(connector.id, { hostDomain: null, appNamespace: null });
    await assert.rejects(messaging(t.lp).accessToken(), isError('unauthorized', /Connector missing host domain/));
  });

  it('[MSG-1] a profile without the messaging host says which credential is missing and sends nothing', async () => {
    const logs: RequestLog[] = [];
    const client = new MessagingClient(localContext(t.lp, { logs, overrides: { messagingHost: undefined } }));
    await assert.rejects(client.accessToken(), isError('notConfigured', /Messaging host/));
    assert.equal(logs.length, 0);
  });

  it('[MSG-30] "Failed to create access token" (500) is retried with backoff: a token request is safe to repeat', async () => {
    await t.admin.addFault({ family: 'messaging', messagingError: 'access-token', times: 1 });
    const logs: RequestLog[] = [];
    const token = await messaging(t.lp, logs).accessToken();
    assert.ok(token.reveal());
    assert.equal(logs[0]!.retries, 1);
  });

  it('[MSG-30] "Failed to create session" (500) is retried, and exactly one session results', async () => {
    const client = messaging(t.lp);
    const token = await client.accessToken();
    await t.admin.addFault({ family: 'messaging', messagingError: 'session', times: 1 });
    const created = await client.createSession({}, token);
    assert.deepEqual(
      (await t.admin.messagingSessions()).map((s) => s.session_id),
      [created.sessionId],
    );
  });

  it('[MSG-28] a 429 on session creation is retried after its Retry-After', async () => {
    const client = messaging(t.lp);
    const token = await client.accessToken();
    await t.admin.addFault({ family: 'messaging', path: '/api/v1/sessions', status: 429, retryAfter: 1, times: 1 });
    const started = Date.now();
    const created = await client.createSession({}, token);
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
    assert.deepEqual(
      (await t.admin.messagingSessions()).map((s) => s.session_id),
      [created.sessionId],
    );
  });

  it('[MSG-28] a Retry-After longer than the client waits by itself is returned, with when to try again', async () => {
    const client = messaging(t.lp);
    const token = await client.accessToken();
    await t.admin.addFault({ family: 'messaging', path: '/api/v1/sessions', status: 429, retryAfter: 120, times: 1 });
    await assert.rejects(client.createSession({}, token), (err: unknown) => {
      assert.ok(err instanceof PlatformError);
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.retryAfterMs, 120_000);
      assert.match(err.message, /Try again in 120 s/);
      return true;
    });
  });

  it("[MSG-28] the platform's own rate limit on access tokens answers 429 with Retry-After", async () => {
    await t.admin.setOptions({ messagingHttpPerMinute: 1 });
    try {
      const transport = new Transport({ maxRetryAfterMs: 0, backoff: { retries: 2, baseMs: 5, maxMs: 20 } });
      const client = new MessagingClient(localContext(t.lp, { transport }));
      await client.accessToken();
      await assert.rejects(client.accessToken(), (err: unknown) => {
        assert.ok(err instanceof PlatformError);
        assert.equal(err.kind, 'rateLimited');
        assert.match(err.message, /Rate limit exceeded/);
        assert.ok(err.retryAfterMs !== undefined && err.retryAfterMs > 0 && err.retryAfterMs <= 60_000);
        return true;
      });
    } finally {
      await t.admin.setOptions({ messagingHttpPerMinute: 120 });
    }
  });

  it('[MSG-8] a session request with an invalid token is refused with "Invalid access token", without the token in the message', async () => {
    const fake = new AccessToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXRoYXQtaXMtd3Jvbmc', 3600);
    await assert.rejects(messaging(t.lp).createSession({}, fake), (err: unknown) => {
      isError('unauthorized', /Invalid access token/)(err);
      assert.equal((err as Error).message.includes(fake.reveal()), false);
      return true;
    });
  });

  it('[MSG-10] a platform outside web, ios, android, custom is refused before anything is sent', async () => {
    const logs: RequestLog[] = [];
    await assert.rejects(
      messaging(t.lp, logs).createSession({ platform: 'desktop' as never }),
      isError('invalidInput', /platform must be one of web, ios, android, custom/),
    );
    assert.equal(logs.length, 0);
  });
});
