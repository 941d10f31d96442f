import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { type ScriptedPrompts, scriptedPrompts } from './prompts';
import { activateExtension, child, http, type LocalPlatformUrls, treeItems, type WorkbenchExports } from './support';

type Agent = { agentId: string; name: string };
type Deployment = { id: string; environment: string; version: string; active?: boolean };
type ActionResult = { deployment: Deployment; testRunIds: string[] } | undefined;

/** The Agents view and its commands, against the local platform, checking the tree and the platform afterwards. */
suite('Agents view and commands', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  /** The person goes ahead at every question and, asked to type the agent's name, types `typed`. */
  const goAhead = (typed?: string) =>
    ui.setAnswer((s) =>
      s.modal ? s.items[0] : s.kind === 'input' && /^Type the agent name/.test(s.message) ? typed : undefined,
    );
  const agentsApi = <T>(method: string, path: string, body?: unknown) =>
    http<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents }, body });
  const roots = () => treeItems(api.agentsView);
  const agentCount = async () =>
    (await agentsApi<{ agents: Agent[] }>('GET', '/v1/agents?limit=1000')).body.agents.length;

  suiteSetup(async () => {
    api = await activateExtension();
    const started = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    urls = started;
    await http('POST', `${urls.admin}/reset`, { body: { seed: 'base' } });
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    ui = scriptedPrompts(api);
  });

  suiteTeardown(() => ui.dispose());

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('shows the agents of the workspace, and under an agent its branches (main first) and groups', async () => {
    const items = await roots();
    assert.deepEqual(
      items.map((i) => i.label),
      ['Support Desk'],
    );
    const resolved = await api.agentsView.resolveTreeItem!(
      items[0]!.item,
      items[0]!.node,
      new vscode.CancellationTokenSource().token,
    );
    const tooltip = resolved!.tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /ag_support/);
    const children = await treeItems(api.agentsView, items[0]!.node);
    assert.deepEqual(
      children.map((c) => c.label),
      ['main', 'Deployments', 'Telephony Numbers', 'Real-time Configs'],
    );
    assert.match(children[0]!.description, /default/);
    const main = children[0]!;
    const [behavior, knowledge] = await treeItems(api.agentsView, main.node);
    assert.equal(behavior!.label, 'Behavior');
    const topics = await treeItems(api.agentsView, knowledge!.node);
    assert.deepEqual(
      topics.map((t) => t.label),
      ['Delivery', 'Opening hours', 'Returns'],
    );
    const deployments = await treeItems(api.agentsView, children[1]!.node);
    assert.deepEqual(
      deployments.map((d) => d.label),
      ['sandbox', 'pre-release', 'live'],
    );
    assert.match(deployments[2]!.description, /^v1 · /);
  });

  test("a branch's behavior opens as a read-only document that reads again when the branch is refreshed", async () => {
    const [agent] = await roots();
    const [main] = await treeItems(api.agentsView, agent!.node);
    const [behavior] = await treeItems(api.agentsView, main!.node);
    const uri = behavior!.item.command!.arguments![0] as vscode.Uri;
    assert.equal(uri.path, '/local/Support Desk/main/behavior — Support Desk (main).md');
    const doc = await vscode.workspace.openTextDocument(uri);
    const branchId = (main!.node as { branch: { branchId: string } }).branch.branchId;
    const onPlatform = await agentsApi<{ behavior: string }>(
      'GET',
      `/v1/agents/ag_support/branches/${branchId}/behavior`,
    );
    assert.equal(doc.getText(), `${onPlatform.body.behavior}\n`);
    // A teammate changes the behavior; refreshing the branch reads it again into the open document.
    await http('POST', `${urls.admin}/agents/ag_support/branches/${branchId}/edit`, {
      body: { behavior: 'You are Sam, now brief.' },
    });
    const changed = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === uri.toString()) {
          sub.dispose();
          resolve();
        }
      });
    });
    await vscode.commands.executeCommand('agentWorkbench.refreshNode', main!.node);
    await changed;
    assert.equal(doc.getText(), 'You are Sam, now brief.\n');
    const forged = uri.with({ query: 'kind=behavior&agentId=ag_support' });
    await assert.rejects(
      Promise.resolve(vscode.workspace.openTextDocument(forged)),
      'an address the extension did not make is refused',
    );
  });

  test('refuses an agent name over 128 characters and sends nothing; creates a valid one and shows it', async () => {
    const before = await agentCount();
    const refused = await vscode.commands.executeCommand('agentWorkbench.createAgent', {
      name: 'x'.repeat(129),
      description: '',
    });
    assert.equal(refused, undefined);
    assert.equal(await agentCount(), before);
    const created = await vscode.commands.executeCommand<Agent>('agentWorkbench.createAgent', {
      name: 'Returns Helper',
      description: 'Handles returns',
    });
    assert.ok(created?.agentId);
    assert.equal(await agentCount(), before + 1);
    assert.deepEqual(
      (await roots()).map((i) => i.label),
      ['Returns Helper', 'Support Desk'],
    );
  });

  test('creates a branch from main; a bad branch name is refused before sending', async () => {
    const agent = (await roots()).find((i) => i.label === 'Returns Helper')!;
    const id = (agent.node as { agent: Agent }).agent.agentId;
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.createBranch', { agentId: id }, 'bad name!'),
      undefined,
    );
    const branch = await vscode.commands.executeCommand<{ name: string }>(
      'agentWorkbench.createBranch',
      agent.node,
      'feature/returns',
    );
    assert.equal(branch?.name, 'feature/returns');
    const labels = (await treeItems(api.agentsView, agent.node)).map((c) => c.label);
    assert.deepEqual(labels.slice(0, 2), ['main', 'feature/returns']);
    const onPlatform = await agentsApi<{ branches: Array<{ name: string }> }>('GET', `/v1/agents/${id}/branches`);
    assert.deepEqual(onPlatform.body.branches.map((b) => b.name).sort(), ['feature/returns', 'main']);
  });

  test('publishes to sandbox, promotes to pre-release and, with the name typed, to live; a wrong name changes nothing', async () => {
    const agentNode = (await roots()).find((i) => i.label === 'Returns Helper')!.node;
    const id = (agentNode as { agent: Agent }).agent.agentId;
    // Dismissing the question publishes nothing.
    assert.equal(
      await vscode.commands.executeCommand<ActionResult>('agentWorkbench.publish', agentNode, {
        deploymentMessage: 'First release',
      }),
      undefined,
    );
    assert.match(ui.shown.find((s) => s.modal)!.message, /^Publish the main branch of Returns Helper to sandbox\?/);
    assert.equal(
      (await agentsApi<{ deployments: Deployment[] }>('GET', `/v1/agents/${id}/deployments`)).body.deployments.length,
      0,
    );
    goAhead();
    const published = await vscode.commands.executeCommand<ActionResult>('agentWorkbench.publish', agentNode, {
      deploymentMessage: 'First release',
    });
    assert.equal(published?.deployment.environment, 'sandbox');
    assert.ok(Array.isArray(published.testRunIds));
    const pre = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId: id, deploymentId: published.deployment.id },
      { deploymentMessage: '' },
    );
    assert.equal(pre?.deployment.environment, 'pre-release');
    goAhead('Support Desk');
    const wrong = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId: id, deploymentId: pre.deployment.id },
      { deploymentMessage: '' },
    );
    assert.equal(wrong, undefined);
    assert.equal(ui.shown.find((s) => s.kind === 'input')?.refused, 'Type exactly: Returns Helper');
    const liveBefore = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      `/v1/agents/${id}/deployments?environment=live`,
    );
    assert.equal(liveBefore.body.deployments.length, 0, 'nothing reached live');
    goAhead('Returns Helper');
    const live = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId: id, deploymentId: pre.deployment.id },
      { deploymentMessage: 'Go live' },
    );
    assert.equal(live?.deployment.environment, 'live');
    const deployments = (await treeItems(api.agentsView, agentNode)).find((c) => c.label === 'Deployments')!;
    const envs = await treeItems(api.agentsView, deployments.node);
    assert.match(envs.find((e) => e.label === 'live')!.description, new RegExp(`^v${live.deployment.version} · `));
  });

  test('rolls back live to the release it replaced, with a deployment message, after the name is typed', async () => {
    const id = ((await roots()).find((i) => i.label === 'Returns Helper')!.node as { agent: Agent }).agent.agentId;
    // A second release reaches live through the API, so live has a release to go back to.
    const v2 = await agentsApi<{ deployment: Deployment }>('POST', `/v1/agents/${id}/deployments/publish`, {
      environment: 'sandbox',
    });
    const pre = await agentsApi<{ deployment: Deployment }>(
      'POST',
      `/v1/agents/${id}/deployments/${v2.body.deployment.id}/promote`,
      {},
    );
    const live = await agentsApi<{ deployment: Deployment }>(
      'POST',
      `/v1/agents/${id}/deployments/${pre.body.deployment.id}/promote`,
      {},
    );
    assert.equal(live.body.deployment.environment, 'live');
    goAhead('Returns Helper');
    const result = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.rollback',
      { agentId: id, environment: 'live' },
      { deploymentMessage: 'Bad prompt' },
    );
    assert.equal(result?.deployment.environment, 'live');
    assert.notEqual(result.deployment.id, live.body.deployment.id);
    const after = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      `/v1/agents/${id}/deployments?environment=live`,
    );
    const active = after.body.deployments.find((d) => d.active)!;
    assert.equal(active.id, result.deployment.id);
  });

  test('a rollback with nothing to go back to is refused by the platform and changes nothing', async () => {
    const before = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      '/v1/agents/ag_support/deployments?environment=live',
    );
    goAhead('Support Desk');
    const result = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.rollback',
      { agentId: 'ag_support', environment: 'live' },
      { deploymentMessage: '' },
    );
    assert.equal(result, undefined);
    const after = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      '/v1/agents/ag_support/deployments?environment=live',
    );
    assert.deepEqual(
      after.body.deployments.map((d) => d.id),
      before.body.deployments.map((d) => d.id),
    );
  });

  test('imports numbers: E.164 ones are sent, others reported as rejected; none valid sends nothing', async () => {
    const report = await vscode.commands.executeCommand<{ imported: string[]; rejected: Array<{ number: string }> }>(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      { numbers: ['+14155550177', '4155550178'], clientEnv: 'sandbox' },
    );
    assert.deepEqual(report?.imported, ['+14155550177']);
    assert.deepEqual(
      report.rejected.map((r) => r.number),
      ['4155550178'],
    );
    const numbers = await agentsApi<{ phoneNumbers: Array<{ number: string }> }>(
      'GET',
      '/v1/agents/ag_support/telephony/phone-numbers',
    );
    assert.ok(numbers.body.phoneNumbers.some((n) => n.number === '+14155550177'));
    const none = await vscode.commands.executeCommand(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      { numbers: ['12345'], clientEnv: 'live' },
    );
    assert.equal(none, undefined);
    const agentNode = (await roots()).find((i) => i.label === 'Support Desk')!.node;
    const numbersNode = await child(api.agentsView, agentNode, 'Telephony Numbers');
    const envs = await treeItems(api.agentsView, numbersNode.node);
    assert.ok(envs.some((e) => e.label === 'sandbox'));
    const byConnector = await vscode.commands.executeCommand<Array<{ number: string }>>(
      'agentWorkbench.listNumbersByConnector',
      { agentId: 'ag_support' },
      'conn_voice_out',
    );
    assert.ok(byConnector?.every((n) => (n as { connectorId?: string }).connectorId === 'conn_voice_out'));
  });

  test('filters agents by name and clears the filter', async () => {
    await vscode.commands.executeCommand('agentWorkbench.filterAgents', 'returns');
    assert.deepEqual(
      (await roots()).map((i) => i.label),
      ['Returns Helper'],
    );
    await vscode.commands.executeCommand('agentWorkbench.clearAgentFilter');
    assert.equal((await roots()).length, 2);
  });

  test('copies an agent id to the clipboard', async () => {
    const node = (await roots()).find((i) => i.label === 'Support Desk')!.node;
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.copyId', node), 'ag_support');
    assert.equal(await vscode.env.clipboard.readText(), 'ag_support');
  });

  test('marks the branch checked out into the workspace (agent.json of an agent folder)', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const manifest = vscode.Uri.joinPath(folder, 'support-desk', 'agent.json');
    const mainBranch = async () => {
      const agent = (await roots()).find((i) => i.label === 'Support Desk')!.node;
      return (await treeItems(api.agentsView, agent)).find((c) => c.label === 'main')!;
    };
    assert.doesNotMatch((await mainBranch()).description, /checked out/);
    await vscode.workspace.fs.writeFile(
      manifest,
      new TextEncoder().encode(
        JSON.stringify({
          agentId: 'ag_support',
          name: 'Support Desk',
          profile: 'local',
          branch: { branchId: 'br_support_main', name: 'main' },
        }),
      ),
    );
    try {
      // The file watcher usually reports the new file; Refresh reads the workspace again in any case.
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
      let description = '';
      for (let i = 0; i < 100 && !/checked out/.test(description); i++) {
        await new Promise((r) => setTimeout(r, 100));
        description = (await mainBranch()).description;
      }
      assert.match(description, /default · checked out/);
      assert.match((await mainBranch()).item.contextValue ?? '', /checkedOut/);
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'support-desk'), { recursive: true });
    }
  });

  test('where the platform cannot read one agent (an assumed endpoint), commands act on the id given', async () => {
    await http('POST', `${urls.admin}/faults`, {
      body: { family: 'build', path: '/^\\/v1\\/agents\\/ag_support$/', method: 'GET', status: 405, times: 5 },
    });
    try {
      const branch = await vscode.commands.executeCommand<{ name: string }>(
        'agentWorkbench.createBranch',
        { agentId: 'ag_support' },
        'manual-path',
      );
      assert.equal(branch?.name, 'manual-path');
    } finally {
      await http('DELETE', `${urls.admin}/faults`);
    }
  });

  test('where the platform does not list agents, the view shows the agents added by id', async () => {
    await http('POST', `${urls.admin}/faults`, {
      body: { family: 'build', path: '/^\\/v1\\/agents$/', method: 'GET', status: 405, times: 50 },
    });
    try {
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
      assert.deepEqual(await roots(), []);
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', 'ag_support'), 'ag_support');
      assert.deepEqual(
        (await roots()).map((i) => i.label),
        ['Support Desk'],
      );
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', 'has space'), undefined);
    } finally {
      await http('DELETE', `${urls.admin}/faults`);
    }
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    assert.ok((await roots()).length >= 2, 'the full list is back once the platform lists agents');
  });

  test('an unreachable Agents API leaves the view empty with the reason, and a retry recovers', async () => {
    await http('POST', `${urls.admin}/faults`, {
      body: { family: 'build', path: '/v1/agents', method: 'GET', status: 503, times: 20 },
    });
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    assert.deepEqual(await roots(), []);
    await http('DELETE', `${urls.admin}/faults`);
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    assert.equal((await roots()).length, 2);
  });
});
