// `node dist/cli.js mcp`: the assistant tools over MCP, driven by the SDK's own client over stdio. `--local` uses the
// local platform an editor window says it runs (here one this test runs, announced as an editor announces it), and
// starts one of its own only when none answers. Runs in the mode of AGENT_WORKBENCH_RESPONSES (full, minimal,
// spec-only).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentsClient } from '../../../src/client/agents';
import { announceLocalPlatform, profilePlatformData } from '../../../src/client/localPlatformDiscovery';
import { ASSISTANT_TOOLS } from '../../../src/assistantTools/catalog';
import { LOCAL_AGENT_ID } from '../../../src/localPlatform/seed/credentials';
import { type LocalPlatform, startLocalPlatform } from '../../../src/localPlatform/server';
import { NodeFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror } from '../../../src/workspace/mirror';
import { localContext } from '../../support/localClient';
import { RESPONSES } from '../../support/localPlatform';
import { secretsIn } from '../../support/secretsScan';
import { startScriptedModel } from '../../support/scriptedModel';

// The source entry through tsx, as test/unit/cli.test.ts runs it: the unit run needs no build first.
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const SPEC_ONLY = RESPONSES === 'spec-only';
/** The demo week of the local platforms here ends at the current hour: these ranges hold it whatever the hour. */
const WEEK_AGO = new Date(Date.now() - 8 * 24 * 3_600_000).toISOString();
const SOON = new Date(Date.now() + 2 * 3_600_000).toISOString();

const TESTS_YAML = `cases:
  - name: Opening hours
    turns:
      - contains: Hello
      - user: What are your opening hours?
        contains: [Monday, Saturday]
        ood: false
    state:
      card_blocked: { absent: true }
  - name: Password reset
    turns:
      - user: How do I reset my password?
        contains: reset link
        reference: We sent you a reset link.
`;

/** The local platform "the editor runs": started here, as `serve` starts it for the editor. */
function editorPlatform(): Promise<LocalPlatform> {
  return startLocalPlatform({ port: 0, seed: 'demo', demoAnchor: 'now', responses: RESPONSES, streamDelayMs: 0 });
}

/** The support agent's folder as the editor's file mirror reaches it on `lp`: it records which data it read. */
function editorMirror(lp: LocalPlatform, folder: string): { mirror: AgentMirror; dispose(): void } {
  const ctx = localContext(lp);
  const mirror = new AgentMirror(new NodeFileSystem(folder), new AgentsClient(ctx), {
    platformData: (signal) => profilePlatformData(ctx.profile, signal),
  });
  return { mirror, dispose: () => ctx.transport.dispose() };
}

/** A workspace with the support agent's main branch checked out from `lp`, and a test file. */
async function workspace(lp: LocalPlatform): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'aw-mcp-'));
  const folder = join(dir, 'support');
  mkdirSync(join(folder, 'tests'), { recursive: true });
  const { mirror, dispose } = editorMirror(lp, folder);
  try {
    await mirror.checkout({
      agentId: LOCAL_AGENT_ID,
      name: 'Support Desk',
      profile: 'local',
      branch: { branchId: 'br_support_main', name: 'main' },
    });
  } finally {
    dispose();
  }
  writeFileSync(join(folder, 'tests', 'support.yaml'), TESTS_YAML);
  return dir;
}

interface Answer {
  text: string;
  isError: boolean;
}

/** Every answer of the run, for the secrets scan at the end. */
const answers: string[] = [];

/** What the servers of the run wrote to stderr. */
let stderrText = '';

