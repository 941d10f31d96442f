// The assistant tools as language model tools, used as Copilot's agent mode or another extension uses them:
// vscode.lm.tools and vscode.lm.invokeTool with no chat request, against the local platform. Every tool is invoked.
// Outside a chat, VS Code shows a change's confirmation as a modal dialog; while it runs an extension's tests its dialog
// service shows none and answers yes, so the confirmations are read where VS Code reads them: the registered tool's
// prepareInvocation ("confirmation read from prepareInvocation" in the titles). A change to live is asked again in the
// editor, through the extension's own prompts, which the tests answer.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { checkOutSupportMain, supportMainOnPlatform } from '../support/editor/agentFolders';
import { type LocalPlatformUrls, startLocalPlatformInEditor, type WorkbenchExports } from '../support/editor/extension';
import { TOOL_PREFIX, ToolSession } from '../support/editor/languageModelTools';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';
import { secretsIn } from '../support/secretsScan';

const AGENT = 'ag_support';
/** Conversation tests of the support agent: the first passes, the second fails at its turn with a diff. */
const CASES = `agent: ag_support
cases:
  - name: Opening hours
    turns:
      - contains: Hello
      - user: What are your opening hours?
        contains: [Monday, Saturday]
  - name: Password reset
    turns:
      - user: How do I reset my password?
        contains: reset link
        reference: We sent you a reset link.
`;
const tool = (short: string) => `${TOOL_PREFIX}${short}`;

