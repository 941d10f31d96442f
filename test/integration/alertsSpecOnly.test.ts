import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeResult } from '../../src/client/probe';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { type AlertsNode, alertsRoots, group, groupChildren, rows } from '../support/editor/alertsView';
import type { ScriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { validRule } from '../support/alerts';
import { type LocalPlatformUrls, treeItems, type WorkbenchExports } from '../support/editor/extension';
import type { LocalAdmin } from '../support/localAdmin';
import { editorSuite } from '../support/editor/suite';

type Rule = { id: string; name: string; enabled: boolean; threshold_value: number };
type Check = { firing: unknown[]; badge: string | undefined; unreadable?: string };

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/**
 * The Alerts view and its commands against a platform that has only the spec's endpoints (spec-only mode, set
 * here whatever mode the run uses): no rule or endpoint list, no read of one rule or endpoint, no rotate path.
 */
suite('Alerts view against a platform with only the spec endpoints', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let configured: string;
  const rule = validRule();
  const postRule = async (name: string) =>
    (
      await call<Rule>('POST', `${urls.build}/v1/alert-rules`, {
        headers: { 'x-api-key': LOCAL_KEYS.alerts },
        body: { ...rule, name },
      })
    ).body;

  const editor = editorSuite();
  suiteSetup(async () => {
    ({ api, urls, admin, ui } = editor);
    configured = (await admin.responses()).mode;
    await admin.setResponses('spec-only');
  });

  suiteTeardown(async () => {
    await admin.setResponses(configured as 'full');
  });

  setup(async () => {
    // What earlier tests kept here is taken off the view, so each test starts from none.
    for (const label of ['Alert Rules', 'Webhook Endpoints'])
      for (const r of await groupChildren(label))
        if (/^(alertRule|webhookEndpoint)/.test(String(r.item.contextValue)))
          await exec('removeFromAlertsView', r.node);
  });

  teardown(() => admin.clearFaults());

  test('[ALERT-8] a 405 on the rule list leaves the current alerts, the groups and their buttons; a rule created here is shown', async () => {
    const top = await alertsRoots();
    assert.deepEqual(
      top.map((r) => r.label),
      ['Current Alerts', 'Alert Rules', 'Webhook Endpoints'],
    );
    assert.equal(top[0]!.description, 'none firing');
    assert.deepEqual(
      (await rows(top[0]!.node.getChildren())).map((r) => r.label),
      ['Nothing is firing'],
    );
    assert.equal(top[1]!.item.contextValue, 'alertRules', 'the Create button of the group is there');
    const rulesRows = await rows(top[1]!.node.getChildren());
    assert.match(rulesRows[0]!.label, /does not list alert rules.*assumption: row "Other alert-rule operations/);
    assert.equal(rulesRows[1]!.label, 'Add Alert Rule by Id…');
    assert.equal(rulesRows[1]!.item.command?.command, 'agentWorkbench.addAlertRuleById');
    const endpointRows = await rows(top[2]!.node.getChildren());
    assert.equal(endpointRows[1]!.label, 'Add Webhook Endpoint by Id…');

    const created = await exec<Rule>('createAlertRule', { ...rule, name: 'Made here' });
    assert.ok(created?.id, ui.lastError());
    const shown = await groupChildren('Alert Rules');
    const row = shown.find((r) => r.label === 'Made here');
    assert.ok(row, shown.map((r) => r.label).join(', '));
    assert.match(String(row.item.contextValue), /^alertRule\.enabled\.ok$/);
    assert.equal((await group('Alert Rules')).description, '1 known here');
  });

  test('[ALERT-8] enable, disable and edit by a typed rule id send a flat PATCH and read nothing first', async () => {
    const made = await postRule('Made in the studio');
    assert.equal(await exec('addAlertRuleById', made.id), made.id);
    const typed = (await groupChildren('Alert Rules')).find((r) => r.label === made.id);
    assert.ok(typed, 'the typed rule is in the view');
    assert.equal(typed.item.contextValue, 'alertRule.typed');
    await admin.clearRequests();
    assert.equal((await exec<Rule>('disableAlertRule', typed.node))?.enabled, false, ui.lastError());
    const saved = await exec<Rule>('editAlertRule', made.id, { threshold_value: 1500 });
    assert.equal(saved?.threshold_value, 1500, ui.lastError());
    const sent = (await admin.requests()).filter((r) => r.path.startsWith('/v1/alert-rules'));
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      [`PATCH /v1/alert-rules/${made.id}`, `PATCH /v1/alert-rules/${made.id}`],
    );
    // The answer of the save is what the view shows now.
    const row = (await groupChildren('Alert Rules')).find((r) => r.label === 'Made in the studio');
    assert.ok(row);
    assert.match(row.description, /^disabled · /);
  });

  test('current alerts that cannot be read are their own state in the badge and the view, never all clear', async () => {
    await admin.addFault({ family: 'build', method: 'GET', path: '/v1/alerts', replyBody: { odd: 'shape' } });
    const check = await exec<Check>('checkAlerts');
    assert.ok(check?.unreadable, 'the check says the current alerts were not read');
    assert.equal(check.badge, '$(bell-slash) ?');
    const [current] = await alertsRoots();
    assert.equal(current!.label, 'Current Alerts');
    assert.match(current!.description, /could not be read: not known whether any rule fires/);
    assert.notEqual(current!.description, 'none firing');
    await admin.clearFaults();
    const fine = await exec<Check>('checkAlerts');
    assert.equal(fine?.unreadable, undefined);
    assert.equal(fine?.badge, undefined);
  });

  test('[HOOK-3] a 404 on an assumed endpoint naming one item says either it does not exist or the endpoint is missing, with the row and the way round', async () => {
    assert.equal(await exec('addWebhookEndpointById', 'we_studio1'), 'we_studio1');
    ui.setAnswer((s) => (s.modal && /^Rotate/.test(s.message) ? 'Rotate' : undefined));
    assert.equal(await exec('rotateWebhookSecret', 'we_studio1'), undefined);
    const error = ui.lastError();
    assert.match(
      error,
      /either webhook endpoint we_studio1 does not exist or this platform has no such endpoint \(assumption: row "Rotate-signing-secret path: not shown", see docs\/api-assumptions\.md\)/,
    );
    assert.match(error, /Rotate the signing secret in the studio instead/);
    assert.doesNotMatch(error, /it was not found/);
  });

  test('[ALERT-8] a list the platform does not have is not asked again as the alerts are checked, only on a Refresh', async () => {
    await groupChildren('Webhook Endpoints');
    await admin.clearRequests();
    const lists = async () =>
      (await admin.requests()).filter(
        (r) => r.method === 'GET' && (r.path === '/v1/alert-rules' || r.path === '/v1/webhook-endpoints'),
      ).length;
    // Each check of the current alerts redraws the view, which VS Code reads again as it is shown.
    for (let i = 0; i < 3; i++) {
      assert.equal((await exec<Check>('checkAlerts'))?.unreadable, undefined);
      const top = await treeItems(api.testing!.alertsView);
      for (const g of top) await treeItems(api.testing!.alertsView, g.node);
    }
    assert.equal((await admin.requests()).filter((r) => r.path === '/v1/alerts').length, 3, 'the alerts are read');
    assert.equal(await lists(), 0, 'the rule and endpoint lists (405 and 404 before) are not asked again');
    const shown = await treeItems(api.testing!.alertsView);
    const ruleRows = await rows((shown[1]!.node as AlertsNode).getChildren());
    assert.match(ruleRows[0]?.label ?? '', /does not list alert rules/, 'the view still says why');
    await alertsRoots();
    assert.equal(await lists(), 1, 'a Refresh asks the rule list again');
  });

  test('[ALERT-11] a 502 after Create Alert Rule says it may have been done, and offers no Retry', async () => {
    await admin.addFault({ family: 'build', method: 'POST', path: '/v1/alert-rules', status: 502, times: 1 });
    await admin.clearRequests();
    assert.equal(await exec('createAlertRule', { ...rule, name: 'Maybe made' }), undefined);
    const error = ui.shown.find((s) => s.kind === 'error')!;
    assert.match(error.message, /It may have been done: check before trying again\./);
    assert.ok(!error.items.includes('Retry'), error.items.join(', '));
    const posts = (await admin.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/alert-rules');
    assert.equal(posts.length, 1, 'sent once');
  });

  test('[AUTH-1] Test Connection reports the Agents and Alerts APIs working through reads the spec shows', async () => {
    const results = await exec<ProbeResult[]>('testConnection', 'local');
    const by = Object.fromEntries((results ?? []).map((r) => [r.family, r]));
    assert.equal(by.agents?.outcome, 'works', by.agents?.detail);
    assert.equal(by.alerts?.outcome, 'works', by.alerts?.detail);
  });
});
