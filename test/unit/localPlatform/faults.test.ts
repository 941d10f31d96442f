import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const AGENTS = { 'x-api-key': LOCAL_KEYS.agents };

describe('local platform faults: resets and answers that are not JSON', () => {
  const t = useLocalPlatform();
  const agents = (): string => `${t.lp.urls.build}/v1/agents`;
  const names = async (): Promise<string[]> => {
    const list = await call<{ agents: Array<{ name: string }> }>('GET', agents(), { headers: AGENTS });
    return list.body.agents.map((a) => a.name);
  };
  /** The error a call ends with when its connection is closed without an answer. */
  const reset = async (promise: Promise<unknown>): Promise<string> => {
    const err = await promise.then(
      () => assert.fail('expected the connection to be closed without an answer'),
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    return `${err.message} ${err.cause?.code ?? ''}`;
  };

  it('[AGENT-1] a reset before the request is carried out closes the connection and does nothing', async () => {
    await t.admin.addFault({ family: 'build', method: 'POST', path: '/v1/agents', reset: 'before', times: 1 });
    const why = await reset(call('POST', agents(), { headers: AGENTS, body: { name: 'Reset Before' } }));
    assert.match(why, /fetch failed|closed|socket|reset/i);
    assert.ok(!(await names()).includes('Reset Before'), 'nothing was created');
  });

  it('[AGENT-1] a reset after the request is carried out loses only the answer: the agent is created', async () => {
    await t.admin.addFault({ family: 'build', method: 'POST', path: '/v1/agents', reset: 'after', times: 1 });
    await reset(call('POST', agents(), { headers: AGENTS, body: { name: 'Reset After' } }));
    assert.ok((await names()).includes('Reset After'), 'the agent was created before the answer was lost');
    // The fault was used up: the next request is answered.
    assert.equal((await call('GET', agents(), { headers: AGENTS })).status, 200);
  });

  it('a reset after a request that failed loses its error answer too', async () => {
    await t.admin.addFault({ family: 'build', path: '/v1/nothing', reset: 'after', times: 1 });
    await reset(call('GET', `${t.lp.urls.build}/v1/nothing`, { headers: AGENTS }));
    assert.equal((await call('GET', `${t.lp.urls.build}/v1/nothing`, { headers: AGENTS })).status, 404);
  });

  it('a status with a text body answers that text (a proxy page) and does not carry the request out', async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    await t.admin.addFault({
      family: 'build',
      method: 'POST',
      path: '/v1/agents',
      status: 502,
      rawBody: page,
      times: 1,
    });
    const res = await call('POST', agents(), { headers: AGENTS, body: { name: 'Behind A Proxy' } });
    assert.equal(res.status, 502);
    assert.equal(res.body, page);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(!(await names()).includes('Behind A Proxy'));
  });

  it('[AGENT-1] a text body without a status carries the request out and answers its own status with the text', async () => {
    await t.admin.addFault({
      family: 'build',
      method: 'POST',
      path: '/v1/agents',
      rawBody: 'created',
      contentType: 'text/plain',
      times: 1,
    });
    const res = await call('POST', agents(), { headers: AGENTS, body: { name: 'Answered In Text' } });
    assert.equal(res.status, 201);
    assert.equal(res.body, 'created');
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.ok((await names()).includes('Answered In Text'));
  });

  it('[CONV-1] a read answered 200 with a sign-in page instead of JSON', async () => {
    await t.admin.addFault({
      family: 'runtime',
      path: '/conversations',
      rawBody: '<!doctype html><p>Sign in',
      times: 1,
    });
    const res = await call('GET', `${t.lp.urls.runtime}/v3/acme/support-desk/conversations`, {
      headers: { 'x-api-key': LOCAL_KEYS.conversations },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body, '<!doctype html><p>Sign in');
  });

  it('a delay then a reset: the connection is held, then closed without an answer', async () => {
    await t.admin.addFault({ family: 'build', path: '/v1/agents', delayMs: 150, reset: 'before', times: 1 });
    const started = Date.now();
    await reset(call('GET', agents(), { headers: AGENTS }));
    assert.ok(Date.now() - started >= 140, 'the delay came first');
  });

  it('clears one fault by its id and keeps the others', async () => {
    const first = await t.admin.addFault({ family: 'build', path: '/v1/one', status: 500 });
    const second = await t.admin.addFault({ family: 'build', path: '/v1/two', status: 503 });
    await t.admin.removeFault(first.id);
    assert.deepEqual(
      (await t.admin.faults()).map((f) => f.id),
      [second.id],
    );
    assert.equal((await call('GET', `${t.lp.urls.build}/v1/one`, { headers: AGENTS })).status, 404);
    assert.equal((await call('GET', `${t.lp.urls.build}/v1/two`, { headers: AGENTS })).status, 503);
    const gone = await call('DELETE', `${t.lp.urls.admin}/faults/${first.id}`);
    assert.equal(gone.status, 404, 'a fault cleared already is not there');
  });

  it('refuses a reset other than before or after, and a text body that is not text, saying which field', async () => {
    for (const [fault, field] of [
      [{ reset: 'sometimes' }, 'reset'],
      [{ reset: true }, 'reset'],
      [{ rawBody: { not: 'text' } }, 'rawBody'],
      [{ rawBody: 'x', contentType: 'text/plain\r\nx-injected: 1' }, 'contentType'],
    ] as const) {
      const res = await call<{ errors: Array<{ field: string }> }>('POST', `${t.lp.urls.admin}/faults`, {
        body: fault,
      });
      assert.equal(res.status, 400, JSON.stringify(fault));
      assert.equal(res.body.errors[0]!.field, field);
    }
    assert.deepEqual(await t.admin.faults(), []);
  });
});
