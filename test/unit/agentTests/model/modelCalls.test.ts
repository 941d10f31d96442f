// The run's model calls through the scripted model server: cassettes beside the test file (record, replay,
// live), what is counted and priced, and the caps, with calls running at once.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CassetteFileError, cassetteKey, cassettePath } from '../../../../src/agentTests/model/cassette';
import { createModelCalls, priceOf } from '../../../../src/agentTests/model/modelCalls';
import { createOpenAiModel } from '../../../../src/agentTests/model/openaiModel';
import { CassetteMissError, type CassetteMode, ModelCapError } from '../../../../src/agentTests/model/types';
import { lastUser, type ScriptedModel, startScriptedModel } from '../../../support/scriptedModel';

const KEY = 'sk-cassette-test-key-987654321';

function folder(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'aw-cassette-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function door(
  server: ScriptedModel,
  mode: CassetteMode,
  extra: Parameters<typeof createModelCalls>[0] extends infer O ? Partial<O> : never = {},
) {
  return createModelCalls({
    model: createOpenAiModel({ baseUrl: server.baseUrl, model: 'judge-1', key: KEY }),
    mode,
    ...extra,
  });
}

const ask = (content: string) => [
  { role: 'system' as const, content: 'You judge.' },
  { role: 'user' as const, content },
];

test('recorded answers are kept beside the test file and replayed with the server stopped: same answers, no calls', async (t) => {
  const dir = folder(t);
  const file = join(dir, 'tests', 'returns.yaml');
  const server = await startScriptedModel({
    answer: (r) => ({ text: `answer to ${lastUser(r)}`, usage: { input: 10, output: 2 } }),
  });
  const record = door(server, 'record');
  const first = await Promise.all(['a', 'b', 'c'].map((q) => record.call('judge', file, ask(q))));
  await record.flush();
  assert.equal(server.calls(), 3);
  assert.deepEqual(record.spent(), { calls: 3, replayed: 0, inputTokens: 30, outputTokens: 6 });
  assert.equal(cassettePath(file), join(dir, 'tests', 'returns.cassette.json'));
  const text = readFileSync(cassettePath(file), 'utf8');
  assert.ok(!text.includes(KEY) && !/bearer|authorization/i.test(text), 'no key or auth header in the cassette');
  assert.deepEqual(readdirSync(join(dir, 'tests')).sort(), ['returns.cassette.json'], 'no temporary file left');
  await server.close();

  const replay = door(server, 'replay');
  const again = await Promise.all(['a', 'b', 'c'].map((q) => replay.call('judge', file, ask(q))));
  assert.deepEqual(
    again.map((r) => r.text),
    first.map((r) => r.text),
  );
  assert.ok(again.every((r) => r.replayed));
  assert.deepEqual(replay.spent(), { calls: 0, replayed: 3, inputTokens: 0, outputTokens: 0 });
});

test('the cassette is stable, sorted and diff-friendly: re-recording the same answers writes the same text', async (t) => {
  const dir = folder(t);
  const file = join(dir, 'case.yaml');
  const server = await startScriptedModel({ answer: (r) => `verdict for ${lastUser(r)}` });
  t.after(() => server.close());
  for (const order of [
    ['z', 'a', 'm'],
    ['m', 'z', 'a'],
  ]) {
    const record = door(server, 'record');
    for (const q of order) await record.call('judge', file, ask(q));
    await record.flush();
    if (order[0] === 'z') writeFileSync(join(dir, 'first.txt'), readFileSync(cassettePath(file)));
  }
  const text = readFileSync(cassettePath(file), 'utf8');
  assert.equal(text, readFileSync(join(dir, 'first.txt'), 'utf8'));
  const parsed = JSON.parse(text) as {
    version: number;
    entries: Record<string, { asked: string; answer: string; purpose: string }>;
  };
  assert.equal(parsed.version, 1);
  const keys = Object.keys(parsed.entries);
  assert.deepEqual(keys, [...keys].sort());
  assert.ok(text.endsWith('}\n') && text.includes('\n  "entries": {\n'));
  assert.deepEqual(
    Object.values(parsed.entries)
      .map((e) => e.answer)
      .sort(),
    ['verdict for a', 'verdict for m', 'verdict for z'],
  );
});

