// Conversation tests: the runner against a bare loop making the same Chat API calls at the same concurrency
// (200 cases of 5 turns, 4 at a time, against a local platform in a process of its own), and reading 1,000 cases
// in 50 test files from disk, as the Testing view and the command line discover them. Judged: the same 200 cases
// with an `expect:` on each turn, against a scripted OpenAI-compatible model server answering in 50 ms, against a
// bare loop of the same agent and model calls.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTestFile } from '../src/agentTests/parse';
import { runCases } from '../src/agentTests/runner';
import type { TestCase } from '../src/agentTests/format';
import { ChatClient } from '../src/client/chat';
import { Transport } from '../src/client/transport';
import { localContext } from '../test/support/localClient';
import { median } from '../test/support/median';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';
import { startScriptedModel } from '../test/support/scriptedModel';
import type { LanguageModel, ModelCalls, ModelReply } from '../src/agentTests/model/types';
import { createModelCalls } from '../src/agentTests/model/modelCalls';
import { createOpenAiModel } from '../src/agentTests/model/openaiModel';

const CASES = 200;
const TURNS = 5;
const CONCURRENCY = 4;
const ROUNDS = 3;
const QUESTIONS = ['Hello', 'What are your opening hours?', 'Can I return an item?', 'How long is delivery?', 'Thanks'];

function caseText(i: number): string {
  const turns = QUESTIONS.map((q) => `      - user: ${q}\n        not_contains: [error]\n        handoff: none`);
  return `  - name: case ${i}\n    tags: [sandbox]\n    turns:\n${turns.join('\n')}`;
}

