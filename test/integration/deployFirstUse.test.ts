import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { until } from '../support/until';
import type { ScriptedPrompts, Shown } from '../support/editor/prompts';
import { call } from '../support/http';
import {
  child,
  getExtension,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { editorSuite } from '../support/editor/suite';

type Deployment = { id: string; environment: string; version: string; active?: boolean; createdBy: string };
type ActionResult = { deployment: Deployment; testRunIds: string[] } | undefined;

/** What a newcomer meets when publishing, promoting and importing numbers: each question says what will happen. */
suite('First use: publishing, promoting and environments', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
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

  const editor = editorSuite({ reset: 'once' });
  suiteSetup(async () => {
    ({ api, urls, ui } = editor);
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
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
    // AGENT-7: where the platform lists deployments, the target is named with what it serves, and no name is asked
    // for a step to pre-release.
    assert.match(modal().message, / from sandbox to pre-release\?$/);
    assert.match(modal().detail, /^pre-release serves nothing yet\. .*pre-release will serve version/);
    assert.equal(
      ui.shown.some((s) => s.kind === 'input' && /^Type the agent name/.test(s.message)),
      false,
      'no name typed for a step that does not reach live',
    );
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

  test('the deployer is said in words, the same way under every profile: which API key by its label, never the key', async () => {
    const sandboxRow = async () => {
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
      const agent = (await treeItems(api.agentsView)).find((i) => i.label === 'Billing Bot')!;
      const deployments = await child(api.agentsView, agent.node, 'Deployments');
      return (await treeItems(api.agentsView, deployments.node)).find((e) => e.label === 'sandbox')!;
    };
    const underLocal = await sandboxRow();
    assert.equal(underLocal.description.split(' · ')[1], 'API key "Agents API key"');
    assert.match(String(underLocal.item.tooltip), /deployed by the API key "Agents API key" \(a key of the workspace/);
    assert.doesNotMatch(String(underLocal.item.tooltip) + underLocal.description, new RegExp(LOCAL_KEYS.agents));
    // Another profile of the same platform: the deployment reads the same.
    const other = await vscode.commands.executeCommand<{ id: string } | undefined>('agentWorkbench.addProfile', {
      name: 'Same platform',
      studioUrl: `https://studio.example.com/${LOCAL_ACCOUNT.id}/${LOCAL_PROJECT.id}/agents`,
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
      credentials: { agentsApiKey: LOCAL_KEYS.agents },
    });
    assert.ok(other, ui.lastError());
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', other.id);
    try {
      const underOther = await sandboxRow();
      assert.equal(underOther.description.split(' · ')[1], underLocal.description.split(' · ')[1]);
      assert.equal(String(underOther.item.tooltip), String(underLocal.item.tooltip));
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
      await vscode.commands.executeCommand('agentWorkbench.removeProfile', other.id);
    }
  });

  test('Promote is offered on an environment row that serves a deployment, and not on live', async () => {
    const agent = (await treeItems(api.agentsView)).find((i) => i.label === 'Billing Bot')!;
    const deployments = await child(api.agentsView, agent.node, 'Deployments');
    const envs = await treeItems(api.agentsView, deployments.node);
    const manifest = JSON.parse(fs.readFileSync(path.join(getExtension().extensionPath, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
    };
    const offered = (value: string) =>
      manifest.contributes.menus['view/item/context']!.some(
        (m) =>
          m.command === 'agentWorkbench.promote' &&
          [...(m.when ?? '').matchAll(/viewItem =~ \/(.+?)\/(?=\s|\)|$)/g)].some((r) => new RegExp(r[1]!).test(value)),
      );
    const row = (env: string) => envs.find((e) => e.label === env)!;
    assert.ok(offered(row('sandbox').item.contextValue ?? ''), 'on sandbox, which serves a version');
    assert.ok(offered(row('pre-release').item.contextValue ?? ''), 'on pre-release, which serves a version');
    assert.equal(offered(row('live').item.contextValue ?? ''), false, 'nothing is beyond live');
    // The row's command promotes what the environment serves.
    answerWith(() => undefined);
    await vscode.commands.executeCommand('agentWorkbench.promote', row('sandbox').node);
    assert.match(modal().message, /^Promote version \d+ of Billing Bot from sandbox to pre-release\?$/);
  });

  test('Select Environment is what Promote from the palette starts from', async () => {
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'pre-release');
    await vscode.commands.executeCommand('agentWorkbench.promote', { agentId }, { deploymentMessage: '' });
    // Live is the target, as the platform's lists say: the question names it and its detail asks for the name.
    assert.match(modal().message, /^Promote version \d+ of Billing Bot from pre-release to live\?/);
    assert.match(modal().detail, /Callers in live will reach .* type the agent name/);
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