test('a replay miss names the test file, says to re-record, and calls no model', async (t) => {
  const dir = folder(t);
  const file = join(dir, 'case.yaml');
  const server = await startScriptedModel({ answer: 'pass' });
  t.after(() => server.close());
  const record = door(server, 'record');
  await record.call('judge', file, ask('the conversation as it was'));
  await record.flush();
  server.reset();
  const replay = door(server, 'replay');
  await assert.rejects(replay.call('judge', file, ask('the conversation as it is now')), (err: unknown) => {
    assert.ok(err instanceof CassetteMissError);
    assert.equal(err.file, file);
    assert.match(err.message, /re-record needed/);
    return true;
  });
  // Another purpose, or another model, is another key.
  await assert.rejects(replay.call('caller', file, ask('the conversation as it was')), CassetteMissError);
  await assert.rejects(door(server, 'replay').call('judge', join(dir, 'other.yaml'), ask('x')), CassetteMissError);
  assert.equal(server.calls(), 0);
  assert.notEqual(cassetteKey('openai:h/a', 'judge', ask('x')), cassetteKey('openai:h/b', 'judge', ask('x')));
});

test('live calls keep nothing', async (t) => {
  const dir = folder(t);
  const server = await startScriptedModel({ answer: 'ok' });
  t.after(() => server.close());
  const live = door(server, 'live');
  assert.equal((await live.call('judge', join(dir, 'c.yaml'), ask('x'))).replayed, false);
  await live.flush();
  assert.deepEqual(readdirSync(dir), []);
});

test('an unreadable cassette fails a replay saying what to do, and recording rewrites it', async (t) => {
  const dir = folder(t);
  const file = join(dir, 'c.yaml');
  writeFileSync(cassettePath(file), '<<<<<<< HEAD\n{}\n=======\n');
  const server = await startScriptedModel({ answer: 'fresh' });
  t.after(() => server.close());
  await assert.rejects(door(server, 'replay').call('judge', file, ask('x')), (err: unknown) => {
    assert.ok(err instanceof CassetteFileError);
    assert.match(err.message, /cannot be read .*re-record it/);
    return true;
  });
  const record = door(server, 'record');
  await record.call('judge', file, ask('x'));
  await record.flush();
  assert.equal((await door(server, 'replay').call('judge', file, ask('x'))).text, 'fresh');
});

test('tokens are priced per million from the table; a model without a price has no cost', async (t) => {
  const dir = folder(t);
  const server = await startScriptedModel({ answer: { text: 'ok', usage: { input: 1_000, output: 500 } } });
  t.after(() => server.close());
  const priced = door(server, 'live', {
    prices: { 'judge-*': { input: 1, output: 3 }, 'judge-1': { input: 2, output: 4 } },
  });
  await priced.call('judge', join(dir, 'c.yaml'), ask('x'));
  await priced.call('judge', join(dir, 'c.yaml'), ask('y'));
  assert.equal(priced.spent().cost, (2 * (1_000 * 2 + 500 * 4)) / 1_000_000);
  const unpriced = door(server, 'live', { prices: { 'other-model': { input: 1, output: 1 } } });
  await unpriced.call('judge', join(dir, 'c.yaml'), ask('x'));
  assert.equal(unpriced.spent().cost, undefined);
});

test('the most specific price wins: the whole id, the name, then the longest pattern', () => {
  const id = 'openai:api.example.com/gpt-4o-mini';
  const p = (input: number) => ({ input, output: input });
  assert.equal(priceOf({ [id]: p(1), 'gpt-4o-mini': p(2) }, id)?.input, 1);
  assert.equal(priceOf({ 'gpt-4o-mini': p(2), 'gpt-*': p(3) }, id)?.input, 2);
  assert.equal(priceOf({ 'gpt-*': p(3), 'gpt-4o*': p(4) }, id)?.input, 4);
  assert.equal(priceOf({ 'openai:api.example.com/*': p(5) }, id)?.input, 5);
  assert.equal(priceOf({ 'claude-*': p(6) }, id), undefined);
});