suite('Language model tools', function () {
  // Conversations, pushes and publishes one after the other, on a busy machine.
  this.timeout(240_000);
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let api: WorkbenchExports;
  let ui: ScriptedPrompts;
  let tools: ToolSession;
  let folder: string;
  let conversationId = '';
  const folders: string[] = [];
  const platform = supportMainOnPlatform(() => urls);
  const deployments = async (env: string) =>
    (
      await platform.agents<{ deployments: Array<{ id: string; environment: string; version: string }> }>(
        'GET',
        `/v1/agents/${AGENT}/deployments?environment=${env}`,
      )
    ).body.deployments;

  suiteSetup(async function () {
    this.timeout(180_000);
    urls = await startLocalPlatformInEditor();
    admin = new LocalAdmin(urls.admin);
    await admin.reset();
    api = (await vscode.extensions.getExtension<WorkbenchExports>('agent-workbench.agent-workbench')!.activate())!;
    ui = scriptedPrompts(api);
    tools = new ToolSession(api);
    folder = await checkOutSupportMain(api, ui, folders, 'assistant');
  });

  suiteTeardown(async () => {
    ui?.dispose();
    for (const f of folders) await rm(f, { recursive: true, force: true });
    await admin?.reset();
  });

  test('vscode.lm.tools lists every contributed tool with the description and input schema package.json declares', () => {
    const contributed = (
      vscode.extensions.getExtension('agent-workbench.agent-workbench')!.packageJSON as {
        contributes: { languageModelTools: Array<{ name: string; modelDescription: string; inputSchema: unknown }> };
      }
    ).contributes.languageModelTools;
    assert.ok(contributed.length >= 8, 'the tools are contributed');
    const listed = tools.listed();
    assert.deepEqual(listed.map((t) => t.name).sort(), contributed.map((t) => t.name).sort());
    for (const entry of contributed) {
      const info = listed.find((t) => t.name === entry.name)!;
      assert.equal(info.description, entry.modelDescription);
      assert.deepEqual(info.inputSchema, entry.inputSchema);
    }
    assert.deepEqual([...api.testing!.languageModelTools().keys()].sort(), contributed.map((t) => t.name).sort());
  });

  test('agentFolders: the checked-out folder with its agent, branch and sync state, then an edit not pushed', async () => {
    const before = await tools.invoke(tool('agentFolders'), {});
    assert.match(before, /agent Support Desk \(ag_support\), branch main \(br_support_main\)/);
    assert.match(before, /state: in sync with the platform/);
    const behavior = join(folder, 'behavior.md');
    await writeFile(behavior, `${await readFile(behavior, 'utf8')}\nAlways greet by name.\n`);
    const after = await tools.invoke(tool('agentFolders'), { remote: false });
    assert.match(after, /1 to push/);
    assert.match(after, /behavior\.md: edited here, not pushed/);
  });

  test('agentDetails: the branches, deployments per environment and numbers of an agent', async () => {
    const text = await tools.invoke(tool('agentDetails'), { agentId: AGENT });
    assert.match(text, /Agent Support Desk \(ag_support\)/);
    assert.match(text, /main \(br_support_main\)/);
    for (const env of ['sandbox', 'pre-release', 'live']) assert.match(text, new RegExp(`  ${env}: `));
    assert.match(text, /dep_support_3/);
    const listed = await tools.invoke(tool('agentDetails'), { limit: 5, agentId: 'ag_nope' });
    assert.match(listed, /could not be read/);
  });

  test('sendMessages: a conversation on the local platform, each answer with its latency, kept open, then ended', async () => {
    const text = await tools.invoke(tool('sendMessages'), { messages: ['What are your opening hours?'] });
    const id = /^Conversation (\S+) on local/.exec(text)?.[1];
    assert.ok(id, text);
    conversationId = id;
    assert.match(text, /agent \(greeting, \d+ ms\): /);
    assert.match(text, /user: What are your opening hours\?\n\s*agent \(\d+ ms\): .*Monday/);
    assert.match(text, /stays open/);
    const ended = await tools.invoke(tool('sendMessages'), { conversationId, messages: ['Thanks'], end: true });
    assert.match(ended, new RegExp(`^Conversation ${conversationId} on local`));
    assert.match(ended, /The conversation is over/);
  });

  test('sendMessages on live (confirmation read from prepareInvocation): said so, and asked again in the editor', async () => {
    const profile = await vscode.commands.executeCommand<{ id: string }>('agentWorkbench.addProfile', {
      name: 'Assistant tools on live',
      accountId: 'ACCOUNT-a1b2c3d',
      projectId: 'PROJECT-5a7e1c0d',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
      activate: true,
      credentials: { agentsApiKey: LOCAL_KEYS.agents, chatApiKey: LOCAL_KEYS.chat },
    });
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'live');
    try {
      const confirmation = await tools.prepare(tool('sendMessages'), { messages: ['Hello'] });
      assert.ok(confirmation, 'a conversation on live is confirmed first');
      assert.match(confirmation.title, /LIVE/);
      assert.match(confirmation.message, /real conversations with the agent on live/);
      assert.match(confirmation.message, /"Assistant tools on live"/);
      assert.equal(await tools.prepare(tool('sendMessages'), { messages: ['Hello'], target: 'local' }), undefined);
      ui.shown.length = 0;
      ui.setAnswer(() => undefined);
      const refused = await tools.invoke(tool('sendMessages'), { messages: ['Hello'] });
      assert.match(refused, /Nothing was done: the person did not confirm/);
      assert.equal(ui.shown.filter((s) => s.modal && /LIVE/.test(s.message)).length, 1);
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      ui.setAnswer((s) => (s.modal ? 'Remove' : undefined));
      await vscode.commands.executeCommand('agentWorkbench.removeProfile', profile.id);
      ui.setAnswer(() => undefined);
    }
  });

  test('conversations: the conversation just held, found by a search of its transcript', async () => {
    const text = await tools.invoke(tool('conversations'), { environment: 'sandbox', search: 'opening hours' });
    assert.match(text, /conversation\(s\) in sandbox/);
    assert.ok(text.includes(conversationId), text);
    const none = await tools.invoke(tool('conversations'), { environment: 'sandbox', search: 'zebra crossing' });
    assert.match(none, /^No conversations in sandbox/);
  });

  test('transcript: the turns of one conversation, what the caller said and what the agent answered', async () => {
    const text = await tools.invoke(tool('transcript'), { conversationId, environment: 'sandbox' });
    assert.match(text, new RegExp(`^Conversation ${conversationId}`));
    assert.match(text, /user \(.*\): What are your opening hours\?/);
    assert.match(text, /no handoff|handoff to/);
    const missing = await tools.invoke(tool('transcript'), { conversationId: 'conv_nope', environment: 'sandbox' });
    assert.match(missing, /^No conversation conv_nope was found in sandbox/);
  });

  test('concurrency and currentAlerts: the series of the last hour and the rules firing now', async () => {
    const series = await tools.invoke(tool('concurrency'), { environment: 'sandbox', lastHours: 1 });
    assert.match(series, /^Concurrent conversations in sandbox from \S+ to \S+, \d+ windows of 5 minutes/);
    const alerts = await tools.invoke(tool('currentAlerts'), {});
    assert.match(alerts, /^(No alert rule is firing now\.|\d+ alert rule\(s\) firing now:)/);
  });

  test('runConversationTests: each case passed or failed, a failed check with its expected and actual answer', async () => {
    const file = join(folder, 'tests', 'cases.yaml');
    await mkdir(join(folder, 'tests'), { recursive: true });
    await writeFile(file, CASES);
    const text = await tools.invoke(tool('runConversationTests'), { paths: [folder] });
    assert.match(text, /^Conversation tests on local:/);
    assert.match(text, /✔ .*cases\.yaml › Opening hours/);
    assert.match(text, /✖ .*cases\.yaml › Password reset/);
    assert.match(text, /expected: We sent you a reset link\./);
    assert.match(text, /actual: .*Sorry/);
    assert.match(text, /1 passed, 1 failed/);
    const one = await tools.invoke(tool('runConversationTests'), { cases: ['opening'] });
    assert.match(one, /1 passed, 0 failed/);
  });

  test('checkAgentFolder: the problems of the folder with file, line, severity and rule', async () => {
    const empty = join(folder, 'knowledge', 'empty-topic.md');
    await writeFile(empty, '---\nname: Empty\n---\n\n');
    try {
      const text = await tools.invoke(tool('checkAgentFolder'), { folder });
      assert.match(text, /knowledge\/empty-topic\.md:\d+:\d+ warning topic-content-empty /);
    } finally {
      await rm(empty, { force: true });
    }
  });

  test('push (confirmation read from prepareInvocation): it names the agent, branch and files, then the edit is pushed', async () => {
    const confirmation = await tools.prepare(tool('push'), {});
    assert.ok(confirmation, 'a push is confirmed first');
    assert.match(confirmation.title, /^Push /);
    assert.match(confirmation.message, /branch main of agent Support Desk/);
    assert.match(confirmation.message, /behavior\.md/);
    assert.doesNotMatch(await platform.behavior(), /Always greet by name/, 'preparing changes nothing');
    const pushed = await tools.invoke(tool('push'), {});
    assert.match(pushed, /behavior/);
    assert.match(await platform.behavior(), /Always greet by name/);
  });

  test('pull (confirmation read from prepareInvocation): a teammate’s change is listed, then written into the folder', async () => {
    await admin.editBranch(AGENT, 'br_support_main', { behavior: 'Teammate behavior: answer in one sentence.' });
    const confirmation = await tools.prepare(tool('pull'), {});
    assert.ok(confirmation);
    assert.match(confirmation.message, /behavior\.md: changed on the platform/);
    const pulled = await tools.invoke(tool('pull'), {});
    assert.match(pulled, /1 file\(s\) changed/);
    assert.match(await readFile(join(folder, 'behavior.md'), 'utf8'), /Teammate behavior/);
  });

  test('createBranch (confirmation read from prepareInvocation): named with its agent, then on the platform', async () => {
    const confirmation = await tools.prepare(tool('createBranch'), { name: 'assistant-autumn' });
    assert.ok(confirmation);
    assert.match(confirmation.message, /"assistant-autumn" of agent Support Desk/);
    const made = await tools.invoke(tool('createBranch'), { name: 'assistant-autumn' });
    assert.match(made, /Created branch assistant-autumn/);
    const { body } = await platform.agents<{ branches: Array<{ name: string }> }>(
      'GET',
      `/v1/agents/${AGENT}/branches`,
    );
    assert.ok(body.branches.some((b) => b.name === 'assistant-autumn'));
  });

  test('publishToSandbox (confirmation read from prepareInvocation): a change of sandbox only, then sandbox serves a new deployment', async () => {
    const confirmation = await tools.prepare(tool('publishToSandbox'), {});
    assert.ok(confirmation);
    assert.match(confirmation.title, /Publish Support Desk/);
    assert.match(confirmation.message, /Pre-release and live do not change/);
    assert.doesNotMatch(confirmation.message, /live callers/);
    const before = (await deployments('sandbox')).length;
    const published = await tools.invoke(tool('publishToSandbox'), {});
    assert.match(published, /now in sandbox/);
    assert.equal((await deployments('sandbox')).length, before + 1);
  });

  test('promote (confirmation read from prepareInvocation): to pre-release is said so; to live says so and is asked again in the editor, with the agent name typed', async () => {
    const toPreRelease = await tools.prepare(tool('promote'), { deploymentId: 'dep_support_1' });
    assert.ok(toPreRelease);
    assert.match(toPreRelease.message, /from sandbox to pre-release/);
    assert.doesNotMatch(toPreRelease.message, /live callers/);
    const toLive = await tools.prepare(tool('promote'), { deploymentId: 'dep_support_2' });
    assert.ok(toLive);
    assert.match(toLive.title, /LIVE/);
    assert.match(toLive.message, /from pre-release to live/);
    assert.match(toLive.message, /This changes what live callers reach/);
    const liveBefore = (await deployments('live')).length;
    // Confirmed by VS Code, then not in the editor's own question: nothing changes.
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
    const refused = await tools.invoke(tool('promote'), { deploymentId: 'dep_support_2' });
    assert.match(refused, /Nothing was done: the person did not confirm/);
    const asked = ui.shown.filter((s) => s.modal && /LIVE/.test(s.message));
    assert.equal(asked.length, 1, 'the change to live is asked in the editor');
    assert.match(asked[0]!.detail, /from pre-release to live/);
    assert.equal((await deployments('live')).length, liveBefore);
    // Yes in the editor, then the agent's name typed wrong: as the Promote command, nothing changes.
    ui.shown.length = 0;
    ui.setAnswer((s) =>
      s.modal && /LIVE/.test(s.message) ? 'Continue on Live' : s.kind === 'input' ? 'support desk' : undefined,
    );
    assert.match(await tools.invoke(tool('promote'), { deploymentId: 'dep_support_2' }), /Nothing was done/);
    const typing = ui.shown.find((s) => s.kind === 'input');
    assert.ok(typing, 'the agent name is asked to be typed');
    assert.match(typing.message, /Type the agent name "Support Desk"/);
    assert.equal(typing.refused, 'Type exactly: Support Desk');
    assert.equal((await deployments('live')).length, liveBefore);
    ui.setAnswer((s) =>
      s.modal && /LIVE/.test(s.message) ? 'Continue on Live' : s.kind === 'input' ? 'Support Desk' : undefined,
    );
    const promoted = await tools.invoke(tool('promote'), { deploymentId: 'dep_support_2' });
    assert.match(promoted, /now in live/);
    assert.equal((await deployments('live')).length, liveBefore + 1);
    // One step below live is not asked again.
    ui.shown.length = 0;
    assert.match(await tools.invoke(tool('promote'), { deploymentId: 'dep_support_1' }), /now in pre-release/);
    assert.deepEqual(
      ui.shown.filter((s) => s.modal),
      [],
    );
  });

  test('a tool given bad input answers what to fix and does nothing', async () => {
    const text = await tools.invoke(tool('agentDetails'), { agentId: AGENT, limit: 'ten', colour: 'red' });
    assert.match(text, /was not used: fix these and call it again/);
    assert.match(text, /limit/);
    assert.match(text, /colour/);
    // A change with bad input: nothing to confirm, since nothing will run; the answer says what is missing.
    assert.equal(await tools.prepare(tool('promote'), {}), undefined);
    const liveBefore = (await deployments('live')).length;
    const missing = await tools.invoke(tool('promote'), {});
    assert.match(missing, /deploymentId/);
    assert.equal((await deployments('live')).length, liveBefore);
  });

  test('[AUTH-2] a secret given as input is refused without repeating it', async () => {
    const text = await tools.invoke(tool('agentFolders'), { folder: LOCAL_KEYS.chat } as object);
    assert.ok(!text.includes(LOCAL_KEYS.chat), 'the answer does not repeat the key');
    const secret = await tools.invoke(tool('checkAgentFolder'), { folder: LOCAL_KEYS.agents });
    assert.match(secret, /holds a secret/);
    assert.ok(!secret.includes(LOCAL_KEYS.agents));
  });

  test('every tool was invoked through vscode.lm.invokeTool', () => {
    const names = tools.listed().map((t) => t.name);
    assert.deepEqual(
      names.filter((n) => !tools.invoked.has(n)),
      [],
    );
  });

  test('[AUTH-2] no answer or confirmation of a tool holds a secret used in the run', () => {
    assert.ok(tools.answers.length > 10);
    assert.deepEqual(
      tools.answers.flatMap((a) => secretsIn(a.text, `the answer of ${a.name}`)),
      [],
    );
  });
});
