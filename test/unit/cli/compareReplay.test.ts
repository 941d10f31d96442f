// `agent-workbench compare --replay-traffic` as a user runs it: against a local platform of its own (--local, the
// demo week's live traffic), and against a platform reached with a profile, a Conversations key and a candidate's
// Chat token; and `compare` judging criteria with the model flags, as `test` does.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTestFile } from '../../../src/agentTests/parse';
import { AgentsClient } from '../../../src/client/agents';
import { ChatClient } from '../../../src/client/chat';
import { chatConnectorServing } from '../../../src/localPlatform/chat/environmentConnectors';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
} from '../../../src/localPlatform/seed/credentials';
import { runCli } from '../../support/commandLine';
import { localContext } from '../../support/localClient';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import { startScriptedModel } from '../../support/scriptedModel';

/** The environment without any keys of the machine running the tests. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_WORKBENCH_')));
  delete env.GITHUB_STEP_SUMMARY;
  return { ...env, NO_COLOR: '1', ...extra };
}

const records = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('command line: compare --replay-traffic', () => {
  const t = useLocalPlatform();

  it('--local: the demo week of live replayed against sandbox, with every report, the job summary and the saved cases', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-replay-'));
    const summary = join(dir, 'summary.md');
    const cases = join(dir, 'tests', 'replayed.yaml');
    const run = await runCli(
      [
        'compare',
        '--replay-traffic',
        '--local',
        '--since',
        '7d',
        '--channel',
        'WEBCHAT',
        '--channel',
        'CHAT',
        '--limit',
        '40',
        '--reporter',
        'json',
        '--reporter',
        `junit:${join(dir, 'replay.xml')}`,
        '--reporter',
        `markdown:${join(dir, 'replay.md')}`,
        '--save-cases',
        cases,
      ],
      { cwd: dir, env: cleanEnv({ GITHUB_STEP_SUMMARY: summary }) },
    );
    assert.equal(run.code, 0, run.stderr);
    const lines = records(run.stdout);
    const last = lines.at(-1);
    assert.equal(last?.type, 'summary');
    assert.equal(last?.source, 'live');
    assert.equal(last?.candidate, 'sandbox');
    assert.equal(last?.selected, 40);
    assert.equal(last?.replayed, 40);
    assert.equal(last?.failed, 0);
    const changed = last?.changed as number;
    const groups = last?.groups as Record<string, string[]>;
    assert.equal((groups.unchanged?.length ?? 0) + changed, 40);
    // Each conversation that changed was written as it finished, with its groups.
    const written = lines.filter((l) => l.type === 'conversation');
    assert.equal(written.length, 40);
    assert.ok(written.every((l) => ['WEBCHAT', 'CHAT'].includes(l.channel as string)));
    assert.ok(changed > 0, 'the demo week was written, not made by the local agent: some answers differ');
    const saved = parseTestFile('tests/replayed.yaml', readFileSync(cases, 'utf8'));
    assert.deepEqual(saved.problems, []);
    assert.equal(saved.cases.length, changed);
    assert.deepEqual(last?.savedCases, { file: cases, count: changed });
    const xml = readFileSync(join(dir, 'replay.xml'), 'utf8');
    assert.match(xml, new RegExp(`tests="40" failures="${changed}" errors="0" skipped="0"`));
    const markdown = readFileSync(join(dir, 'replay.md'), 'utf8');
    assert.match(markdown, /^## ⚠️ Replay: 40 conversations of live against sandbox/);
    assert.match(markdown, /\| ✏️ \| answer changed \| \d+ \|/);
    assert.equal(readFileSync(summary, 'utf8'), markdown, 'the job summary is the Markdown report');
  });

  it('--local: a filter that finds nothing says so and what to change, exit 1; a wrong filter is a usage error, exit 2', async () => {
    const none = await runCli(['compare', '--replay-traffic', '--local', '--channel', 'FAX'], { env: cleanEnv() });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /No finished conversation of live matches: on FAX\. Change what you ask: drop --channel/);
    assert.match(none.stdout, /Replayed 0 of 0 conversations of live against sandbox/);
    const date = await runCli(['compare', '--replay-traffic', '--local', '--since', 'last tuesday'], {
      env: cleanEnv(),
    });
    assert.equal(date.code, 2);
    assert.match(date.stderr, /--since must be an ISO 8601 date or time/);
    const both = await runCli(['compare', '--replay-traffic', '--local', '--sample', '5', '--search', 'refund'], {
      env: cleanEnv(),
    });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--sample and --search cannot be used together/);
    const files = await runCli(['compare', '--replay-traffic', '--local', 'tests/'], { env: cleanEnv() });
    assert.equal(files.code, 2);
    assert.match(files.stderr, /reads recorded conversations, not test files/);
    const help = await runCli(['compare', '--help']);
    assert.match(help.stdout, /--replay-traffic/);
    assert.match(help.stdout, /--save-cases FILE/);
  });

  it('[CONV-1] a profile: live read with the Conversations key, replayed against sandbox with its Chat token; a changed topic reads "answer changed", exit 1 with --fail-on-change', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    const live = chatConnectorServing(t.lp.platform, 'ag_support', 'live');
    assert.ok(live);
    const chat = new ChatClient(localContext(t.lp, { overrides: { chatConnectorToken: live.token } }));
    for (const message of ['Can I return an item?', 'What are your opening hours?']) {
      const { conversation_id: id } = await chat.create({});
      await chat.respond({ conversation_id: id, message });
      await chat.close(id);
    }
    const agents = new AgentsClient(localContext(t.lp));
    await agents.updateTopic('ag_support', 'br_support_main', 'kt_returns', {
      content: 'You can return any item within 14 days of delivery for a full refund.',
    });
    await agents.publish('ag_support', 'sandbox', 'Shorter returns window');
    const dir = mkdtempSync(join(tmpdir(), 'aw-replay-'));
    const profile = join(dir, 'profile.json');
    writeFileSync(
      profile,
      JSON.stringify({ accountId: LOCAL_ACCOUNT.slug, projectId: LOCAL_PROJECT.slug, runtimeUrl: t.lp.urls.runtime }),
    );
    const keys = {
      AGENT_WORKBENCH_CHAT_API_KEY: LOCAL_KEYS.chat,
      AGENT_WORKBENCH_CHAT_TOKEN_SANDBOX: LOCAL_CONNECTORS.chatToken,
    };
    const missing = await runCli(['compare', '--replay-traffic', '--profile-file', profile], {
      cwd: dir,
      env: cleanEnv(keys),
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /set AGENT_WORKBENCH_CONVERSATIONS_API_KEY/);
    const env = cleanEnv({ ...keys, AGENT_WORKBENCH_CONVERSATIONS_API_KEY: LOCAL_KEYS.conversations });
    const run = await runCli(['compare', '--replay-traffic', '--profile-file', profile, '--fail-on-change'], {
      cwd: dir,
      env,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /~ conv_\d+ \(CHAT, .*\): answer changed\n {4}turn 1 \("Can I return an item\?"\): You can return any item within \[-30-\]\{\+14\+\} days/,
    );
    assert.match(
      run.stdout,
      /Replayed 2 of 2 conversations of live against sandbox in [\d.]+ s: 1 unchanged, 1 changed, 0 failed, 0 not replayed\./,
    );
    assert.match(run.stderr, /each is a real conversation on the candidate/);
    for (const text of [run.stdout, run.stderr])
      for (const secret of [LOCAL_KEYS.chat, LOCAL_KEYS.conversations, LOCAL_CONNECTORS.chatToken])
        assert.ok(!text.includes(secret), 'no secret in the output');
    const without = await runCli(['compare', '--replay-traffic', '--profile-file', profile], { cwd: dir, env });
    assert.equal(without.code, 0, 'a change alone is no failure without --fail-on-change');
  });
});

describe('command line: compare with a model', () => {
  it('judged criteria of compared cases are judged with the model flags, as `test` judges them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-compare-model-'));
    mkdirSync(join(dir, 'tests'));
    writeFileSync(
      join(dir, 'tests', 'judged.yaml'),
      `cases:
  - name: hours
    turns:
      - user: What are your opening hours?
        expect: gives the opening hours
`,
    );
    const model = await startScriptedModel({
      answer: () => JSON.stringify({ verdict: 'pass', reason: 'it gives the hours', quotes: [] }),
    });
    try {
      const flags = ['--model-base-url', model.baseUrl, '--model', 'scripted-model', '--cassette', 'live'];
      const run = await runCli(['compare', '--local', '--repeat', '2', ...flags, '--reporter', 'json'], {
        cwd: dir,
        env: cleanEnv(),
      });
      assert.equal(run.code, 0, run.stderr);
      const [hours] = records(run.stdout).filter((r) => r.type === 'case');
      assert.equal(hours?.verdict, 'no significant change');
      assert.equal(hours?.pairs, 2);
      assert.equal(model.calls(), 4, 'each run on each side judged once');
      const without = await runCli(['compare', '--local', '--reporter', 'json'], { cwd: dir, env: cleanEnv() });
      const [skipped] = records(without.stdout).filter((r) => r.type === 'case');
      assert.equal(skipped?.verdict, 'not compared');
    } finally {
      await model.close();
    }
  });
});
