import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { familyFactories } from '../../../src/localPlatform/families';
import type { Base } from '../../../src/localPlatform/family';
import { Router } from '../../../src/localPlatform/http';
import { Platform } from '../../../src/localPlatform/platform';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { type LocalPlatform, startLocalPlatform } from '../../../src/localPlatform/server';

/** Every route of every family, read from the routers themselves so a new route is covered too. */
function allRoutes(): Array<{ family: string; base: Base; method: string; pattern: string }> {
  const platform = new Platform();
  const out: Array<{ family: string; base: Base; method: string; pattern: string }> = [];
  for (const make of familyFactories) {
    const family = make({ platform, admin: new Router() });
    for (const r of family.router.list()) out.push({ family: family.name, base: family.base, ...r });
    family.dispose?.();
  }
  return out;
}

/** Seeded values for path parameters, so that most bad bodies reach the code that reads them. */
const PARAMS: Record<string, string> = {
  agentId: 'ag_support',
  branchId: 'br_support_main',
  topicId: 'kt_returns',
  deploymentId: 'dep_support_1',
  config: 'store-settings',
  ruleId: 'ar_000001',
  endpointId: 'we_000001',
  account: 'acme',
  accountId: 'acme',
  project: 'support-desk',
  projectId: 'support-desk',
  callSid: 'CA0000',
};

const ODD_IDS = [
  '%00',
  '..%2F..%2Fetc',
  'x'.repeat(10_000),
  '%F0%9F%92%A5',
  '-1',
  '0x10',
  '%FF%FE',
  '%0d%0aX-Injected:1',
  '1e999',
  '__proto__',
];
const ODD_PAGING = [
  'limit=0x10',
  'limit=1e999',
  'limit=-1&offset=-5',
  'offset=99999999999999999999',
  'limit=%00',
  'cursor=%FF',
  'limit=1.5',
  'limit=%20%205',
  'start_time=not-a-date',
  'limit=10&limit=20',
];
const DEEP = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);

interface Case {
  readonly label: string;
  readonly body?: Uint8Array | string;
  readonly contentType?: string;
  readonly path?: (path: string) => string;
  readonly query?: string;
  readonly credentials?: 'wrong' | 'none';
}

function cases(): Case[] {
  const json = 'application/json';
  return [
    { label: 'malformed JSON', body: '{"name": ', contentType: json },
    { label: 'a JSON list', body: '[1,2,3]', contentType: json },
    { label: 'a JSON string', body: '"text"', contentType: json },
    { label: 'a JSON null', body: 'null', contentType: json },
    {
      label: 'wrong-typed fields',
      body: JSON.stringify({
        name: 5,
        message: [],
        conversation_id: {},
        attributes: 'x',
        to_number: 7,
        phoneNumbers: 'x',
        metric: [],
        url: 9,
        variables: [1],
        streaming_enabled: 'yes',
        platform: 3,
        behavior: 5,
      }),
      contentType: json,
    },
    { label: 'JSON as text/plain', body: '{"name":"x"}', contentType: 'text/plain' },
    { label: 'JSON as XML', body: '{"name":"x"}', contentType: 'application/xml' },
    { label: 'JSON as a form', body: '{"name":"x"}', contentType: 'application/x-www-form-urlencoded' },
    { label: 'JSON with no content type', body: new TextEncoder().encode('{"name":"x"}') },
    { label: 'a 5 MB body', body: 'x'.repeat(5 * 1024 * 1024 + 1), contentType: json },
    { label: '10,000-deep list', body: DEEP, contentType: json },
    { label: '10,000-deep object', body: DEEP_OBJECT, contentType: json },
    {
      label: '10,000-deep form field',
      body: `a${'[x]'.repeat(10_000)}=1`,
      contentType: 'application/x-www-form-urlencoded',
    },
    { label: '10,000-deep XML', body: '<a>'.repeat(10_000) + '</a>'.repeat(10_000), contentType: 'application/xml' },
    {
      label: 'deep values in known fields',
      body: `{"name":"x","message":"hi","attributes":${DEEP_OBJECT},"integration_attributes":${DEEP_OBJECT},"metadata":${DEEP_OBJECT}}`,
      contentType: json,
    },
    { label: 'raw control characters', body: '{"name":"a\u0000b\u0007c\u001b"}', contentType: json },
    {
      label: 'escaped control characters',
      body: '{"name":"a\\u0000b\\u0007","message":"\\u0000","content":"\\u001b[2J"}',
      contentType: json,
    },
    {
      label: 'invalid UTF-8',
      body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      contentType: json,
    },
    { label: 'a lone surrogate', body: '{"name":"\\ud800"}', contentType: json },
    ...ODD_IDS.map((id): Case => ({ label: `the id ${id.slice(0, 20)}`, path: (p) => p.replace(/:[A-Za-z]+/g, id) })),
    ...ODD_PAGING.map((query): Case => ({ label: `the query ${query}`, query })),
    { label: 'wrong credentials', credentials: 'wrong', body: '{}', contentType: json },
    { label: 'no credentials', credentials: 'none', body: '{}', contentType: json },
  ];
}

