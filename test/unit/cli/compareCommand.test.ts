// `agent-workbench compare` as a user runs it: against a local platform of its own (--local), and against two
// environments of a platform reached with a profile and a connector token for each environment.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
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

const SUITE = `cases:
  - name: returns
    tags: [smoke]
    turns:
      - user: Can I return an item?
        contains: [30 days]
  - name: opening hours
    turns:
      - user: What are your opening hours?
        contains: [Monday to Saturday]
`;

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aw-compare-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'tests', 'support.yaml'), SUITE);
  return dir;
}

/** The environment without any Chat credentials of the machine running the tests. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_WORKBENCH_CHAT')));
  delete env.GITHUB_STEP_SUMMARY;
  return { ...env, NO_COLOR: '1', ...extra };
}

describe('command line: compare', () => {
  const t = useLocalPlatform();

  it('--local: pre-release against sandbox of the same release reads "no significant change", exit 0, with every report', async () => {
    const dir = folder();
    const summary = join(dir, 'summary.md');
    const run = await runCli(
      [
        'compare',
        '--local',
        '--repeat',
        '3',
        '--reporter',
        'json',
        '--reporter',
        `junit:${join(dir, 'out', 'compare.xml')}`,
        '--reporter',
        `markdown:${join(dir, 'compare.md')}`,
      ],
      { cwd: dir, env: cleanEnv({ GITHUB_STEP_SUMMARY: summary }) },
    );
    assert.equal(run.code, 0, run.stderr);
    const records = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = records.at(-1);
    assert.equal(last?.type, 'summary');
    assert.equal(last?.verdict, 'no significant change');
    assert.equal(last?.pairs, 6);
    assert.deepEqual(
      records.filter((r) => r.type === 'case').map((r) => [r.name, r.verdict]),
      [
        ['returns', 'no significant change'],
        ['opening hours', 'no significant change'],
      ],
    );
    const xml = readFileSync(join(dir, 'out', 'compare.xml'), 'utf8');
    assert.match(xml, /tests="2" failures="0"/);
    const markdown = readFileSync(join(dir, 'compare.md'), 'utf8');
    assert.match(markdown, /^## ➖ Comparison: sandbox against pre-release: no significant change/);
    assert.equal(readFileSync(summary, 'utf8'), markdown, 'the job summary is the Markdown report');
  });

  it('--tag runs only the tagged cases', async () => {
    const dir = folder();
    const run = await runCli(['compare', '--local', '--tag', 'smoke'], { cwd: dir, env: cleanEnv() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /support\.yaml › returns: no significant change/);
    assert.doesNotMatch(run.stdout, /opening hours/);
  });

  it('a changed topic in sandbox, reached with a token per environment: a significant regression, exit 1, with the differing words', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    const agents = new AgentsClient(localContext(t.lp));
    await agents.updateTopic('ag_support', 'br_support_main', 'kt_returns', {
      content: 'You can return any item within 14 days of delivery for a full refund.',
    });
    await agents.publish('ag_support', 'sandbox', 'Shorter returns window');
    const preRelease = chatConnectorServing(t.lp.platform, 'ag_support', 'pre-release');
    assert.ok(preRelease);
    const dir = folder();
    const profile = join(dir, 'profile.json');
    writeFileSync(
      profile,
      JSON.stringify({ accountId: LOCAL_ACCOUNT.slug, projectId: LOCAL_PROJECT.slug, runtimeUrl: t.lp.urls.runtime }),
    );
    const env = cleanEnv({
      AGENT_WORKBENCH_CHAT_API_KEY: LOCAL_KEYS.chat,
      AGENT_WORKBENCH_CHAT_TOKEN_SANDBOX: LOCAL_CONNECTORS.chatToken,
      AGENT_WORKBENCH_CHAT_TOKEN_PRE_RELEASE: preRelease.token,
    });
    const md = join(dir, 'compare.md');
    const run = await runCli(['compare', '--profile-file', profile, '--repeat', '6', '--reporter', `markdown:${md}`], {
      cwd: dir,
      env,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /✗ tests\/support\.yaml › returns: significant regression, 100% \(6\/6, 61%–100%\) → 0% \(0\/6, 0%–39%\)/,
    );
    assert.match(run.stdout, /6 pass→fail, 0 fail→pass of 6 paired runs: p = 0\.0313/);
    assert.match(run.stdout, /turn 1 contains: 6 pass→fail, 0 fail→pass/);
    assert.match(run.stdout, /answer changed in 6 runs: You can return any item within \[-30-\]\{\+14\+\} days/);
    assert.match(run.stdout, /Suite: significant regression/);
    const markdown = readFileSync(md, 'utf8');
    assert.match(markdown, /within <del>30<\/del><ins>14<\/ins> days/);
    assert.ok(!markdown.includes(LOCAL_KEYS.chat) && !run.stdout.includes(preRelease.token), 'no secret in a report');
  });

  it('a candidate that cannot be reached: its cases are not compared, with the reason, and the run exits 1', async () => {
    const dir = folder();
    const profile = join(dir, 'profile.json');
    writeFileSync(
      profile,
      JSON.stringify({ accountId: 'acme', projectId: 'support-desk', runtimeUrl: t.lp.urls.runtime }),
    );
    // Nothing listens on port 9 of loopback (discard): every call to the candidate fails.
    const unreachable = join(dir, 'unreachable.json');
    writeFileSync(
      unreachable,
      JSON.stringify({ accountId: 'acme', projectId: 'support-desk', runtimeUrl: 'http://127.0.0.1:9' }),
    );
    const run = await runCli(
      ['compare', '--base-profile', profile, '--candidate-profile', unreachable, '--base', 'sandbox'],
      {
        cwd: dir,
        env: cleanEnv({
          AGENT_WORKBENCH_CHAT_API_KEY: LOCAL_KEYS.chat,
          AGENT_WORKBENCH_CHAT_TOKEN: LOCAL_CONNECTORS.chatToken,
        }),
      },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /- tests\/support\.yaml › returns: not compared/);
    assert.match(run.stdout, /the candidate could not be reached: /);
  });

  it('a token for one environment only says which variable to set, exit 2', async () => {
    const dir = folder();
    const profile = join(dir, 'profile.json');
    writeFileSync(
      profile,
      JSON.stringify({ accountId: 'acme', projectId: 'support-desk', runtimeUrl: t.lp.urls.runtime }),
    );
    const run = await runCli(['compare', '--profile-file', profile], {
      cwd: dir,
      env: cleanEnv({ AGENT_WORKBENCH_CHAT_API_KEY: 'k', AGENT_WORKBENCH_CHAT_TOKEN_SANDBOX: 'x' }),
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /No Chat connector token for pre-release: set AGENT_WORKBENCH_CHAT_TOKEN_PRE_RELEASE\./);
  });

  it('usage: --help, --version, a wrong environment or no target are answered; exit 0 and 2', async () => {
    const help = await runCli(['compare', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /not enough runs to tell/);
    const version = await runCli(['compare', '--version']);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const wrong = await runCli(['compare', '--local', '--base', 'production']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--base must be one of sandbox, pre-release, live, got "production"/);
    const none = await runCli(['compare']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Give either --local, or --profile-file F/);
    const same = await runCli(['compare', '--local', '--base', 'sandbox']);
    assert.equal(same.code, 2);
    assert.match(same.stderr, /nothing to compare/);
  });
});
