// The OpenAI-compatible model against the scripted model server: answers, usage, and every fault a person
// could meet, each a ModelCallError that says what to do, with the key nowhere in it.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createOpenAiModel, openAiModelId } from '../../../../src/agentTests/model/openaiModel';
import { ModelCallError } from '../../../../src/agentTests/model/types';
import { lastUser, startScriptedModel } from '../../../support/scriptedModel';

const KEY = 'sk-test-0123456789abcdef';
const ask = [{ role: 'user' as const, content: 'hello' }];

async function failure(p: Promise<unknown>): Promise<ModelCallError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ModelCallError, `expected a ModelCallError, got ${String(err)}`);
    assert.ok(!err.message.includes(KEY), `the key is in: ${err.message}`);
    return err;
  }
  assert.fail('the call did not fail');
}

test('answers with the text and the usage the endpoint reports, sending the key as a bearer token', async (t) => {
  const server = await startScriptedModel({
    answer: (r) => ({ text: `you said ${lastUser(r)}`, usage: { input: 11, output: 4 } }),
  });
  t.after(() => server.close());
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'judge-1', key: KEY });
  const reply = await model.complete([{ role: 'system', content: 'be brief' }, ...ask]);
  assert.equal(reply.text, 'you said hello');
  assert.deepEqual(reply.usage, { inputTokens: 11, outputTokens: 4 });
  const req = server.requests[0];
  assert.equal(req?.model, 'judge-1');
  assert.deepEqual(req?.messages, [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hello' },
  ]);
  assert.equal(req?.headers.authorization, `Bearer ${KEY}`);
  assert.equal(req?.body.temperature, 0);
});

test('without a key no Authorization header is sent (a local server)', async (t) => {
  const server = await startScriptedModel({ answer: 'ok' });
  t.after(() => server.close());
  await createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' }).complete(ask);
  assert.equal(server.requests[0]?.headers.authorization, undefined);
});

test('an answer without usage has none', async (t) => {
  const server = await startScriptedModel({ answer: { text: 'ok', usage: 'none' } });
  t.after(() => server.close());
  const reply = await createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' }).complete(ask);
  assert.equal(reply.usage, undefined);
});

test("the model's id names the host and the model, not the key or the path", () => {
  assert.equal(openAiModelId('http://127.0.0.1:11434/v1', 'llama3'), 'openai:127.0.0.1:11434/llama3');
  assert.equal(openAiModelId('https://user:pw@api.example.com/v1?key=x', 'gpt'), 'openai:api.example.com/gpt');
});

test('a 429 with Retry-After is waited for and tried again, within the bound', async (t) => {
  const server = await startScriptedModel({
    answer: 'after the wait',
    faults: [{ fault: 'rate-limited', retryAfter: '0.2' }],
  });
  t.after(() => server.close());
  const started = Date.now();
  const reply = await createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' }).complete(ask);
  assert.equal(reply.text, 'after the wait');
  assert.ok(Date.now() - started >= 180, 'waited as Retry-After asked');
  assert.equal(server.calls(), 2);
});

test('a 429 without Retry-After backs off and gives up after the bounded retries, saying what to do', async (t) => {
  const server = await startScriptedModel({ answer: { fault: 'rate-limited' } });
  t.after(() => server.close());
  const model = createOpenAiModel({
    baseUrl: server.baseUrl,
    model: 'm',
    key: KEY,
    rateLimitRetries: 2,
    rateLimitBackoffMs: 5,
  });
  const err = await failure(model.complete(ask));
  assert.equal(err.kind, 'rate-limited');
  assert.match(err.message, /rate-limited \(429\) after 3 tries: wait a while and run again/);
  assert.equal(server.calls(), 3);
});

