import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { PlatformError } from '../../../src/client/errors';
import { readBase } from '../../../src/workspace/baseStore';
import { MemoryFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror, UnpushedEditsError } from '../../../src/workspace/mirror';
import { localContext } from '../../support/localClient';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import { AGENT, MAIN, MANIFEST, remoteEdit } from './mirrorSupport';
import { newBranch } from '../../support/branches';

/**
 * Many random sequences of local edits, teammates' edits, pulls, pushes, conflict results,
 * branch switches and injected failures (server errors, answers lost after the server acted, the
 * disk going away). After every step, every edit still counts: it is on the platform (some
 * branch), in a local file, or in a conflict the person is shown. At the end of each sequence a
 * settling pull, resolve and push leave everything in step.
 */
const SEQUENCES = Number(process.env.MIRROR_SEQUENCES ?? 200);
const STEPS = 14;
const CONFIG = 'store-settings';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKEN = /\[t\d+\]/g;
const tokensIn = (text: string | undefined): string[] => text?.match(TOKEN) ?? [];

// Check out, pull and push read the platform's copy (behavior, topics, branches), which the spec does not show.
const READS_PLATFORM_COPY = assumed(
  'GET /v1/agents/{agentId}/branches/{branchId}/behavior, GET .../knowledge-base/topics and GET /v1/agents/{agentId}/branches',
);