function credentialsFor(family: string, token: string): Record<string, string> {
  switch (family) {
    case 'agents':
    case 'alerts':
    case 'conversations':
    case 'concurrency':
    case 'dni':
      return { 'x-api-key': LOCAL_KEYS[family === 'concurrency' ? 'conversations' : family] };
    case 'externalEvents':
      return { 'x-api-key': LOCAL_KEYS.externalEvents };
    case 'chat':
      return { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };
    case 'outbound':
      return { 'x-service-auth-token': LOCAL_CONNECTORS.outboundToken };
    case 'messaging':
      return {
        'x-token': LOCAL_CONNECTORS.webchatToken,
        'x-host': LOCAL_CONNECTORS.webchatHost,
        authorization: `Bearer ${token}`,
      };
    default:
      return {};
  }
}

function wrongCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, k === 'x-host' ? v : `${v}-wrong`]));
}

describe('local platform bad input: every route, every kind of bad request', () => {
  let lp: LocalPlatform;
  let dir: string;
  let token = '';
  let tried = 0;
  const routes = allRoutes();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lp-bad-'));
    lp = await startLocalPlatform({ dataDir: dir, seed: 'base', streamDelayMs: 0, messagingHttpPerMinute: 1_000_000 });
    const res = await fetch(`${lp.urls.messaging}/api/v1/access-token`, {
      method: 'POST',
      headers: {
        'x-token': LOCAL_CONNECTORS.webchatToken,
        'x-host': LOCAL_CONNECTORS.webchatHost,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  after(async () => {
    await lp.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('covers every route of every family', () => {
    assert.ok(routes.length >= 40, `found ${routes.length} routes`);
  });

  for (const route of routes) {
    it(`${route.method} ${route.pattern} (${route.family}): no 5xx, no hang, and the server answers after each`, async () => {
      const baseUrl = lp.urls[route.base];
      for (const c of cases()) {
        const pattern = c.path
          ? c.path(route.pattern)
          : route.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => PARAMS[name] ?? 'x');
        const url = `${baseUrl}${pattern}${c.query ? `?${c.query}` : ''}`;
        const good = credentialsFor(route.family, token);
        const headers: Record<string, string> =
          c.credentials === 'none' ? {} : c.credentials === 'wrong' ? wrongCredentials(good) : { ...good };
        if (c.contentType) headers['content-type'] = c.contentType;
        const withBody = route.method !== 'GET' && c.body !== undefined;
        const label = `${route.method} ${pattern.slice(0, 80)} with ${c.label}`;
        let status: number;
        try {
          const res = await fetch(url, {
            method: route.method,
            headers,
            body: withBody ? c.body : undefined,
            signal: AbortSignal.timeout(10_000),
          });
          await res.arrayBuffer();
          status = res.status;
        } catch (err) {
          assert.fail(`${label}: no answer (${String(err)})`);
        }
        tried += 1;
        assert.ok(status < 500, `${label}: answered ${status}`);
        const health = await fetch(`${lp.urls.admin}/health`, { signal: AbortSignal.timeout(5_000) });
        assert.equal(health.status, 200, `the server stopped answering after ${label}`);
      }
    });
  }

  it('still saves afterwards: a new agent is kept across a restart, and nothing stored breaks a save', async (t) => {
    t.diagnostic(`${tried} bad requests over ${routes.length} routes`);
    const created = await fetch(`${lp.urls.build}/v1/agents`, {
      method: 'POST',
      headers: { 'x-api-key': LOCAL_KEYS.agents, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the storm' }),
    });
    assert.equal(created.status, 201);
    const { agentId } = (await created.json()) as { agentId: string };
    await lp.close();
    lp = await startLocalPlatform({ dataDir: dir, seed: 'empty', streamDelayMs: 0 });
    const res = await fetch(`${lp.urls.build}/v1/agents/${agentId}`, { headers: { 'x-api-key': LOCAL_KEYS.agents } });
    assert.equal(res.status, 200);
  });
});