test('a Retry-After longer than the bound is not waited for', async (t) => {
  const server = await startScriptedModel({ answer: { fault: 'rate-limited', retryAfter: '120' } });
  t.after(() => server.close());
  const started = Date.now();
  const err = await failure(createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' }).complete(ask));
  assert.equal(err.kind, 'rate-limited');
  assert.match(err.message, /asks to wait 120 s/);
  assert.ok(Date.now() - started < 5_000);
  assert.equal(server.calls(), 1);
});

for (const status of [500, 503]) {
  test(`a ${status} fails at once, never retried, and says the server is at fault`, async (t) => {
    const server = await startScriptedModel({ answer: { fault: 'status', status } });
    t.after(() => server.close());
    const err = await failure(createOpenAiModel({ baseUrl: server.baseUrl, model: 'm', key: KEY }).complete(ask));
    assert.equal(err.kind, 'unreachable');
    assert.match(err.message, new RegExp(`failed \\(${status}.*try again later`));
    assert.equal(server.calls(), 1);
  });
}

test('a wrong key is refused, and the endpoint echoing it shows none of it', async (t) => {
  const server = await startScriptedModel({ answer: 'ok', key: 'sk-the-right-one-000000' });
  t.after(() => server.close());
  const err = await failure(createOpenAiModel({ baseUrl: server.baseUrl, model: 'm', key: KEY }).complete(ask));
  assert.equal(err.kind, 'refused');
  assert.match(err.message, /refused the key \(401.*set the endpoint key again/);
  assert.doesNotMatch(err.message, /sk-/);
  assert.equal(server.calls(), 0);
});

test('a body that is not JSON is unreadable, whatever its content type says', async (t) => {
  const server = await startScriptedModel({ answer: { fault: 'not-json' } });
  t.after(() => server.close());
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' });
  const html = await failure(model.complete(ask));
  assert.equal(html.kind, 'unreadable');
  assert.match(html.message, /not a chat completion: check that the base URL/);
  server.setAnswer({ fault: 'not-json', contentType: 'application/json' });
  assert.equal((await failure(model.complete(ask))).kind, 'unreadable');
  server.setAnswer({ fault: 'wrong-shape' });
  assert.equal((await failure(model.complete(ask))).kind, 'unreadable');
});

test('a slow answer times out, once, saying how long it waited', async (t) => {
  const server = await startScriptedModel({ answer: { text: 'too late', delayMs: 5_000 } });
  t.after(() => server.close());
  const err = await failure(createOpenAiModel({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200 }).complete(ask));
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /did not answer within 0.2 s/);
  assert.equal(server.calls(), 1);
});

test('a reset connection and a server that is not there are unreachable', async (t) => {
  const server = await startScriptedModel({ answer: { fault: 'reset' } });
  t.after(() => server.close());
  const reset = await failure(createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' }).complete(ask));
  assert.equal(reset.kind, 'unreachable');
  assert.equal(server.calls(), 1);
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const down = await failure(createOpenAiModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).complete(ask));
  assert.equal(down.kind, 'unreachable');
  assert.match(down.message, /could not be reached.*check the base URL and that the server is running/);
});

test('a 404 says to check the model name and the base URL', async (t) => {
  const server = await startScriptedModel({ answer: 'ok' });
  t.after(() => server.close());
  const err = await failure(
    createOpenAiModel({ baseUrl: server.baseUrl.replace(/\/v1$/, ''), model: 'm' }).complete(ask),
  );
  assert.equal(err.kind, 'refused');
  assert.match(err.message, /not found \(404.*check the model name and the base URL/);
});

test('cancelling stops the call, also while it waits for a Retry-After', async (t) => {
  const server = await startScriptedModel({ answer: { text: 'late', delayMs: 5_000 } });
  t.after(() => server.close());
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'm' });
  const slow = new AbortController();
  setTimeout(() => slow.abort(), 50);
  assert.equal((await failure(model.complete(ask, slow.signal))).kind, 'cancelled');
  server.setAnswer({ fault: 'rate-limited', retryAfter: '10' });
  const waiting = new AbortController();
  setTimeout(() => waiting.abort(), 100);
  const started = Date.now();
  assert.equal((await failure(model.complete(ask, waiting.signal))).kind, 'cancelled');
  assert.ok(Date.now() - started < 3_000);
});

test('a base URL that is not http(s) is refused before any call', () => {
  assert.throws(() => createOpenAiModel({ baseUrl: 'localhost:11434', model: 'm' }), ModelCallError);
  assert.throws(() => createOpenAiModel({ baseUrl: 'ftp://x/v1', model: 'm' }), /http or https/);
});