/** An MCP server of `mcp --local` for `dir`, finding local platforms where `runtimeDir` holds their announcements. */
async function connect(dir: string, runtimeDir: string, extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, 'mcp', '--local', '--responses', RESPONSES, '--workspace', dir, ...extra],
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), AGENT_WORKBENCH_RUNTIME_DIR: runtimeDir },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
  const client = new Client({ name: 'agent-workbench-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.map((c) => c.text ?? '').join('\n');
  answers.push(text);
  return { text, isError: result.isError === true };
}

describe(`the MCP server (node dist/cli.js mcp --local, ${RESPONSES} answers)`, () => {
  let dir: string;
  let runtimeDir: string;
  let lp: LocalPlatform;
  let client: Client;
  /** One server with --allow-writes for the tests that change things (starting one takes seconds). */
  let writer: Client | undefined;
  const writerClient = async (): Promise<Client> => (writer ??= await connect(dir, runtimeDir, ['--allow-writes']));

  before(async () => {
    lp = await editorPlatform();
    dir = await workspace(lp);
    runtimeDir = mkdtempSync(join(tmpdir(), 'aw-mcp-runtime-'));
    // As an editor window does when it runs a local platform for this workspace.
    await announceLocalPlatform(lp.urls.origin, [dir], { AGENT_WORKBENCH_RUNTIME_DIR: runtimeDir });
    client = await connect(dir, runtimeDir);
  });
  after(async () => {
    await client?.close();
    await writer?.close();
    await lp?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtimeDir, { recursive: true, force: true });
  });

  test('uses the local platform the editor runs, and says so in its instructions and on stderr', () => {
    const instructions = client.getInstructions() ?? '';
    assert.match(instructions, new RegExp(`They reach the local platform the editor runs at ${lp.urls.origin}\\.`));
    assert.match(
      stderrText,
      new RegExp(`MCP server on stdio: the local platform the editor runs at ${lp.urls.origin},`),
    );
  });

  test('lists every tool with its input schema, and the change tools as refused without --allow-writes', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ASSISTANT_TOOLS.map((t) => t.name),
    );
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok((t.description ?? '').length > 60, `${t.name} is described for the model`);
    }
    const push = tools.find((t) => t.name === 'agentWorkbench_push')!;
    assert.match(push.description ?? '', /without --allow-writes/);
    assert.equal(push.annotations?.destructiveHint, true);
    assert.equal(tools.find((t) => t.name === 'agentWorkbench_transcript')!.annotations?.readOnlyHint, true);
  });

  test('agent folders: the checked-out folder with its agent, branch and sync state', async () => {
    const a = await call(client, 'agentWorkbench_agentFolders');
    assert.equal(a.isError, false, a.text);
    assert.match(a.text, /support: agent Support Desk \(ag_support\), branch main \(br_support_main\), profile local/);
    assert.match(a.text, SPEC_ONLY ? /state: / : /state: in sync with the platform/);
  });

  test("agent details: branches, deployments per environment and numbers, or the spec's gap in words", async () => {
    const a = await call(client, 'agentWorkbench_agentDetails', { agentId: 'ag_support' });
    assert.equal(a.isError, false, a.text);
    assert.match(a.text, /Numbers \(\d+\):/);
    if (SPEC_ONLY) {
      assert.match(
        a.text,
        /Branches: could not be read\. .*does not seem to offer the endpoint.*docs\/api-assumptions\.md/,
      );
      assert.match(a.text, /Deployments: could not be read\./);
    } else {
      assert.match(a.text, /Branches \(\d+\):\n {2}main \(br_support_main\) \[default\]/);
      assert.match(a.text, /Deployments per environment[^\n]*\n {2}sandbox: /);
      assert.match(a.text, /\n {2}live: /);
    }
  });

  test('conversations by range and by transcript search, then one transcript with turns, latency and metrics', async () => {
    const list = await call(client, 'agentWorkbench_conversations', {
      environment: 'live',
      from: WEEK_AGO,
      to: SOON,
      limit: 5,
    });
    assert.equal(list.isError, false, list.text);
    assert.match(list.text, new RegExp(`^\\d+ conversation\\(s\\) in live from ${WEEK_AGO}`));
    assert.match(list.text, /More conversations match: call again with the same filters and cursor "/);
    const id = /^ {2}(\S+) · /m.exec(list.text)?.[1];
    assert.ok(id, list.text);

    const search = await call(client, 'agentWorkbench_conversations', {
      environment: 'live',
      search: 'hours',
      limit: 3,
    });
    assert.equal(search.isError, false, search.text);
    assert.match(search.text, /matching "hours"/);

    const one = await call(client, 'agentWorkbench_transcript', {
      conversationId: id,
      environment: 'live',
      from: WEEK_AGO,
      to: SOON,
    });
    assert.equal(one.isError, false, one.text);
    assert.match(one.text, new RegExp(`^Conversation ${id}\\n {2}started `));
    assert.match(one.text, /handoff/);
    assert.match(one.text, /metrics: /);
    assert.match(one.text, /^1\. user \(/m);
    assert.match(one.text, /latency \d+ ms/);
  });

  test('the concurrency series and the current alerts', async () => {
    const c = await call(client, 'agentWorkbench_concurrency', { environment: 'live', lastHours: 24 });
    assert.equal(c.isError, false, c.text);
    assert.match(c.text, /^Concurrent conversations in live from \S+ to \S+, 28[89] windows of 5 minutes:/);
    assert.match(c.text, /peak [1-9]\d* at \d{4}-/);

    const alerts = await call(client, 'agentWorkbench_currentAlerts');
    assert.equal(alerts.isError, false, alerts.text);
    assert.match(alerts.text, /(alert rule\(s\) firing now|No alert rule is firing now)/);
    assert.match(alerts.text, /The spec shows GET \/v1\/alerts but not the shape of its answer/);
  });

  test("a conversation test run: each case's outcome, and a failing turn's expected and actual answer", async () => {
    const run = await call(client, 'agentWorkbench_runConversationTests', { target: 'local' });
    assert.equal(run.isError, false, run.text);
    assert.match(run.text, /✔ \S*support\.yaml › Opening hours/);
    // The record checks, made on the conversation's record as the command line makes them.
    assert.match(run.text, /✔ record state\.card_blocked \(line \d+\): not set/);
    assert.match(run.text, /✔ record turn 2 ood \(line \d+\): false/);
    assert.match(run.text, /✖ \S*support\.yaml › Password reset/);
    assert.match(run.text, /turn 1 \(line \d+\), contains: The answer does not contain "reset link"/);
    assert.match(run.text, /expected: We sent you a reset link\./);
    assert.match(run.text, /actual: {3}\S/);
    assert.match(run.text, /1 passed, 1 failed$/);
  });

  test('talking to the agent: the greeting and each answer, and the handoff', async () => {
    const a = await call(client, 'agentWorkbench_sendMessages', {
      messages: ['What are your opening hours?', 'I want to speak to a person'],
      end: true,
    });
    assert.equal(a.isError, false, a.text);
    assert.match(a.text, /agent \(greeting, \d+ ms\): /);
    assert.match(a.text, /user: What are your opening hours\?\nagent \(\d+ ms\): .*Monday/);
    assert.match(a.text, /handoff to human-support-queue/);
  });

  test('the checks of an agent folder', async () => {
    const a = await call(client, 'agentWorkbench_checkAgentFolder', { folder: 'support' });
    assert.equal(a.isError, false, a.text);
    assert.match(a.text, /(No problems in support|error\(s\), \d+ warning\(s\))/);
  });

  test("judged criteria in an assistant's test run: through the model the server was given, priced first, its cassette beside the test file; without one, not judged and never passed", async () => {
    const judgedDir = await workspace(lp);
    const tests = join(judgedDir, 'support', 'tests');
    rmSync(join(tests, 'support.yaml'));
    writeFileSync(
      join(tests, 'judged.yaml'),
      'cases:\n  - name: Hours\n    turns:\n      - user: What are your opening hours?\n        expect: gives the opening hours\n',
    );
    await announceLocalPlatform(lp.urls.origin, [judgedDir], { AGENT_WORKBENCH_RUNTIME_DIR: runtimeDir });
    const model = await startScriptedModel({
      answer: () => JSON.stringify({ verdict: 'pass', reason: 'it gives the hours', quotes: [] }),
    });
    const judging = await connect(judgedDir, runtimeDir, [
      '--model-base-url',
      model.baseUrl,
      '--model',
      'scripted-judge',
      '--cassette',
      'record',
      '--max-model-calls',
      '5',
    ]);
    const plain = await connect(judgedDir, runtimeDir);
    try {
      const run = await call(judging, 'agentWorkbench_runConversationTests', { target: 'local' });
      assert.equal(run.isError, false, run.text);
      assert.match(run.text, /This run calls \S*scripted-judge for 1 judged case\(s\): about \d+ model calls/);
      assert.match(run.text, /It stops at 5 model calls\./);
      assert.match(run.text, /✔ \S*judged\.yaml › Hours/);
      assert.match(run.text, /✔ turn 1 expect "gives the opening hours" \(line 5\): pass: it gives the hours/);
      assert.ok(model.calls() >= 1, 'the model was asked');
      // Named relative to the workspace the server reads, the cassette sits beside the test file there.
      assert.ok(
        readdirSync(tests).some((f) => f.endsWith('.cassette.json')),
        `a cassette beside the test file: ${readdirSync(tests).join(', ')}`,
      );

      const none = await call(plain, 'agentWorkbench_runConversationTests', { target: 'local' });
      assert.equal(none.isError, false, none.text);
      assert.doesNotMatch(none.text, /✔ \S*judged\.yaml › Hours/);
      assert.match(none.text, /no model is set: give --model-base-url and --model/);
    } finally {
      await judging.close();
      await plain.close();
      await model.close();
      rmSync(judgedDir, { recursive: true, force: true });
    }
  });

  test('bad input is answered with what to fix, and nothing runs', async () => {
    const a = await call(client, 'agentWorkbench_conversations', { limit: 500, colour: 'blue' });
    assert.equal(a.isError, true);
    assert.match(a.text, /The input of agentWorkbench_conversations was not used: fix these and call it again\./);
    assert.match(a.text, /- limit must be at most 50/);
    assert.match(a.text, /- colour is not a known property/);
  });

  test('a change tool is refused without --allow-writes, with how to allow it', async () => {
    const a = await call(client, 'agentWorkbench_createBranch', { agentId: 'ag_support', name: 'refused-branch' });
    assert.equal(a.isError, true);
    assert.match(
      a.text,
      /agentWorkbench_createBranch changes the platform .* started without --allow-writes, so nothing was done/,
    );
    assert.match(a.text, /restart the server with --allow-writes \(node \S+ mcp .*--allow-writes\)/);
  });

  test('with --allow-writes, a branch is created, an edit pushed and the draft published on the local platform', async () => {
    const writer = await writerClient();
    const a = await call(writer, 'agentWorkbench_createBranch', { agentId: 'ag_support', name: 'assistant-trial' });
    assert.equal(a.isError, false, a.text);
    assert.match(a.text, /^Created branch assistant-trial( \(br_\w+\))? of agent ag_support/);

    writeFileSync(join(dir, 'support', 'behavior.md'), 'Greet callers in one short sentence.\n');
    const push = await call(writer, 'agentWorkbench_push', { folder: 'support' });
    if (SPEC_ONLY) {
      // The branch cannot be read where the spec shows no read: a push cannot tell what changed there.
      assert.equal(push.isError, true);
      assert.match(push.text, /The platform does not let this branch be read .* Nothing was pushed\./);
    } else {
      assert.equal(push.isError, false, push.text);
      assert.match(
        push.text,
        /^Pushed support \(agent Support Desk ag_support, branch main\): 1 change\(s\) sent\.\n {2}behavior\.md: the behavior/,
      );
    }

    const publish = await call(writer, 'agentWorkbench_publishToSandbox', { agentId: 'ag_support' });
    assert.equal(publish.isError, false, publish.text);
    assert.match(publish.text, /^Published agent ag_support to sandbox: deployment \S+, version \S+, now in sandbox/);
  });

  test(
    "a folder the editor just pushed is in step with the server's platform: its pull changes no file",
    { skip: SPEC_ONLY && 'the spec shows no read of a branch: the folder cannot be pulled at all' },
    async () => {
      const folder = join(dir, 'support');
      const behavior = 'Answer in one short sentence, and always name the store.\n';
      const topic = '---\nname: Parking\n---\nThere are 20 free spaces behind the store.\n';
      writeFileSync(join(folder, 'behavior.md'), behavior);
      writeFileSync(join(folder, 'knowledge', 'parking.md'), topic);
      const editor = editorMirror(lp, folder);
      try {
        const pushed = await editor.mirror.push();
        assert.equal(pushed.sent.length, 2, JSON.stringify(pushed));
      } finally {
        editor.dispose();
      }
      const writer = await writerClient();
      const status = await call(writer, 'agentWorkbench_agentFolders');
      assert.match(status.text, /state: in sync with the platform/);
      const pull = await call(writer, 'agentWorkbench_pull', { folder: 'support' });
      assert.equal(pull.isError, false, pull.text);
      assert.match(pull.text, /^Pulled support \(agent Support Desk ag_support, branch main\): no file changed\./);
      assert.equal(readFileSync(join(folder, 'behavior.md'), 'utf8'), behavior);
      assert.match(readFileSync(join(folder, 'knowledge', 'parking.md'), 'utf8'), /20 free spaces/);
    },
  );

  test('[AUTH-2] no answer of the run holds a secret used in it', () => {
    assert.ok(answers.length >= 10);
    assert.deepEqual(
      answers.flatMap((text, i) => secretsIn(text, `answer ${i + 1}`)),
      [],
    );
  });
});

