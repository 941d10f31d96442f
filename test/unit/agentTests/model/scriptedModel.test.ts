// The scripted OpenAI-compatible server the judged tests talk to: what it answers, counts and faults, over HTTP.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../../../support/http';
import { lastUser, startScriptedModel } from '../../../support/scriptedModel';

const chat = (baseUrl: string, content: string, headers: Record<string, string> = {}) =>
  call<{
    choices: Array<{ message: { content: string } }>;
    usage?: { prompt_tokens: number; completion_tokens: number };
  }>('POST', `${baseUrl}/chat/completions`, { headers, body: { model: 'm', messages: [{ role: 'user', content }] } });

test('answers by the rule the test gives, with usage, and counts the calls', async (t) => {
  const model = await startScriptedModel({ answer: (r) => `echo: ${lastUser(r)}` });
  t.after(() => model.close());
  const res = await chat(model.baseUrl, 'hello');
  assert.equal(res.status, 200);
  assert.equal(res.body.choices[0]?.message.content, 'echo: hello');
  assert.ok((res.body.usage?.prompt_tokens ?? 0) > 0);
  assert.ok((res.body.usage?.completion_tokens ?? 0) > 0);
  assert.equal(model.calls(), 1);
  assert.equal(model.answered(), 1);
  assert.equal(model.requests[0]?.messages[0]?.content, 'hello');
});

test('reports the usage a rule gives, or none', async (t) => {
  const model = await startScriptedModel({ answer: { text: 'x', usage: { input: 7, output: 3 } } });
  t.after(() => model.close());
  assert.deepEqual((await chat(model.baseUrl, 'a')).body.usage, {
    prompt_tokens: 7,
    completion_tokens: 3,
    total_tokens: 10,
  });
  model.setAnswer({ text: 'x', usage: 'none' });
  assert.equal((await chat(model.baseUrl, 'a')).body.usage, undefined);
});

test('lists its models', async (t) => {
  const model = await startScriptedModel({ models: ['judge-1', 'caller-1'] });
  t.after(() => model.close());
  const res = await call<{ data: Array<{ id: string }> }>('GET', `${model.baseUrl}/models`);
  assert.deepEqual(
    res.body.data.map((m) => m.id),
    ['judge-1', 'caller-1'],
  );
});

test('queued faults come first, in order, then the rule answers', async (t) => {
  const model = await startScriptedModel({
    answer: 'ok',
    faults: [
      { fault: 'rate-limited', retryAfter: '2' },
      { fault: 'rate-limited' },
      { fault: 'status', status: 503 },
      { fault: 'not-json' },
    ],
  });
  t.after(() => model.close());
  const limited = await chat(model.baseUrl, 'a');
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '2');
  const bare = await chat(model.baseUrl, 'a');
  assert.equal(bare.status, 429);
  assert.equal(bare.headers.get('retry-after'), null);
  assert.equal((await chat(model.baseUrl, 'a')).status, 503);
  const html = await chat(model.baseUrl, 'a');
  assert.equal(html.status, 200);
  assert.match(String(html.body), /<html>/);
  assert.equal((await chat(model.baseUrl, 'a')).body.choices[0]?.message.content, 'ok');
  assert.equal(model.calls(), 5);
  assert.equal(model.answered(), 1);
});

test('a reset closes the connection without an answer', async (t) => {
  const model = await startScriptedModel({ answer: { fault: 'reset' } });
  t.after(() => model.close());
  await assert.rejects(chat(model.baseUrl, 'a'));
  assert.equal(model.calls(), 1);
});

test('a rule that has no answer gets a 500 that says so', async (t) => {
  const model = await startScriptedModel({ answer: () => undefined });
  t.after(() => model.close());
  const res = await call<{ error: { message: string } }>('POST', `${model.baseUrl}/chat/completions`, {
    body: { model: 'm', messages: [] },
  });
  assert.equal(res.status, 500);
  assert.match(res.body.error.message, /no rule/);
});

test('a delay holds every answer, and requests overlap', async (t) => {
  const model = await startScriptedModel({ answer: 'late', delayMs: 80 });
  t.after(() => model.close());
  const started = Date.now();
  await Promise.all([chat(model.baseUrl, 'a'), chat(model.baseUrl, 'b'), chat(model.baseUrl, 'c')]);
  assert.ok(Date.now() - started >= 75);
  assert.equal(model.peakConcurrency(), 3);
});

test('with a key set, a request without it is refused', async (t) => {
  const model = await startScriptedModel({ answer: 'ok', key: 'sk-test' });
  t.after(() => model.close());
  assert.equal((await chat(model.baseUrl, 'a')).status, 401);
  assert.equal((await chat(model.baseUrl, 'a', { authorization: 'Bearer sk-test' })).status, 200);
});

test('close ends a slow answer still held', async (t) => {
  const model = await startScriptedModel({ answer: { text: 'never', delayMs: 60_000 } });
  t.after(() => model.close());
  const pending = chat(model.baseUrl, 'a');
  await new Promise((r) => setTimeout(r, 50));
  await model.close();
  await assert.rejects(pending);
});
