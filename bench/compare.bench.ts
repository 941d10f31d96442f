// Comparing two targets: 200 cases x 5 repeats on each of two local targets (the support desk's agent and the
// demo restaurant's, each through its own project's Chat key and connector), 8 conversations at a time, against a
// bare loop making the same Chat API calls at the same concurrency, with the local platform in a process of its own.
import { runComparison } from '../src/agentTests/compare/runComparison';
import { parseTestFile } from '../src/agentTests/parse';
import { ChatClient } from '../src/client/chat';
import { Transport } from '../src/client/transport';
import { DEMO_PROJECTS } from '../src/localPlatform/seed/credentials';
import { localContext } from '../test/support/localClient';
import { median } from '../test/support/median';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';

const CASES = 200;
const REPEAT = 5;
const CONCURRENCY = 8;
const ROUNDS = 3;
const QUESTIONS = ['What are your opening hours?', 'Can I book a table?', 'Thanks'];

function caseText(i: number): string {
  const turns = QUESTIONS.map((q) => `      - user: ${q}\n        not_contains: [error]\n        handoff: none`);
  return `  - name: case ${i}\n    turns:\n${turns.join('\n')}`;
}

/** The same conversations without the comparison: each case's repeats on one side, then on the other. */
async function bareLoop(base: ChatClient, candidate: ChatClient): Promise<void> {
  const jobs: ChatClient[] = [];
  for (let i = 0; i < CASES; i++)
    for (const chat of [base, candidate]) for (let r = 0; r < REPEAT; r++) jobs.push(chat);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const chat = jobs[next++] ?? base;
      const created = await chat.create({});
      for (const message of QUESTIONS) await chat.respond({ conversation_id: created.conversation_id, message });
      await chat.close(created.conversation_id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function main(server: PlatformProcess): Promise<void> {
  const transport = new Transport();
  const base = new ChatClient(localContext(server, { transport }));
  const restaurant = DEMO_PROJECTS.restaurant;
  const candidate = new ChatClient(
    localContext(server, {
      transport,
      overrides: { chatApiKey: restaurant.keys.chat, chatConnectorToken: restaurant.connectors.chatToken },
      ids: { projectId: restaurant.projectId },
    }),
  );
  const file = parseTestFile(
    'bench.yaml',
    `cases:\n${Array.from({ length: CASES }, (_, i) => caseText(i)).join('\n')}\n`,
  );
  if (file.problems.length > 0) throw new Error(file.problems[0]?.message);
  const compare = async () => {
    const suite = await runComparison(file.cases, {
      base: () => ({ chat: base }),
      candidate: () => ({ chat: candidate }),
      concurrency: CONCURRENCY,
      repeat: REPEAT,
    });
    if (suite.verdict.pairs !== CASES * REPEAT)
      throw new Error(`${suite.verdict.pairs} pairs: ${suite.verdict.reason}`);
  };
  try {
    await bareLoop(base, candidate);
    await compare();
    const bare: number[] = [];
    const run: number[] = [];
    // Alternated, so a busy moment of the machine falls on both.
    for (let i = 0; i < ROUNDS; i++) {
      let t0 = performance.now();
      await bareLoop(base, candidate);
      bare.push(performance.now() - t0);
      t0 = performance.now();
      await compare();
      run.push(performance.now() - t0);
    }
    const name = `comparing ${CASES} cases x ${REPEAT} repeats on two local targets, ${CONCURRENCY} at a time`;
    bench(`${name}, bare loop of the same Chat API calls (floor)`, median(bare), 'ms', '');
    bench(`${name}, the comparison`, median(run), 'ms', '');
    bench(`${name}: comparison time / bare loop time`, median(run) / median(bare), 'x', '<= 1.2');
  } finally {
    transport.dispose();
  }
}

withPlatformProcess({ port: 0, seed: 'demo', streamDelayMs: 0, alertEvaluationIntervalMs: 0 }, main);
