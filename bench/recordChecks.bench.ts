// Record checks: the same 200 cases of 5 turns, 4 at a time, against a local platform in a process of its own, with
// and without checks on each conversation's record (a state key and a turn's intents, entities and out-of-domain
// mark), so the figure is what reading and checking the records adds: one Conversations API listing per case.
import { parseTestFile } from '../src/agentTests/parse';
import { runCases } from '../src/agentTests/runner';
import type { TestCase } from '../src/agentTests/format';
import type { RecordReach } from '../src/agentTests/records/fetch';
import { ChatClient } from '../src/client/chat';
import { ConversationsClient } from '../src/client/conversations';
import { Transport } from '../src/client/transport';
import { localContext } from '../test/support/localClient';
import { median } from '../test/support/median';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';

const CASES = 200;
const TURNS = 5;
const CONCURRENCY = 4;
const ROUNDS = 5;
const QUESTIONS = ['Hello', 'What are your opening hours?', 'Can I return an item?', 'How long is delivery?', 'Thanks'];

function caseText(i: number, records: boolean): string {
  const turns = QUESTIONS.map(
    (q, t) =>
      `      - user: ${q}\n        not_contains: [error]\n        handoff: none` +
      (records && t === 1 ? '\n        intents: [faq.opening-hours]\n        entities: {}\n        ood: false' : ''),
  );
  const state = records ? '\n    state:\n      card_blocked: { absent: true }' : '';
  return `  - name: case ${i}\n    tags: [sandbox]\n    turns:\n${turns.join('\n')}${state}`;
}

function casesOf(records: boolean): readonly TestCase[] {
  const file = parseTestFile(
    'bench.yaml',
    `cases:\n${Array.from({ length: CASES }, (_, i) => caseText(i, records)).join('\n')}\n`,
  );
  if (file.problems.length > 0) throw new Error(file.problems[0]?.message);
  return file.cases;
}

async function runner(chat: ChatClient, cases: readonly TestCase[], records?: RecordReach): Promise<void> {
  const results = await runCases(cases, {
    concurrency: CONCURRENCY,
    target: () => ({ chat, ...(records ? { records } : {}) }),
  });
  const failed = results.filter((r) => r.outcome !== 'passed');
  if (failed.length > 0) throw new Error(`${failed.length} cases did not pass: ${JSON.stringify(failed[0]?.runs[0])}`);
  if (records && !results.every((r) => r.runs[0]?.records?.length === 4))
    throw new Error('not every case checked its record');
}

async function main(server: PlatformProcess): Promise<void> {
  const transport = new Transport();
  const context = localContext(server, { transport });
  const chat = new ChatClient(context);
  const records: RecordReach = { lister: new ConversationsClient(context), environment: 'sandbox' };
  const plain = casesOf(false);
  const checked = casesOf(true);
  try {
    await runner(chat, plain);
    await runner(chat, checked, records);
    const without: number[] = [];
    const withChecks: number[] = [];
    // Alternated, so a busy moment of the machine falls on both.
    for (let i = 0; i < ROUNDS; i++) {
      let t0 = performance.now();
      await runner(chat, plain);
      without.push(performance.now() - t0);
      t0 = performance.now();
      await runner(chat, checked, records);
      withChecks.push(performance.now() - t0);
    }
    const what = `${CASES} cases of ${TURNS} turns, ${CONCURRENCY} at a time`;
    bench(`record checks: ${what}, without record checks`, median(without), 'ms', '');
    bench(`record checks: ${what}, each checking its record (4 checks)`, median(withChecks), 'ms', '');
    bench(
      'record checks on 200 cases: run time / the same run without them',
      median(withChecks) / median(without),
      'x',
      '<= 1.3',
    );
  } finally {
    transport.dispose();
  }
}

withPlatformProcess({ seed: 'base', streamDelayMs: 0 }, main);
