import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { shownFolder, waitForEditor } from '../support/editor/agentFolders';
import {
  activateExtension,
  child,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { type ScriptedPrompts, type Shown, scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { LocalAdmin } from '../support/localAdmin';
import { type ChatPanelHandle, openChat } from '../support/editor/chatPanel';
import { until } from '../support/until';
import type { ChatHeader } from '../../src/protocol/chat';

type Deployment = { id: string; environment: string; version: string };
type ActionResult = { deployment: Deployment; testRunIds: string[] } | undefined;
type ChatWithHeader = ChatPanelHandle & { readonly header: ChatHeader | undefined };

/**
 * The Agents view, Check Out and Push, and the deploy actions against a platform that has only the spec's
 * endpoints (the local platform's spec-only mode, whatever mode the run set): no agent, branch, behavior, topic
 * or deployment can be read, so every operation of the spec is reached without those reads.
 */
suite('Agents in spec-only mode: every operation the spec shows is reachable', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let modeBefore: ResponsesMode;
  const folders: string[] = [];
  const agentsApi = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents }, body });
  const roots = () => treeItems(api.agentsView);
  /** The agent's row, by its name or (for an agent added by id, whose name may be known from earlier) its id. */
  const agentItem = async (nameOrId: string) => {
    const items = await roots();
    const found = items.find((i) => i.label === nameOrId || i.item.id === `agent/${nameOrId}`);
    assert.ok(found, `the Agents view shows ${nameOrId}; it shows ${JSON.stringify(items.map((i) => i.label))}`);
    return found;
  };
  /** Goes ahead at every question (the first button, or `button`), types `typed` where the agent's name is asked, and leaves messages empty. */
  const goAhead = (typed: string, button?: (s: Shown) => string | undefined) =>
    ui.setAnswer((s) =>
      s.modal
        ? // Tagged tests other suites left in the workspace are not this suite's concern: the promotion goes ahead.
          (button?.(s) ?? (s.items.includes('Promote Without Testing') ? 'Promote Without Testing' : s.items[0]))
        : s.kind === 'input'
          ? /^Type the agent name/.test(s.message)
            ? // The name the question gives: an agent known here by name (an earlier listing) is confirmed by it.
              (/^Type the agent name "([^"]+)"/.exec(s.message)?.[1] ?? typed)
            : ''
          : undefined,
    );
  const askedName = () => ui.shown.some((s) => s.kind === 'input' && /^Type the agent name/.test(s.message));
  const sent = async (method: string, path: RegExp) =>
    (await admin.requests({ base: 'build' })).filter((r) => r.method === method && path.test(r.path));

  suiteSetup(async () => {
    api = await activateExtension();
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    admin = new LocalAdmin(urls.admin);
    modeBefore = (await admin.responses()).mode;
    await admin.setResponses('spec-only');
    await admin.reset();
    // The platform's data is made afresh: deployments kept by earlier suites name what is gone.
    await api.testing!.forgetKeptDeployments('local');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    ui = scriptedPrompts(api);
  });

  suiteTeardown(async () => {
    ui.dispose();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
    await admin.setResponses(modeBefore);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('AGENT-1 an agent made with Create Agent is remembered, and shown where agents are not listed', async () => {
    const created = await vscode.commands.executeCommand<{ agentId: string }>('agentWorkbench.createAgent', {
      name: 'Spec Only Desk',
      description: 'Made where agents are not listed',
    });
    assert.ok(created?.agentId, ui.lastError());
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    const item = await agentItem('Spec Only Desk');
    assert.equal(item.description, 'Made where agents are not listed');
    assert.match(api.testing!.viewState('agents').message ?? '', /does not list agents/);
  });

  test('AGENT-11 Add Agent by Id checks an agent through its phone numbers (a read the spec shows) and adds it', async () => {
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', 'ag_support'), 'ag_support');
    const info = ui.shown.find((s) => s.kind === 'info')?.message ?? '';
    assert.match(info, /^Agent ag_support added to the Agents view: its phone numbers could be read/);
    assert.doesNotMatch(ui.shown.map((s) => s.message).join('\n'), /No agent has the id/);
    assert.notEqual((await agentItem('ag_support')).description, 'not verified');
    // A 404 of the read the spec shows does name the agent: nothing is added.
    ui.shown.length = 0;
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', 'ag_nowhere'), undefined);
    assert.match(ui.lastError(), /No agent has the id ag_nowhere/);
    // Where that read cannot answer either, the agent is added, marked not verified.
    await admin.addFault({
      family: 'build',
      path: '/^\\/v1\\/agents\\/ag_unchecked\\/telephony\\/phone-numbers$/',
      method: 'GET',
      status: 403,
      times: 5,
    });
    try {
      ui.shown.length = 0;
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', 'ag_unchecked'), 'ag_unchecked');
      assert.match(ui.shown.find((s) => s.kind === 'info')?.message ?? '', /marked not verified/);
      assert.equal((await agentItem('ag_unchecked')).description, 'not verified');
    } finally {
      await admin.clearFaults();
    }
  });

  test('AGENT-11 each group under an agent loads on its own: a failed branch list leaves the others', async () => {
    const agent = await agentItem('ag_support');
    const children = await treeItems(api.agentsView, agent.node);
    const labels = children.map((c) => c.label);
    assert.match(labels[0] ?? '', /^Could not load/);
    for (const group of ['Check Out a Branch by Id…', 'Deployments', 'Telephony Numbers', 'Real-time Configs'])
      assert.ok(labels.includes(group), `${group} is shown: ${JSON.stringify(labels)}`);
    const numbers = await treeItems(api.agentsView, children.find((c) => c.label === 'Telephony Numbers')!.node);
    assert.ok(numbers.length > 0);
    assert.doesNotMatch(numbers.map((n) => n.label).join(' '), /Could not load/, 'the numbers are read (AGENT-11)');
    const deployments = await treeItems(api.agentsView, children.find((c) => c.label === 'Deployments')!.node);
    assert.ok(deployments.some((d) => d.label === 'Promote a Deployment by Id…'));
    assert.ok(deployments.some((d) => d.label === 'Roll Back a Deployment by Id…'));
  });

  test('AGENT-4 AGENT-5 AGENT-10 Check Out by typed agent and branch id reads nothing; Push asks to overwrite, then sets behavior, adds a topic and sets variables', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const folder = join(root, `spec-only-${randomBytes(4).toString('hex')}`);
    folders.push(folder);
    const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
      agentId: 'ag_support',
      branchId: 'br_support_main',
      folder,
    });
    assert.equal(done, folder, ui.lastError());
    assert.match(
      ui.shown.find((s) => s.kind === 'info')?.message ?? '',
      /empty: this platform does not let the branch be read/,
    );
    await waitForEditor(api, 'the source control of the new folder', () => shownFolder(api, folder));
    await writeFile(join(folder, 'behavior.md'), 'You answer in spec-only mode.\n');
    await mkdir(join(folder, 'knowledge'), { recursive: true });
    await writeFile(join(folder, 'knowledge', 'parking.md'), '---\nname: Parking\n---\n\nFree after six.\n');
    await mkdir(join(folder, 'realtime'), { recursive: true });
    await writeFile(join(folder, 'realtime', 'store-settings.json'), '{\n  "maxWaitMinutes": 30\n}\n');
    await admin.clearRequests();
    // Backing out of the overwrite sends nothing.
    goAhead('', (s) => (s.items.includes('Overwrite') ? 'Cancel' : s.items[0]));
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.push', { folder }), undefined);
    const question = ui.shown.find((s) => s.modal && /^Overwrite/.test(s.message));
    assert.ok(question, JSON.stringify(ui.shown.map((s) => s.message)));
    assert.match(question.detail, /conflict detection is unavailable here/);
    assert.deepEqual(await sent('PATCH', /behavior$/), []);
    ui.shown.length = 0;
    goAhead('', (s) => (s.items.includes('Overwrite') ? 'Overwrite' : s.items[0]));
    const report = await vscode.commands.executeCommand<{ sent: unknown[]; refused: unknown[] }>(
      'agentWorkbench.push',
      { folder },
    );
    assert.equal(report?.sent.length, 3, ui.lastError());
    assert.equal((await sent('PATCH', /^\/v1\/agents\/ag_support\/branches\/br_support_main\/behavior$/)).length, 1);
    assert.equal((await sent('POST', /\/br_support_main\/knowledge-base\/topics$/)).length, 1);
    assert.equal((await sent('PATCH', /\/real-time-configs\/store-settings\/variables$/)).length, 1);
    // What the platform holds now, read in the full mode (reads are ours).
    await admin.setResponses('full');
    try {
      const behavior = await agentsApi<{ behavior: string }>(
        'GET',
        '/v1/agents/ag_support/branches/br_support_main/behavior',
      );
      assert.equal(behavior.body.behavior, 'You answer in spec-only mode.');
    } finally {
      await admin.setResponses('spec-only');
    }
    // Pushed as sent: a second push has nothing to send, so the topic is not created twice.
    ui.shown.length = 0;
    const again = await vscode.commands.executeCommand<{ sent: unknown[] }>('agentWorkbench.push', { folder });
    assert.equal(again?.sent.length, 0);
    assert.equal((await sent('POST', /\/knowledge-base\/topics$/)).length, 1);
  });

  test('AGENT-6 AGENT-7 AGENT-8 the deployment Publish returns is kept and listed; Promote and Rollback take a typed id and ask for the name while the target may be live', async () => {
    goAhead('ag_support');
    const published = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.publish',
      { agentId: 'ag_support' },
      { deploymentMessage: '' },
    );
    assert.equal(published?.deployment.environment, 'sandbox', ui.lastError());
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    const deployments = await child(api.agentsView, (await agentItem('ag_support')).node, 'Deployments');
    const sandbox = (await treeItems(api.agentsView, deployments.node)).find((e) => e.label === 'sandbox');
    assert.ok(sandbox, 'the kept deployment is listed under sandbox');
    assert.match(sandbox.description, new RegExp(`^v${published.deployment.version} · `));

    // The kept deployment is promoted by its id without a read; where it goes is not shown before.
    ui.shown.length = 0;
    goAhead('ag_support');
    const first = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId: 'ag_support', deploymentId: published.deployment.id },
      { deploymentMessage: '' },
    );
    assert.equal(first?.deployment.environment, 'pre-release', ui.lastError());

    // A deployment made elsewhere: only its id is known here.
    const elsewhere = await agentsApi<{ deployment: Deployment }>('POST', '/v1/agents/ag_support/deployments/publish', {
      environment: 'sandbox',
    });
    ui.shown.length = 0;
    goAhead('ag_support');
    const promoted = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId: 'ag_support', deploymentId: elsewhere.body.deployment.id },
      { deploymentMessage: '' },
    );
    const question = ui.shown.find((s) => s.modal)!;
    // Named by its name when an earlier listing made it known here, by its id otherwise.
    assert.match(
      question.message,
      new RegExp(`^Promote deployment ${elsewhere.body.deployment.id} of (ag_support|Support Desk)\\?$`),
    );
    assert.match(question.detail, /does not say in advance.*It may reach live/);
    assert.ok(askedName(), 'the agent name is asked: the target may be live');
    assert.equal(promoted?.deployment.environment, 'pre-release', ui.lastError());

    // Rollback from the palette: the platform lists no deployments, so the id is typed.
    ui.shown.length = 0;
    ui.setAnswer((s) =>
      s.modal
        ? s.items[0]
        : s.kind === 'input' && /Enter the deployment id/.test(s.message)
          ? promoted.deployment.id
          : '',
    );
    const rolledBack = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.rollback',
      { agentId: 'ag_support', environment: 'pre-release' },
      { deploymentMessage: '' },
    );
    assert.ok(ui.shown.some((s) => s.kind === 'input' && /does not list deployments/.test(s.message)));
    assert.equal(rolledBack?.deployment.environment, 'pre-release', ui.lastError());
    assert.equal(askedName(), false, 'pre-release, as the promotion answered, is not live');
  });

  test('AGENT-6 AGENT-8 after a publish and a rollback made here, Publish and the chat say what sandbox serves', async () => {
    goAhead('ag_support');
    const published = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.publish',
      { agentId: 'ag_support' },
      { deploymentMessage: '' },
    );
    assert.equal(published?.deployment.environment, 'sandbox', ui.lastError());
    // A version published here before is what sandbox serves, as far as this editor can tell.
    const question = ui.shown.find((s) => s.modal && /^Publish the main branch/.test(s.message));
    assert.match(question?.detail ?? '', /Main becomes a new version in sandbox, which serves version \d+ now/);
    ui.shown.length = 0;
    goAhead('ag_support');
    const rolledBack = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.rollback',
      { agentId: 'ag_support', deploymentId: published.deployment.id },
      { deploymentMessage: '' },
    );
    assert.equal(rolledBack?.deployment.environment, 'sandbox', ui.lastError());
    ui.setAnswer(() => undefined);
    const chat = await openChat({ mode: 'chatApi', target: { agentId: 'ag_support', label: 'Support Desk' } });
    try {
      const header = await until('the header', () => (chat as ChatWithHeader).header);
      assert.equal(header.version, rolledBack.deployment.version, JSON.stringify(header));
      assert.doesNotMatch(header.note ?? '', /Nothing is published/);
    } finally {
      chat.dispose();
    }
  });

  test('AGENT-4 a push that stops on one file says first what it already changed on the platform', async () => {
    const folder = folders[0]!;
    await writeFile(join(folder, 'behavior.md'), 'You answer in spec-only mode, briefly.\n');
    await writeFile(join(folder, 'knowledge', 'hours.md'), '---\nname: Hours\n---\n\nOpen nine to five.\n');
    await admin.addFault({
      family: 'build',
      method: 'POST',
      path: '/\\/knowledge-base\\/topics$/',
      status: 500,
      times: 1,
    });
    try {
      goAhead('', (s) => (s.items.includes('Overwrite') ? 'Overwrite' : s.items[0]));
      const report = await vscode.commands.executeCommand<{ sent: unknown[]; stoppedAt?: string }>(
        'agentWorkbench.push',
        { folder },
      );
      assert.equal(report?.stoppedAt, 'knowledge/hours.md', ui.lastError());
      const told = ui.shown.find((s) => s.kind === 'warning' && /^Pushed 1 change/.test(s.message));
      assert.ok(told, JSON.stringify(ui.shown.map((s) => `${s.kind}: ${s.message}`)));
      assert.match(
        told.message,
        /^Pushed 1 change to .*: behavior\.md\. Then the push stopped at knowledge\/hours\.md/,
      );
      assert.deepEqual(told.items, ['Push Again']);
      assert.equal(ui.lastError(), '', 'the behavior that was set is not reported as failed');
    } finally {
      await admin.clearFaults();
    }
    // Pushing again sends only the rest.
    ui.shown.length = 0;
    await admin.clearRequests();
    const again = await vscode.commands.executeCommand<{ sent: unknown[] }>('agentWorkbench.push', { folder });
    assert.equal(again?.sent.length, 1, ui.lastError());
    assert.deepEqual(await sent('PATCH', /behavior$/), []);
  });

  test('AGENT-3 a merge the platform accepted is told as done, with no error after it where its follow-up reads are missing', async () => {
    await admin.setResponses('full');
    let branchId: string | undefined;
    try {
      const name = `feature/merge-${randomBytes(3).toString('hex')}`;
      await agentsApi('POST', '/v1/agents/ag_support/branches', { name });
      const listed = await agentsApi<{ branches: Array<{ branchId: string; name: string }> }>(
        'GET',
        '/v1/agents/ag_support/branches',
      );
      branchId = listed.body.branches.find((b) => b.name === name)?.branchId;
    } finally {
      await admin.setResponses('spec-only');
    }
    assert.ok(branchId, 'the branch to merge was made');
    ui.setAnswer((s) => (s.modal ? (s.items.includes('Merge') ? 'Merge' : s.items[0]) : undefined));
    const result = await vscode.commands.executeCommand('agentWorkbench.mergeBranch', {
      agentId: 'ag_support',
      branchId,
    });
    assert.ok(result, ui.lastError());
    assert.ok(ui.shown.some((s) => s.kind === 'info' && /merged/i.test(s.message)));
    assert.deepEqual(
      ui.shown.filter((s) => s.kind === 'error' || s.kind === 'warning').map((s) => s.message),
      [],
      'a merge that was done is not followed by an error',
    );
  });

  test('AGENT-7 an agent known only by a long id is confirmed by the end of its id; the palette offers the agents remembered here', async () => {
    const id = '3f2a9c1d-5b7e-4c3a-9d1f-2e8b6a4c0f17';
    ui.setAnswer((s) => (s.modal ? s.items[0] : undefined));
    await vscode.commands.executeCommand(
      'agentWorkbench.promote',
      { agentId: id, deploymentId: 'dep_made_elsewhere' },
      { deploymentMessage: '' },
    );
    const typed = ui.shown.find((s) => s.kind === 'input' && /to change what callers reach in live$/.test(s.message));
    assert.equal(
      typed?.message,
      `Type "4c0f17", the last 6 characters of the agent id ${id}, to change what callers reach in live`,
      JSON.stringify(ui.shown.map((s) => s.message)),
    );
    for (const command of ['agentWorkbench.promote', 'agentWorkbench.rollback']) {
      ui.shown.length = 0;
      ui.setAnswer(() => undefined);
      await vscode.commands.executeCommand(command, undefined, { deploymentMessage: '' });
      const pick = ui.shown.find((s) => s.kind === 'pick');
      assert.ok(pick, `${command} offers a pick: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
      assert.ok(pick.items.includes('Spec Only Desk'), JSON.stringify(pick.items));
      assert.equal(pick.items.at(-1), 'Enter an Agent Id…');
    }
  });
});
