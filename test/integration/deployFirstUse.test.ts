import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { until } from '../support/until';
import { type ScriptedPrompts, type Shown, scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import {
  activateExtension,
  child,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';

type Deployment = { id: string; environment: string; version: string; active?: boolean; createdBy: string };
type ActionResult = { deployment: Deployment; testRunIds: string[] } | undefined;

/** What a newcomer meets when publishing, promoting and importing numbers: each question says what will happen. */
suite('First use: publishing, promoting and environments', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let agentId: string;
  const agentsApi = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents }, body });
  const modal = (): Shown => {
    const m = ui.shown.find((s) => s.modal);
    assert.ok(m, `a question was asked; shown: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
    return m;
  };
  /**
   * Answers the modal question with `button`, types the agent's name when asked for it, any deployment message
   * with nothing, and dismisses the rest.
   */
  const answerWith = (button: string | ((s: Shown) => string | undefined)) =>
    ui.setAnswer((s) =>
      s.modal
        ? typeof button === 'string'
          ? button
          : button(s)
        : s.kind === 'input'
          ? (/^Type the agent name "(.+)"/.exec(s.message)?.[1] ?? '')
          : undefined,
    );
  const publish = (arg: unknown) =>
    vscode.commands.executeCommand<ActionResult>('agentWorkbench.publish', arg, { deploymentMessage: '' });

  suiteSetup(async () => {
    api = await activateExtension();
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    admin = new LocalAdmin(urls.admin);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
    ui = scriptedPrompts(api);
    const created = await agentsApi<{ agentId: string }>('POST', '/v1/agents', {
      name: 'Billing Bot',
      description: 'Answers billing questions',
    });
    agentId = created.body.agentId;
    const mainId = (
      await agentsApi<{ branches: Array<{ branchId: string; name: string }> }>('GET', `/v1/agents/${agentId}/branches`)
    ).body.branches.find((b) => b.name === 'main')!.branchId;
    await agentsApi('PATCH', `/v1/agents/${agentId}/branches/${mainId}/behavior`, {
      behavior: 'You are the billing assistant.',
    });
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
    ui.dispose();
  });

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('publishing names main and what sandbox serves; the result names its test runs, where their results are, and copies them', async () => {
    ui.setAnswer((s) =>
      s.modal
        ? 'Publish'
        : s.kind === 'input'
          ? ''
          : s.items.includes('Copy Test Run Ids')
            ? 'Copy Test Run Ids'
            : undefined,
    );
    const result = await publish({ agentId });
    const question = modal();
    assert.equal(question.message, 'Publish the main branch of Billing Bot to sandbox?');
    assert.match(question.detail, /Main becomes the first version in sandbox/);
    assert.equal(result?.deployment.environment, 'sandbox');
    const report = ui.shown.find((s) => /^Published main: Billing Bot now serves version/.test(s.message));
    // The local platform has no studio: the report says where this editor checks the version instead.
    assert.match(
      report?.message ?? '',
      /It triggered test run tr_\w+\. The local platform runs no tests behind these ids: .*conversation tests in the Testing view, or with Open Chat\./,
    );
    assert.doesNotMatch(report?.message ?? '', /studio/);
    const copied = await until('the copy confirmed', () => ui.shown.find((s) => /copied/.test(s.message)));
    assert.match(copied.message, /^Test run id tr_\w+ copied\./);
    assert.equal(await vscode.env.clipboard.readText(), result.testRunIds.join('\n'));
  });

  test('publishing main unchanged since the version sandbox serves, or with an empty behavior, warns first', async () => {
    const publishedBefore = await deploymentCount('sandbox');
    await publish({ agentId });
    assert.match(modal().detail, /Warning: main has not changed since version \d+; publishing makes a version/);
    assert.deepEqual(modal().items, ['Publish Anyway']);
    assert.equal(await deploymentCount('sandbox'), publishedBefore, 'dismissed: nothing published');
    const mainId = await branchId('main');
    await agentsApi('PATCH', `/v1/agents/${agentId}/branches/${mainId}/behavior`, { behavior: '' });
    ui.shown.length = 0;
    await publish({ agentId });
    assert.match(modal().detail, /Warning: the behavior of main is empty, so the agent has no instructions/);
    await agentsApi('PATCH', `/v1/agents/${agentId}/branches/${mainId}/behavior`, {
      behavior: 'You are the billing assistant, brief.',
    });
  });

  test('publishing from a branch says main is published and can merge the branch into main first', async () => {
    const created = await agentsApi<{ branchId?: string }>('POST', `/v1/agents/${agentId}/branches`, {
      name: 'feature/refunds',
    });
    const featureId = created.body.branchId ?? (await branchId('feature/refunds'));
    await agentsApi('PATCH', `/v1/agents/${agentId}/branches/${featureId}/behavior`, {
      behavior: 'You are the billing assistant. Refunds take five days.',
    });
    answerWith('Merge feature/refunds into main, then Publish');
    const result = await publish({ agentId, branchId: featureId });
    const question = modal();
    assert.match(question.detail, /^The platform publishes the main branch, not feature\/refunds/);
    assert.deepEqual(question.items, ['Publish main Only', 'Merge feature/refunds into main, then Publish']);
    assert.equal(result?.deployment.environment, 'sandbox');
    const main = await agentsApi<{ behavior: string }>(
      'GET',
      `/v1/agents/${agentId}/branches/${await branchId('main')}/behavior`,
    );
    assert.equal(main.body.behavior, 'You are the billing assistant. Refunds take five days.', 'merged before');
  });

  test('promoting says what the target serves now, and when it already serves that version', async () => {
    const sandbox = await active('sandbox');
    answerWith((s) => s.items[0]);
    const first = await vscode.commands.executeCommand<ActionResult>(
      'agentWorkbench.promote',
      { agentId, deploymentId: sandbox.id },
      { deploymentMessage: '' },
    );
    // AGENT-7: the target is named only once an earlier promotion from sandbox showed it; until then the name is asked.
    if (/ to pre-release\?$/.test(modal().message))
      assert.match(modal().detail, /^pre-release serves nothing yet\. .*pre-release will serve version/);
    else assert.match(modal().detail, /It may reach live.*type the agent name/);
    assert.equal(first?.deployment.environment, 'pre-release');
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
    await vscode.commands.executeCommand(
      'agentWorkbench.promote',
      { agentId, deploymentId: sandbox.id },
      { deploymentMessage: '' },
    );
    assert.match(modal().detail, new RegExp(`^pre-release already serves version ${sandbox.version}`));
  });

  test('the deployer is said in words: which API key, by the profile it was made with here, never the key', async () => {
    const agent = (await treeItems(api.agentsView)).find((i) => i.label === 'Billing Bot')!;
    const deployments = await child(api.agentsView, agent.node, 'Deployments');
    const envs = await treeItems(api.agentsView, deployments.node);
    const sandbox = envs.find((e) => e.label === 'sandbox')!;
    // Published from this editor with the Local profile's Agents key: the profile is named, the key never.
    assert.equal(sandbox.description.split(' · ')[1], 'key of profile "Local platform"');
    assert.match(
      String(sandbox.item.tooltip),
      /deployed by the API key "Agents API key" of profile "Local platform", from this editor/,
    );
    assert.doesNotMatch(String(sandbox.item.tooltip) + sandbox.description, new RegExp(LOCAL_KEYS.agents));
  });

  test('Select Environment is what Promote from the palette starts from', async () => {
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'pre-release');
    await vscode.commands.executeCommand('agentWorkbench.promote', { agentId }, { deploymentMessage: '' });
    assert.match(modal().message, /^Promote version \d+ of Billing Bot from pre-release( to live)?\?/);
    ui.shown.length = 0;
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
    await vscode.commands.executeCommand('agentWorkbench.promote', { agentId }, { deploymentMessage: '' });
    assert.match(modal().message, /from sandbox to pre-release\?$/);
  });

  test('the number import offers first the environment the agent is deployed to, saying what each serves', async () => {
    // Billing Bot is in sandbox and pre-release, not live: with live selected, the furthest it reached leads.
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'live');
    await vscode.commands.executeCommand('agentWorkbench.importNumbers', { agentId }, { numbers: ['+14155550142'] });
    const pick = ui.shown.find((s) => s.kind === 'pick');
    assert.deepEqual(pick?.items, ['pre-release', 'sandbox', 'live']);
    assert.equal(pick?.message, 'Environment whose agent answers calls to these numbers');
  });

  async function branchId(name: string): Promise<string> {
    const list = await agentsApi<{ branches: Array<{ branchId: string; name: string }> }>(
      'GET',
      `/v1/agents/${agentId}/branches`,
    );
    return list.body.branches.find((b) => b.name === name)!.branchId;
  }

  async function deploymentCount(environment: string): Promise<number> {
    const list = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      `/v1/agents/${agentId}/deployments?environment=${environment}`,
    );
    return list.body.deployments.length;
  }

  async function active(environment: string): Promise<Deployment> {
    const list = await agentsApi<{ deployments: Deployment[] }>(
      'GET',
      `/v1/agents/${agentId}/deployments?environment=${environment}`,
    );
    return list.body.deployments.find((d) => d.active) ?? list.body.deployments[0]!;
  }
});