describe('file mirror: randomized sequences never lose an edit', { skip: READS_PLATFORM_COPY }, () => {
  const t = useLocalPlatform();

  it(`${SEQUENCES} sequences of ${STEPS} steps`, { timeout: 600_000 }, async (ctx) => {
    const seen = { conflictsSettled: 0, failuresSeen: 0, switchesRefused: 0, pushesRefused: 0 };
    const teammate = new AgentsClient(localContext(t.lp));
    for (let seq = 0; seq < SEQUENCES; seq++) {
      const random = prng(seq + 1);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      await t.admin.reset();
      const other = await newBranch(teammate, 'feature');
      const branches = [MAIN.branchId, other.branchId];
      const fs = new MemoryFileSystem();
      const mirror = new AgentMirror(fs, new AgentsClient(localContext(t.lp)));
      await mirror.checkout(MANIFEST);
      const live = new Set<string>();
      let next = 0;
      const token = (): string => {
        const tok = `[t${seq}_${next++}]`.replace(/_/, '0');
        live.add(tok);
        return tok;
      };
      const retire = (text: string | undefined): void => tokensIn(text).forEach((x) => live.delete(x));
      const log: string[] = [];
      let armed = false;

      /** Inserts a line somewhere in the body of a file (after a topic's front matter). */
      const insertLine = (text: string, line: string): string => {
        const lines = text.split('\n');
        const start = text.startsWith('---\n') ? lines.indexOf('---', 1) + 2 : 0;
        lines.splice(start + Math.floor(random() * (lines.length - start)), 0, line);
        return lines.join('\n');
      };
      const knowledgeFiles = (): string[] => [...fs.files.keys()].filter((p) => p.startsWith('knowledge/'));
      const currentBranch = async (): Promise<string> => (await readBase(fs))!.branchId;

      const check = async (): Promise<void> => {
        await t.admin.clearFaults();
        const seen: string[] = [...fs.files.entries()]
          .filter(([p]) => p !== '.workbench/base.json')
          .map(([, text]) => text);
        for (const c of Object.values((await readBase(fs))!.conflicts)) if (c.remote) seen.push(c.remote);
        for (const b of branches) {
          seen.push((await teammate.getBehavior(AGENT, b)).behavior);
          for (const topic of await teammate.listTopics(AGENT, b)) seen.push(topic.content);
        }
        seen.push(JSON.stringify((await teammate.getRealtimeConfig(AGENT, CONFIG)).variables));
        const all = seen.join('\n');
        const lost = [...live].filter((x) => !all.includes(x));
        assert.deepEqual(lost, [], `sequence ${seq}: edits lost after ${log.join(' → ')}`);
      };

      /** Settles every conflict the way a careful person would: keep both sides' lines. */
      const resolveAll = async (): Promise<void> => {
        const base = (await readBase(fs))!;
        for (const f of (await mirror.status()).filter((x) => x.state === 'conflict')) {
          const mine = fs.files.get(f.path);
          const theirs = base.conflicts[f.key]?.remote ?? undefined;
          let result: string | undefined;
          if (mine === undefined || theirs === undefined) result = mine ?? theirs;
          else if (f.path.startsWith('realtime/')) {
            const a = JSON.parse(mine) as Record<string, unknown>;
            const b = JSON.parse(theirs) as Record<string, unknown>;
            result = `${JSON.stringify({ ...b, ...a, greetingOverride: [...new Set([...tokensIn(String(a.greetingOverride)), ...tokensIn(String(b.greetingOverride))])].join(' ') }, null, 2)}\n`;
          } else
            result =
              mine +
              tokensIn(theirs)
                .filter((x) => !mine.includes(x))
                .map((x) => `${x}\n`)
                .join('');
          await mirror.resolve(f.path, result);
          seen.conflictsSettled++;
        }
      };

      const attempt = async (what: () => Promise<unknown>): Promise<void> => {
        try {
          await what();
        } catch (err) {
          const expected =
            err instanceof UnpushedEditsError ||
            (armed && (err instanceof PlatformError || /disk went away|aborted/i.test(String(err))));
          if (!expected) throw err;
          if (err instanceof UnpushedEditsError) seen.switchesRefused++;
          else seen.failuresSeen++;
        } finally {
          armed = false;
          fs.failAfter(undefined);
        }
      };

      const steps: Record<string, () => Promise<void>> = {
        localEdit: async () => {
          const path = pick(['behavior.md', ...knowledgeFiles()]);
          fs.files.set(path, insertLine(fs.files.get(path) ?? '', token()));
        },
        localAdd: async () => {
          fs.files.set(`knowledge/new-${seq}-${next}.md`, `${token()}\n`);
        },
        localDelete: async () => {
          const files = knowledgeFiles();
          if (files.length === 0) return;
          const path = pick(files);
          retire(fs.files.get(path));
          fs.files.delete(path);
        },
        localRename: async () => {
          const files = knowledgeFiles();
          if (files.length === 0) return;
          const path = pick(files);
          fs.files.set(`knowledge/renamed-${next++}.md`, fs.files.get(path)!);
          fs.files.delete(path);
        },
        localVariable: async () => {
          const path = `realtime/${CONFIG}.json`;
          const text = fs.files.get(path);
          if (text === undefined) return;
          const vars = JSON.parse(text) as Record<string, unknown>;
          retire(String(vars.greetingOverride));
          fs.files.set(path, `${JSON.stringify({ ...vars, greetingOverride: token() }, null, 2)}\n`);
        },
        remoteEdit: async () => {
          const branch = random() < 0.8 ? await currentBranch() : pick(branches);
          const topics = await teammate.listTopics(AGENT, branch);
          if (topics.length === 0 || random() < 0.3) {
            const behavior = (await teammate.getBehavior(AGENT, branch)).behavior;
            await remoteEdit(t.lp, branch, { behavior: insertLine(behavior, token()) });
          } else {
            const topic = pick(topics);
            await remoteEdit(t.lp, branch, {
              upsertTopics: [{ topicId: topic.topicId, name: topic.name, content: insertLine(topic.content, token()) }],
            });
          }
        },
        remoteAdd: async () => {
          await remoteEdit(t.lp, await currentBranch(), {
            upsertTopics: [{ name: pick(['Returns', 'Gift cards', 'Parking']), content: token() }],
          });
        },
        remoteDelete: async () => {
          const branch = await currentBranch();
          const topics = await teammate.listTopics(AGENT, branch);
          if (topics.length === 0) return;
          const topic = pick(topics);
          retire(topic.content);
          await remoteEdit(t.lp, branch, { deleteTopics: [topic.topicId] });
        },
        remoteVariable: async () => {
          retire(String((await teammate.getRealtimeConfig(AGENT, CONFIG)).variables.greetingOverride));
          await teammate.updateVariables(AGENT, CONFIG, { greetingOverride: token() });
        },
        pull: () => attempt(() => mirror.pull()),
        push: () =>
          attempt(async () => {
            if ((await mirror.push()).refused.length > 0) seen.pushesRefused++;
          }),
        resolve: () => attempt(resolveAll),
        switchBranch: () =>
          attempt(async () => {
            const to = (await currentBranch()) === MAIN.branchId ? { branchId: other.branchId, name: 'feature' } : MAIN;
            await mirror.switchBranch(to);
          }),
        serverFault: async () => {
          armed = true;
          await t.admin.addFault({
            family: 'build',
            method: pick(['GET', 'PATCH', 'POST', 'DELETE']),
            status: pick([500, 502, 503]),
            times: 3,
          });
        },
        lostAnswer: async () => {
          // The server acts after the client gave up: the change is made, the answer never read.
          armed = true;
          await t.admin.addFault({
            family: 'build',
            method: pick(['PATCH', 'POST', 'DELETE']),
            delayMs: 40,
            times: 1,
          });
          await attempt(() => {
            armed = true;
            return mirror.push(AbortSignal.timeout(15));
          });
          // When the delayed request reached the server (its fault is used up), let it finish before going on.
          const faults = await t.admin.faults();
          if (faults.length === 0) await new Promise((r) => setTimeout(r, 100));
        },
        diskFault: async () => {
          armed = true;
          fs.failAfter(Math.floor(random() * 4));
          await steps[pick(['pull', 'push', 'switchBranch'])]!();
        },
      };
      const weights: [string, number][] = [
        ['localEdit', 4],
        ['localAdd', 1],
        ['localDelete', 1],
        ['localRename', 1],
        ['localVariable', 1],
        ['remoteEdit', 3],
        ['remoteAdd', 1],
        ['remoteDelete', 1],
        ['remoteVariable', 1],
        ['pull', 3],
        ['push', 3],
        ['resolve', 2],
        ['switchBranch', 1],
        ['serverFault', 1],
        ['lostAnswer', 1],
        ['diskFault', 1],
      ];
      const total = weights.reduce((s, [, w]) => s + w, 0);
      for (let step = 0; step < STEPS; step++) {
        let r = random() * total;
        const name = weights.find(([, w]) => (r -= w) < 0)![0];
        log.push(name);
        await steps[name]!();
        if (name === 'serverFault') {
          const op = pick(['pull', 'push', 'switchBranch']);
          log.push(op);
          await steps[op]!();
        }
        await check();
      }
      // Settle: pull, keep both sides of every conflict, push, until nothing is left to do.
      for (let round = 0; round < 3; round++) {
        await mirror.pull();
        await resolveAll();
        const report = await mirror.push();
        if (
          report.refused.length === 0 &&
          (await mirror.status({ remote: true })).every((f) => f.state === 'unchanged')
        )
          break;
      }
      log.push('settle');
      await check();
      const left = (await mirror.status({ remote: true })).filter((f) => f.state !== 'unchanged');
      assert.deepEqual(
        left.map((f) => `${f.path}: ${f.state}`),
        [],
        `sequence ${seq}: not in step after settling (${log.join(' → ')})`,
      );
    }
    ctx.diagnostic(
      `conflicts settled ${seen.conflictsSettled}, failed steps ${seen.failuresSeen}, pushes refused ${seen.pushesRefused}, switches refused ${seen.switchesRefused}`,
    );
    assert.ok(
      seen.conflictsSettled > 0 && seen.failuresSeen > 0 && seen.pushesRefused > 0 && seen.switchesRefused > 0,
      'every kind of trouble happened',
    );
  });
});