test('an answer without usage is counted at about a token per four characters', async (t) => {
  const server = await startScriptedModel({ answer: { text: 'abcdefgh', usage: 'none' } });
  t.after(() => server.close());
  const live = door(server, 'live');
  await live.call('judge', 'c.yaml', [{ role: 'user', content: 'x'.repeat(40) }]);
  assert.deepEqual(live.spent(), { calls: 1, replayed: 0, inputTokens: 10, outputTokens: 2 });
});

test('the call cap holds with calls running at once: no more calls reach the model', async (t) => {
  const server = await startScriptedModel({ answer: 'ok', delayMs: 30 });
  t.after(() => server.close());
  const capped = door(server, 'live', { caps: { maxCalls: 2 } });
  const results = await Promise.allSettled(['a', 'b', 'c', 'd'].map((q) => capped.call('judge', 'c.yaml', ask(q))));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(refused.length, 2);
  for (const r of refused) {
    assert.ok(r.reason instanceof ModelCapError);
    assert.match((r.reason as Error).message, /cap of 2 model calls was reached: raise --max-model-calls/);
  }
  assert.equal(server.calls(), 2);
  assert.equal(capped.spent().calls, 2);
});

test('the cost cap stops calls once reached and keeps what was spent', async (t) => {
  const server = await startScriptedModel({ answer: { text: 'ok', usage: { input: 100_000, output: 0 } } });
  t.after(() => server.close());
  // Each call costs 0.1; the cap of 0.25 lets two through.
  const capped = door(server, 'live', { prices: { 'judge-1': { input: 1, output: 1 } }, caps: { maxCost: 0.25 } });
  await capped.call('judge', 'c.yaml', ask('a'));
  await capped.call('judge', 'c.yaml', ask('b'));
  await assert.rejects(
    capped.call('judge', 'c.yaml', ask('c')),
    /cost cap of 0.25 was reached \(0.2000 spent in 2 calls\)/,
  );
  assert.equal(server.calls(), 2);
  assert.equal(capped.spent().cost, 0.2);
});

test('a cost cap on a model without a price refuses to call it', async (t) => {
  const server = await startScriptedModel({ answer: 'ok' });
  t.after(() => server.close());
  await assert.rejects(
    door(server, 'live', { caps: { maxCost: 1 } }).call('judge', 'c.yaml', ask('a')),
    (err: unknown) => {
      assert.ok(err instanceof ModelCapError);
      assert.match(err.message, /has no price: add it to the price table/);
      return true;
    },
  );
  assert.equal(server.calls(), 0);
});

test('replayed calls are free: they count toward no cap', async (t) => {
  const dir = folder(t);
  const server = await startScriptedModel({ answer: 'ok' });
  t.after(() => server.close());
  const record = door(server, 'record');
  await record.call('judge', join(dir, 'c.yaml'), ask('a'));
  await record.flush();
  const replay = door(server, 'replay', { caps: { maxCalls: 0, maxCost: 0 } });
  assert.equal((await replay.call('judge', join(dir, 'c.yaml'), ask('a'))).text, 'ok');
});

test("a case's scope counts its own share; the run counts all, and the caps are the run's", async (t) => {
  const server = await startScriptedModel({ answer: { text: 'ok', usage: { input: 3, output: 1 } } });
  t.after(() => server.close());
  const run = door(server, 'live', { caps: { maxCalls: 3 } });
  const one = run.scope();
  const two = run.scope();
  await Promise.all([
    one.call('judge', 'c.yaml', ask('a')),
    one.call('judge', 'c.yaml', ask('b')),
    two.call('caller', 'c.yaml', ask('c')),
  ]);
  assert.deepEqual(one.spent(), { calls: 2, replayed: 0, inputTokens: 6, outputTokens: 2 });
  assert.deepEqual(two.spent(), { calls: 1, replayed: 0, inputTokens: 3, outputTokens: 1 });
  assert.equal(run.spent().calls, 3);
  await assert.rejects(two.call('judge', 'c.yaml', ask('d')), ModelCapError);
});

test('a failed call is neither counted nor kept', async (t) => {
  const dir = folder(t);
  const server = await startScriptedModel({ answer: { fault: 'status', status: 500 } });
  t.after(() => server.close());
  const record = door(server, 'record');
  await assert.rejects(record.call('judge', join(dir, 'c.yaml'), ask('a')));
  await record.flush();
  assert.equal(record.spent().calls, 0);
  assert.deepEqual(readdirSync(dir), []);
});
