// An agent folder of 5,000 knowledge topics on disk, against the local platform in a process of its own, through
// the file mirror (src/workspace) and the checks (src/lint) as the editor and the command line run them:
// - pull into an empty folder (check out), status with and without reading the platform, a pull after a teammate
//   changed 50 topics, a push after editing one topic and after editing 100
// - the checks of the whole folder (files read from disk and checked, a fresh session), and a keystroke in one
//   topic checked again with what the session kept
// Each step is timed several times, medians (status and keystroke: more runs, the first ones not counted).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentsClient } from '../src/client/agents';
import { type RequestLog, Transport } from '../src/client/transport';
import { DEFAULT_CONFIG } from '../src/lint/config';
import { LintSession } from '../src/lint/engine';
import { readAgentFolder } from '../src/lint/nodeFolder';
import { NodeFileSystem } from '../src/workspace/fileSystem';
import { AgentMirror } from '../src/workspace/mirror';
import { prose } from '../test/support/lintBenchFolder';
import { LocalAdmin } from '../test/support/localAdmin';
import { localContext } from '../test/support/localClient';
import { median } from '../test/support/median';
import { bench, withPlatformProcess } from './platformProcess';

const TOPICS = 5000;
const AGENT = 'ag_support';
const MAIN = { branchId: 'br_support_main', name: 'main' };
const MANIFEST = { agentId: AGENT, name: 'Support Desk', profile: 'bench', branch: MAIN };
/** Topics a teammate changes before each timed pull, and topics edited before the larger push. */
const CHANGED = 50;
const EDITED = 100;
const N = TOPICS.toLocaleString('en');

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function timedMs(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

withPlatformProcess({ seed: 'base', streamDelayMs: 0 }, async ({ urls }) => {
  const admin = new LocalAdmin(urls.admin);
  // The seed's branch holds 3 topics; the rest are added in parts (a request body is at most 5 MB).
  for (let from = 0; from < TOPICS - 3; from += 1000) {
    const upsertTopics = Array.from({ length: Math.min(1000, TOPICS - 3 - from) }, (_, k) => ({
      name: `Topic ${String(from + k).padStart(4, '0')}`,
      content: `${prose(from + k + 1, 150)}\n`,
    }));
    await admin.editBranch(AGENT, MAIN.branchId, { upsertTopics });
  }
  const logs: RequestLog[] = [];
  const transport = new Transport({ connections: 3, onRequest: (l) => logs.push(l) });
  const client = new AgentsClient(localContext({ urls }, { transport }));
  const dirs: string[] = [];
  try {
    const checkouts: number[] = [];
    let mirror: AgentMirror | undefined;
    let fs: NodeFileSystem | undefined;
    for (let i = 0; i < 3; i++) {
      const dir = await mkdtemp(join(tmpdir(), 'aw-bench-folder-'));
      dirs.push(dir);
      fs = new NodeFileSystem(dir);
      mirror = new AgentMirror(fs, client);
      checkouts.push(await timedMs(() => mirror!.checkout(MANIFEST)));
    }
    const folder = fs!.root;
    const topicFiles = (await readAgentFolder(folder)).filter((f) => f.path.startsWith('knowledge/'));
    if (topicFiles.length !== TOPICS) throw new Error(`the pull wrote ${topicFiles.length} topic files`);

    const status: number[] = [];
    for (let i = 0; i < 17; i++) {
      let files: Awaited<ReturnType<AgentMirror['status']>> = [];
      status.push(await timedMs(async () => (files = await mirror!.status())));
      if (files.length !== TOPICS + 2 || files.some((f) => f.state !== 'unchanged'))
        throw new Error('the status of an untouched folder is not all unchanged');
    }
    status.splice(0, 2);
    const remoteStatus: number[] = [];
    for (let i = 0; i < 5; i++) remoteStatus.push(await timedMs(() => mirror!.status({ remote: true })));

    // A teammate changes 50 topics on the platform before each pull; the pull merges them into the folder.
    const topics = await client.listTopics(AGENT, MAIN.branchId);
    const pulls: number[] = [];
    for (let round = 0; round < 5; round++) {
      const upsertTopics = Array.from({ length: CHANGED }, (_, k) => {
        const i = (round * 997 + k * 89) % TOPICS;
        return {
          topicId: topics[i]!.topicId,
          name: topics[i]!.name,
          content: `${prose(i + 1, 150)}\nChanged by a teammate (${round}).\n`,
        };
      });
      await admin.editBranch(AGENT, MAIN.branchId, { upsertTopics });
      let written = 0;
      pulls.push(await timedMs(async () => (written = (await mirror!.pull()).actions.length)));
      if (written < CHANGED) throw new Error(`the pull wrote ${written} files for ${CHANGED} changed topics`);
    }

    async function edit(paths: readonly string[], round: number): Promise<void> {
      for (const path of paths) {
        const file = join(folder, path);
        await writeFile(file, `${await readFile(file, 'utf8')}Edited here (${round}).\n`);
      }
    }
    const pushOne: number[] = [];
    const writesOfOne: number[] = [];
    for (let round = 0; round < 5; round++) {
      await edit([topicFiles[(round * 613) % TOPICS]!.path], round);
      logs.length = 0;
      let sent = 0;
      pushOne.push(await timedMs(async () => (sent = (await mirror!.push()).sent.length)));
      if (sent !== 1) throw new Error(`the push of one edited topic sent ${sent}`);
      writesOfOne.push(logs.filter((l) => l.method !== 'GET').length);
    }
    const pushMany: number[] = [];
    for (let round = 0; round < 3; round++) {
      await edit(
        Array.from({ length: EDITED }, (_, k) => topicFiles[(round * 1499 + k * 47) % TOPICS]!.path),
        round + 10,
      );
      let sent = 0;
      pushMany.push(await timedMs(async () => (sent = (await mirror!.push()).sent.length)));
      if (sent !== EDITED) throw new Error(`the push of ${EDITED} edited topics sent ${sent}`);
    }

    // The checks, as a folder opened in the editor or `agent-workbench lint` runs them: every file read, then checked.
    const checks: number[] = [];
    let files = await readAgentFolder(folder);
    for (let i = 0; i < 5; i++) {
      checks.push(
        await timedMs(async () => {
          files = await readAgentFolder(folder);
          new LintSession().lint(files, DEFAULT_CONFIG);
        }),
      );
    }
    const session = new LintSession();
    session.lint(files, DEFAULT_CONFIG);
    const typedAt = files.findIndex((f) => f.path === topicFiles[2500]!.path);
    const keystrokes: number[] = [];
    for (let i = 0; i < 55; i++) {
      const typed = files.map((f, j) => (j === typedAt ? { ...f, text: `${f.text}${'x'.repeat(i + 1)}` } : f));
      keystrokes.push(await timedMs(async () => session.lint(typed, DEFAULT_CONFIG)));
    }
    keystrokes.splice(0, 5);
    console.error(`keystrokes: ${keystrokes.map(Math.round).join(', ')} ms`);

    console.error(
      `check out: ${checkouts.map(Math.round).join(', ')} ms; status: ${status.map(Math.round).join(', ')} ms; with the platform: ${remoteStatus.map(Math.round).join(', ')} ms; pull: ${pulls.map(Math.round).join(', ')} ms; push one: ${pushOne.map(Math.round).join(', ')} ms; push ${EDITED}: ${pushMany.map(Math.round).join(', ')} ms; checks: ${checks.map(Math.round).join(', ')} ms`,
    );
    bench(
      `agent folder of ${N} topics: pull into an empty folder on disk (check out, median of 3)`,
      median(checkouts),
      'ms',
      '< 5000',
    );
    bench(`agent folder of ${N} topics: status of the files on disk (median of 15)`, median(status), 'ms', '< 500');
    bench(
      `agent folder of ${N} topics: status with the platform's changes (Refresh Status, median of 5)`,
      median(remoteStatus),
      'ms',
      '< 1000',
    );
    bench(
      `agent folder of ${N} topics: pull after a teammate changed ${CHANGED} topics (median of 5)`,
      median(pulls),
      'ms',
      '< 1000',
    );
    bench(`agent folder of ${N} topics: push after editing one topic (median of 5)`, median(pushOne), 'ms', '< 1000');
    bench(
      `agent folder of ${N} topics: requests a push sends after editing one topic (besides its reads, most of 5)`,
      Math.max(...writesOfOne),
      'requests',
      '<= 1',
    );
    bench(
      `agent folder of ${N} topics: push after editing ${EDITED} topics (median of 3)`,
      median(pushMany),
      'ms',
      '< 3000',
    );
    bench(
      `agent folder of ${N} topics: checks of the whole folder, files read from disk and checked (median of 5)`,
      median(checks),
      'ms',
      '< 2000',
    );
    bench(
      `agent folder of ${N} topics: a keystroke in one topic checked again (p95 of 50)`,
      p95(keystrokes),
      'ms',
      '< 20',
    );
  } finally {
    transport.dispose();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
});