/** The same conversations without the runner: create, five responds, close, four at a time. */
async function bareLoop(chat: ChatClient): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < CASES) {
      next++;
      const created = await chat.create({});
      for (const message of QUESTIONS) await chat.respond({ conversation_id: created.conversation_id, message });
      await chat.close(created.conversation_id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function runner(chat: ChatClient, cases: readonly TestCase[], calls?: ModelCalls): Promise<void> {
  const results = await runCases(cases, {
    concurrency: CONCURRENCY,
    target: () => ({ chat }),
    ...(calls ? { model: { calls } } : {}),
  });
  const failed = results.filter((r) => r.outcome !== 'passed');
  if (failed.length > 0) throw new Error(`${failed.length} cases did not pass: ${JSON.stringify(failed[0]!.runs[0])}`);
}

async function main(server: PlatformProcess): Promise<void> {
  const transport = new Transport();
  const chat = new ChatClient(localContext(server, { transport }));
  const file = parseTestFile(
    'bench.yaml',
    `cases:\n${Array.from({ length: CASES }, (_, i) => caseText(i)).join('\n')}\n`,
  );
  if (file.problems.length > 0) throw new Error(file.problems[0]!.message);
  try {
    await bareLoop(chat);
    await runner(chat, file.cases);
    const bare: number[] = [];
    const run: number[] = [];
    // Alternated, so a busy moment of the machine falls on both.
    for (let i = 0; i < ROUNDS; i++) {
      let t0 = performance.now();
      await bareLoop(chat);
      bare.push(performance.now() - t0);
      t0 = performance.now();
      await runner(chat, file.cases);
      run.push(performance.now() - t0);
    }
    bench(
      `conversation tests: ${CASES} cases of ${TURNS} turns, ${CONCURRENCY} at a time, bare loop of the same Chat API calls (floor)`,
      median(bare),
      'ms',
      '',
    );
    bench(
      `conversation tests: ${CASES} cases of ${TURNS} turns, ${CONCURRENCY} at a time, the runner`,
      median(run),
      'ms',
      '',
    );
    bench('conversation tests: runner time / bare loop time', median(run) / median(bare), 'x', '<= 1.3');
    await measureJudged(chat, median(run));
  } finally {
    transport.dispose();
  }
}

const MODEL_DELAY_MS = 50;
const VERDICT = JSON.stringify({ verdict: 'pass', reason: 'it answers', quotes: [] });

function judgedCaseText(i: number): string {
  const turns = QUESTIONS.map(
    (q) =>
      `      - user: ${q}\n        not_contains: [error]\n        handoff: none\n        expect: answers "${q}" helpfully`,
  );
  return `  - name: judged ${i}\n    tags: [sandbox]\n    turns:\n${turns.join('\n')}`;
}

/**
 * The same conversations and model calls without the runner: each answer's judge call starts as the answer comes
 * (the conversation goes on meanwhile, as the runner does), and a case ends when its judgements are in.
 */
async function bareJudgedLoop(chat: ChatClient, model: LanguageModel): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < CASES) {
      next++;
      const created = await chat.create({});
      const lines = [`agent: ${created.response}`];
      const judging: Promise<ModelReply>[] = [];
      for (const message of QUESTIONS) {
        const reply = await chat.respond({ conversation_id: created.conversation_id, message });
        lines.push(`user: ${message}`, `agent: ${reply.response}`);
        judging.push(
          model.complete([{ role: 'user', content: `answers "${message}" helpfully\n${lines.join('\n')}` }]),
        );
      }
      await chat.close(created.conversation_id);
      await Promise.all(judging);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * The judged suite against the bare loop of the same agent and model calls, and replayed from its cassettes
 * against `unjudged`, the median time of the same cases without criteria.
 */
async function measureJudged(chat: ChatClient, unjudged: number): Promise<void> {
  const server = await startScriptedModel({ answer: VERDICT, delayMs: MODEL_DELAY_MS });
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'scripted-model' });
  const dir = mkdtempSync(join(tmpdir(), 'aw-bench-judged-'));
  const file = parseTestFile(
    join(dir, 'judged.yaml'),
    `cases:\n${Array.from({ length: CASES }, (_, i) => judgedCaseText(i)).join('\n')}\n`,
  );
  if (file.problems.length > 0) throw new Error(file.problems[0]!.message);
  const live = () => createModelCalls({ model, mode: 'live' });
  try {
    await bareJudgedLoop(chat, model);
    await runner(chat, file.cases, live());
    const bare: number[] = [];
    const run: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      server.reset();
      let t0 = performance.now();
      await bareJudgedLoop(chat, model);
      bare.push(performance.now() - t0);
      const bareCalls = server.calls();
      server.reset();
      t0 = performance.now();
      await runner(chat, file.cases, live());
      run.push(performance.now() - t0);
      if (server.calls() !== bareCalls || bareCalls !== CASES * TURNS)
        throw new Error(`the runner made ${server.calls()} model calls, the bare loop ${bareCalls}`);
    }
    const what = `${CASES} judged cases of ${TURNS} turns, ${CONCURRENCY} at a time, a model answering in ${MODEL_DELAY_MS} ms`;
    bench(`conversation tests: ${what}, bare loop of the same agent and model calls (floor)`, median(bare), 'ms', '');
    bench(`conversation tests: ${what}, the runner`, median(run), 'ms', '');
    bench('conversation tests: judged runner time / bare loop time', median(run) / median(bare), 'x', '<= 1.2');

    // Recorded once, then replayed: no model is called.
    const recording = createModelCalls({ model, mode: 'record' });
    await runner(chat, file.cases, recording);
    await recording.flush();
    server.reset();
    const replayed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await runner(chat, file.cases, createModelCalls({ model, mode: 'replay' }));
      replayed.push(performance.now() - t0);
    }
    if (server.calls() !== 0) throw new Error(`the replayed runs called the model ${server.calls()} times`);
    bench(
      `conversation tests: ${CASES} judged cases of ${TURNS} turns replayed from their cassettes`,
      median(replayed),
      'ms',
      '',
    );
    bench(
      'conversation tests: replayed judged run time / unjudged run time',
      median(replayed) / unjudged,
      'x',
      '<= 1.5',
    );
  } finally {
    await server.close();
  }
}

/**
 * 50 files of 20 cases each, read from disk and checked, as discovery does. Measured before the local platform
 * starts, so its work after the runner's 1,200 conversations does not fall on the reading.
 */
function measureDiscovery(): void {
  const dir = mkdtempSync(join(tmpdir(), 'aw-bench-tests-'));
  for (let f = 0; f < 50; f++)
    writeFileSync(
      join(dir, `f${f}.yaml`),
      `agent: ag_support\ncases:\n${Array.from({ length: 20 }, (_, i) => caseText(f * 20 + i)).join('\n')}\n`,
    );
  const discover = () => {
    let cases = 0;
    for (const name of readdirSync(dir))
      cases += parseTestFile(name, readFileSync(join(dir, name), 'utf8')).cases.length;
    if (cases !== 1000) throw new Error(`read ${cases} cases, not 1000`);
  };
  discover();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    discover();
    times.push(performance.now() - t0);
  }
  bench(
    'conversation tests: discovering 1,000 cases in 50 files (read and checked, median of 5)',
    median(times),
    'ms',
    '< 300',
  );
}

if (!process.argv.includes('--serve')) measureDiscovery();
withPlatformProcess({ seed: 'base', streamDelayMs: 0 }, main);
