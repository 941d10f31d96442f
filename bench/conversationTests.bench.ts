// Conversation tests: the runner against a bare loop making the same Chat API calls at the same concurrency
// (200 cases of 5 turns, 4 at a time, against a local platform in a process of its own), and reading 1,000 cases
// in 50 test files from disk, as the Testing view and the command line discover them.
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

async function runner(chat: ChatClient, cases: readonly TestCase[]): Promise<void> {
  const results = await runCases(cases, { concurrency: CONCURRENCY, target: () => ({ chat }) });
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
  } finally {
    transport.dispose();
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