describe(`the MCP server with no local platform of the editor (${RESPONSES} answers)`, () => {
  let dir: string;
  let runtimeDir: string;
  let lp: LocalPlatform;
  let client: Client;

  before(async () => {
    lp = await editorPlatform();
    dir = await workspace(lp);
    // The editor's platform runs, but no window announces it: the server cannot know it and starts its own.
    runtimeDir = mkdtempSync(join(tmpdir(), 'aw-mcp-runtime-'));
    client = await connect(dir, runtimeDir, ['--allow-writes']);
  });
  after(async () => {
    await client?.close();
    await lp?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtimeDir, { recursive: true, force: true });
  });

  test('says it runs a local platform of its own, and refuses to pull or push a folder read from another, changing no file', async () => {
    const folder = join(dir, 'support');
    const behavior = 'Answer in one short sentence, and always name the store.\n';
    writeFileSync(join(folder, 'behavior.md'), behavior);
    const before = readFileSync(join(folder, '.workbench', 'base.json'), 'utf8');

    const pull = await call(client, 'agentWorkbench_pull', { folder: 'support' });
    assert.equal(pull.isError, true, pull.text);
    assert.match(pull.text, /This folder was read from another local platform/);
    assert.match(pull.text, /Nothing was pulled or pushed, and no file was changed\./);
    assert.match(
      pull.text,
      /This MCP server runs a local platform of its own.*Start Local Platform.*restart this server/,
    );

    const push = await call(client, 'agentWorkbench_push', { folder: 'support' });
    assert.equal(push.isError, true, push.text);
    assert.match(push.text, /This folder was read from another local platform/);

    assert.equal(readFileSync(join(folder, 'behavior.md'), 'utf8'), behavior);
    assert.equal(readFileSync(join(folder, '.workbench', 'base.json'), 'utf8'), before);
    assert.match(client.getInstructions() ?? '', /They reach a local platform of its own at http:\/\/127\.0\.0\.1:\d+/);
    assert.match(client.getInstructions() ?? '', /agent folders checked out in the editor are not pulled or pushed/);
    const onPlatform = localContext(lp);
    try {
      const held = await new AgentsClient(onPlatform)
        .getBehavior(LOCAL_AGENT_ID, 'br_support_main')
        .catch(() => undefined);
      assert.notEqual(held?.behavior, behavior.trimEnd(), "nothing reached the editor's platform either");
    } finally {
      onPlatform.transport.dispose();
    }
  });
});
