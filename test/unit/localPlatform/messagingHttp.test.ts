import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import type { AccessTokenReply, MessagingErrorBody, SessionReply } from '../../../src/contract/messaging';
import { messagingOf } from '../../../src/localPlatform/messaging/store';
import { LOCAL_CONNECTORS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { accessToken, advanceClock, injectFault } from '../../support/messaging';

describe('Messaging API over HTTP (spec: Endpoints > Messaging API, Errors > Messaging HTTP errors)', () => {
  const t = useLocalPlatform();
  const tokenUrl = () => `${t.lp.urls.messaging}/api/v1/access-token`;
  const sessionsUrl = () => `${t.lp.urls.messaging}/api/v1/sessions`;
  const askToken = (headers: Record<string, string>) =>
    call<AccessTokenReply & MessagingErrorBody>('POST', tokenUrl(), { headers, body: {} });
  const askSession = (headers: Record<string, string>, body?: unknown, rawBody?: string) =>
    call<SessionReply & MessagingErrorBody>('POST', sessionsUrl(), {
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(rawBody !== undefined ? { rawBody } : {}),
    });

  const tokenRefusals: Array<[string, string, Record<string, string>, string]> = [
    ['MSG-1', 'without X-Token', { 'X-Host': 'example.com' }, 'Missing authentication headers'],
    ['MSG-1', 'without X-Host', { 'X-Token': LOCAL_CONNECTORS.webchatToken }, 'Missing authentication headers'],
    ['MSG-1', 'without either header', {}, 'Missing authentication headers'],
    [
      'MSG-2',
      'with an unknown connector token',
      { 'X-Token': 'lp_nope', 'X-Host': 'example.com' },
      'Connector token does not exist',
    ],
    [
      'MSG-2',
      'with a chat (not webchat) connector token',
      { 'X-Token': LOCAL_CONNECTORS.chatToken, 'X-Host': 'example.com' },
      'Connector token does not exist',
    ],
    [
      'MSG-3',
      'with another domain',
      { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'evil.test' },
      'Failed to validate connector',
    ],
    [
      'MSG-3',
      'with a domain that only ends like the registered one',
      { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'notexample.com' },
      'Failed to validate connector',
    ],
    [
      'MSG-3',
      'with a near miss of the app namespace',
      { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'com.example.app.other' },
      'Failed to validate connector',
    ],
    [
      'MSG-4',
      'for a connector without a host domain',
      { 'X-Token': LOCAL_CONNECTORS.webchatNoHostToken, 'X-Host': 'example.com' },
      'Connector missing host domain',
    ],
  ];
  for (const [rule, label, headers, message] of tokenRefusals) {
    it(`[${rule}] access-token ${label}: 401 "${message}"`, async () => {
      const res = await askToken(headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.message, message);
    });
  }

  for (const host of [
    'example.com',
    'chat.example.com',
    'a.b.example.com',
    'https://www.example.com/help',
    'EXAMPLE.COM',
    'com.example.app',
  ]) {
    it(`[MSG-3][MSG-5] access-token for X-Host ${host}: a Bearer JWT with expires_in`, async () => {
      const res = await askToken({ 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': host });
      assert.equal(res.status, 200);
      assert.equal(res.body.token_type, 'Bearer');
      assert.equal(res.body.expires_in, 3600);
      const [header, payload, signature] = res.body.access_token.split('.');
      assert.ok(signature && signature.length > 20);
      assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { exp: number; iat: number };
      assert.equal(claims.exp - claims.iat, 3600);
    });
  }

  it('[MSG-30] an internal failure of access-token answers 500 "Failed to create access token"', async () => {
    await injectFault(t.lp, { path: '/api/v1/access-token', messagingError: 'access-token', times: 1 });
    const res = await askToken({ 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'example.com' });
    assert.equal(res.status, 500);
    assert.equal(res.body.message, 'Failed to create access token');
    const again = await askToken({ 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'example.com' });
    assert.equal(again.status, 200);
  });

  it('[MSG-6] sessions without Authorization: 400 "Missing access token"', async () => {
    const res = await askSession({}, {});
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Missing access token');
  });

  for (const authorization of ['Token abc', 'Basic dXNlcjpwYXNz', 'Bearer', 'bearer']) {
    it(`[MSG-7] sessions with Authorization "${authorization}": 401 "Missing authentication headers"`, async () => {
      const res = await askSession({ Authorization: authorization }, {});
      assert.equal(res.status, 401);
      assert.equal(res.body.message, 'Missing authentication headers');
    });
  }

  it('[MSG-8] sessions with a malformed, tampered or expired token: 401 "Invalid access token"', async () => {
    const good = await accessToken(t.lp);
    const [h, p, s] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tamperedPayload = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'conn_other' })).toString('base64url')}.${s}`;
    const foreignKey = `${h}.${p}.${createHmac('sha256', 'not-the-platform-secret').update(`${h}.${p}`).digest('base64url')}`;
    for (const bad of ['not-a-jwt', 'a.b.c', tamperedPayload, foreignKey, `${h}.${p}.${s.slice(0, -2)}xx`]) {
      const res = await askSession({ Authorization: `Bearer ${bad}` }, {});
      assert.equal(res.status, 401, bad);
      assert.equal(res.body.message, 'Invalid access token');
    }
    await advanceClock(t.lp, 3601_000);
    const expired = await askSession({ Authorization: `Bearer ${good}` }, {});
    assert.equal(expired.status, 401);
    assert.equal(expired.body.message, 'Invalid access token');
  });

  it('[MSG-8] a token issued before a platform reset is no longer valid', async () => {
    const token = await accessToken(t.lp);
    await t.admin.reset();
    const res = await askSession({ Authorization: `Bearer ${token}` }, {});
    assert.equal(res.status, 401);
  });

  it('[MSG-9] sessions with a body that is not JSON: 400 "Error parsing request"', async () => {
    const token = await accessToken(t.lp);
    const res = await askSession(
      { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      undefined,
      '{"streaming_enabled": tru',
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Error parsing request');
  });

  for (const [label, body, field] of [
    ['streaming_enabled not a boolean', { streaming_enabled: 'yes' }, 'streaming_enabled'],
    ['an unknown platform', { platform: 'desktop' }, 'platform'],
  ] as const) {
    it(`[MSG-9][MSG-10] sessions with ${label}: 400 naming the field`, async () => {
      const token = await accessToken(t.lp);
      const res = await askSession({ Authorization: `Bearer ${token}` }, body);
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Error parsing request');
      assert.equal(res.body.errors?.[0]?.field, field);
    });
  }

  it('[MSG-10] a session defaults to streaming off on the web platform', async () => {
    const token = await accessToken(t.lp);
    for (const req of [{ body: undefined }, { body: {} }]) {
      const res = await askSession({ Authorization: `Bearer ${token}`, 'content-type': 'application/json' }, req.body);
      assert.equal(res.status, 200);
      assert.match(res.body.session_id, /\S/);
      const stored = messagingOf(t.lp.platform).sessions[res.body.session_id]!;
      assert.equal(stored.streaming, false);
      assert.equal(stored.platform, 'web');
    }
  });

  for (const [label, rawBody] of [
    ['an empty body', undefined],
    ['a JSON body', '{"streaming_enabled": true}'],
  ] as const) {
    it(`[MSG-10] a session request without Content-Type (spec: required) answers 400 in the messaging shape, with ${label}`, async () => {
      const token = await accessToken(t.lp);
      const before = Object.keys(messagingOf(t.lp.platform).sessions).length;
      const res = await fetch(sessionsUrl(), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        ...(rawBody !== undefined ? { body: new TextEncoder().encode(rawBody) } : {}),
      });
      const body = (await res.json()) as MessagingErrorBody;
      assert.equal(res.status, 400);
      assert.match(body.message, /Content-Type/);
      assert.equal(body.errors?.[0]?.field, 'Content-Type');
      assert.equal(Object.keys(messagingOf(t.lp.platform).sessions).length, before, 'no session was made');
    });
  }

  for (const platform of ['web', 'ios', 'android', 'custom']) {
    it(`[MSG-10] a session for platform ${platform} with streaming enabled`, async () => {
      const token = await accessToken(t.lp);
      const res = await askSession(
        { Authorization: `Bearer ${token}`, 'User-Agent': 'WidgetTest/1.0' },
        { streaming_enabled: true, platform },
      );
      assert.equal(res.status, 200);
      const stored = messagingOf(t.lp.platform).sessions[res.body.session_id]!;
      assert.equal(stored.streaming, true);
      assert.equal(stored.platform, platform);
      assert.equal(stored.userAgent, 'WidgetTest/1.0');
    });
  }

  it('[MSG-30] an internal failure of sessions answers 500 "Failed to create session"', async () => {
    const token = await accessToken(t.lp);
    await injectFault(t.lp, { messagingError: 'Failed to create session', times: 1 });
    const res = await askSession({ Authorization: `Bearer ${token}` }, {});
    assert.equal(res.status, 500);
    assert.equal(res.body.message, 'Failed to create session');
  });

  it('[MSG-28] over the HTTP rate limit a session creator gets 429 with Retry-After, until the window passes', async () => {
    await t.admin.setOptions({ messagingHttpPerMinute: 2 });
    try {
      const token = await accessToken(t.lp);
      const auth = { Authorization: `Bearer ${token}` };
      assert.equal((await askSession(auth, {})).status, 200);
      assert.equal((await askSession(auth, {})).status, 200);
      const limited = await askSession(auth, {});
      assert.equal(limited.status, 429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      const other = await accessToken(t.lp);
      assert.equal(
        (await askSession({ Authorization: `Bearer ${other}` }, {})).status,
        200,
        'another client is not limited',
      );
      await advanceClock(t.lp, 60_000);
      assert.equal((await askSession(auth, {})).status, 200);
    } finally {
      await t.admin.setOptions({ messagingHttpPerMinute: 120 });
    }
  });

  it('[MSG-28] over the HTTP rate limit access-token answers 429 with Retry-After', async () => {
    await t.admin.setOptions({ messagingHttpPerMinute: 1 });
    try {
      const headers = { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': 'example.com' };
      assert.equal((await askToken(headers)).status, 200);
      const limited = await askToken(headers);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    } finally {
      await t.admin.setOptions({ messagingHttpPerMinute: 120 });
    }
  });
});
