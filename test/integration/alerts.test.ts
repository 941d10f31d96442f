import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { verifyWebhookSignature } from '../../src/contract/alerts';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { type AlertsNode, alertsRoots, group, groupChildren, rows, webhookHeaders } from '../support/editor/alertsView';
import { BACK, type ScriptedPrompts, typedThenBack } from '../support/editor/prompts';
import { call } from '../support/http';
import { validRule } from '../support/alerts';
import type { LocalPlatformUrls, WorkbenchExports } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { startReceiver } from '../support/webhookReceiver';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

type Rule = {
  id: string;
  name: string;
  project_id: string | null;
  metric: string;
  operator: string;
  threshold_value: number;
  window_duration: string;
  enabled: boolean;
  current_state: string;
  current_value: number | null;
  updated_at: string;
};
type Endpoint = { id: string; name: string; url: string; event_types: string[] };
type EndpointResult = { endpoint: Endpoint; secretStored: boolean } | undefined;

const STATE_ICON: Record<string, string> = {
  ok: 'pass',
  alert: 'bell-dot',
  no_data: 'circle-slash',
  unknown: 'question',
};
const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/** The Alerts view and the alert-rule and webhook-endpoint commands, against the local platform: the tree and the platform afterwards. */
suite('Alerts view and commands', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const secretsSeen: string[] = [];
  const alertsApi = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.alerts }, body });
  const platformRules = async () =>
    (await alertsApi<{ alert_rules: Rule[] }>('GET', '/v1/alert-rules')).body.alert_rules;
  const platformEndpoints = async () =>
    (await alertsApi<{ webhook_endpoints: Endpoint[] }>('GET', '/v1/webhook-endpoints')).body.webhook_endpoints;
  const reset = (seed: 'base' | 'demo') => admin.reset(seed);
  const rule = (over: Partial<Rule> = {}) => validRule(over);
  /** A chat conversation that starts now, so call_volume in the window is at least 1. */
  const converse = () =>
    call('POST', `${urls.runtime}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat/create`, {
      headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      body: {},
    });
  const evaluate = () => admin.evaluateAlerts();

  const editor = editorSuite();
  suiteSetup(() => ({ api, urls, admin, ui } = editor));

  test('shows firing alerts, rules with their state, value against threshold and unit, and endpoints with their events (demo data)', async () => {
    await reset('demo');
    const top = await alertsRoots();
    assert.deepEqual(
      top.map((r) => r.label),
      ['Current Alerts', 'Alert Rules', 'Webhook Endpoints'],
    );
    const onPlatform = await platformRules();
    const firing = onPlatform.filter((r) => r.enabled && r.current_state === 'alert');
    assert.ok(firing.length > 0, 'the demo has firing rules');
    assert.equal(top[1]!.description, `${onPlatform.length} of 10`);
    assert.equal(top[0]!.description, `${firing.length} firing`);
    assert.equal(top[0]!.item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    const ruleRows = await rows(top[1]!.node.getChildren());
    assert.deepEqual(
      ruleRows.map((r) => r.label),
      onPlatform.map((r) => r.name),
    );
    for (const [i, r] of onPlatform.entries()) {
      const shown = ruleRows[i]!;
      assert.equal(shown.icon, r.enabled ? STATE_ICON[r.current_state] : 'bell-slash', `icon of ${r.name}`);
      assert.equal(shown.description.startsWith('disabled'), !r.enabled, `disabled shown for ${r.name}`);
      assert.equal(
        /\d ms\)/.test(shown.description),
        r.metric.startsWith('turn_latency'),
        `unit of ${r.name}: ${shown.description}`,
      );
      assert.ok(shown.description.includes(`${r.operator} `), shown.description);
      assert.ok(shown.description.includes(r.window_duration));
      assert.ok(shown.description.endsWith(r.project_id ?? 'account-wide'), shown.description);
      assert.match(
        String(shown.item.contextValue),
        new RegExp(`^alertRule\\.${r.enabled ? 'enabled' : 'disabled'}\\.${r.current_state}$`),
      );
      assert.ok(
        shown.tooltip.includes(r.id) &&
          /Created/.test(shown.tooltip) &&
          /Updated/.test(shown.tooltip) &&
          /Last evaluated/.test(shown.tooltip),
        shown.tooltip,
      );
    }
    const accountWide = ruleRows.find((r) => r.label === 'API errors across the account')!;
    assert.match(accountWide.description, /account-wide$/);

    const current = await rows(top[0]!.node.getChildren());
    assert.deepEqual(current.map((r) => r.label).sort(), firing.map((r) => r.name).sort());
    assert.ok(
      current.every(
        (c) => c.item.contextValue === 'currentAlert' && /since/.test(c.description) && /Firing since/.test(c.tooltip),
      ),
    );

    const endpoints = await rows(top[2]!.node.getChildren());
    assert.deepEqual(
      endpoints.map((e) => [e.label, e.description]),
      (await platformEndpoints()).map((e) => [e.name, e.event_types.join(', ')]),
    );
    assert.ok(endpoints.every((e) => e.item.contextValue === 'webhookEndpoint' && /Endpoint id/.test(e.tooltip)));
  });

  test('copies the id of a rule, a firing alert and an endpoint', async () => {
    await reset('demo');
    const [firing] = await groupChildren('Current Alerts');
    const [firstRule] = await groupChildren('Alert Rules');
    const [endpoint] = await groupChildren('Webhook Endpoints');
    for (const r of [firstRule!, firing!, endpoint!]) {
      const id = await exec<string>('copyId', r.node);
      assert.ok(id && r.tooltip.includes(id), `${r.label}: ${id}`);
      assert.equal(await vscode.env.clipboard.readText(), id);
    }
  });

  test('creates a rule from plain arguments; the platform has it and the view counts 1 of 10', async () => {
    const created = await exec<Rule>('createAlertRule', {
      name: '  Busy line  ',
      metric: 'call_volume',
      operator: '>=',
      threshold_value: 40,
      window_duration: '60m',
    });
    assert.ok(created?.id);
    const [stored] = await platformRules();
    assert.deepEqual(
      { ...stored, id: undefined, updated_at: undefined },
      { ...created, id: undefined, updated_at: undefined },
    );
    assert.equal(stored!.name, 'Busy line', 'the name is trimmed');
    assert.equal(stored!.project_id, LOCAL_PROJECT.id, "the active profile's project by default");
    assert.equal((await group('Alert Rules')).description, '1 of 10');
    const [shown] = await groupChildren('Alert Rules');
    assert.equal(shown!.icon, 'pass', 'a new rule reports ok');
    assert.match(shown!.description, /^OK · no value yet \(>= 40\) · 60m · PROJECT-5a7e1c0d$/);
    const accountWide = await exec<Rule>('createAlertRule', {
      name: 'Crashes',
      project_id: null,
      metric: 'call_crashes',
      operator: '>',
      threshold_value: '0',
      window_duration: '5m',
      enabled: false,
    });
    assert.equal(accountWide?.project_id, null);
    assert.equal(accountWide?.enabled, false);
  });

  test('refuses bad rule input with a clear message and sends nothing', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [rule({ threshold_value: -1 }), /threshold is a whole number of 0 or more \(milliseconds\); "-1"/],
      [rule({ threshold_value: 1.5 }), /threshold is a whole number.*"1\.5"/],
      [
        rule({ metric: 'api_errors', threshold_value: 'ten' as unknown as number }),
        /whole number of 0 or more \(a count within the window\); "ten"/,
      ],
      [rule({ name: 'x'.repeat(129) }), /1 to 128 characters \(now 129\)/],
      [rule({ name: '   ' }), /1 to 128 characters \(now 0\)/],
      [
        rule({ metric: 'cpu' }),
        /The metric must be one of Turn latency p50 \(turn_latency_p50\), .*Call volume \(call_volume\) \(not "cpu"\)/,
      ],
      [rule({ operator: '=>' }), /The comparison must be one of >, <, >=, <=/],
      [
        rule({ window_duration: '15m' }),
        /The evaluation window must be one of 5 minutes \(5m\), 10 minutes \(10m\), 60 minutes \(60m\)/,
      ],
      [rule({ project_id: 'not a project!' }), /project id is a slug/],
      [
        rule({ project_id: 7 as unknown as string }),
        /The scope must be a project id, or null to watch the whole account/,
      ],
      [{ name: 'Half a rule' }, /needs a metric, comparison, threshold, window\. Nothing was sent/],
    ];
    for (const [args, message] of cases) {
      ui.shown.length = 0;
      assert.equal(await exec('createAlertRule', args), undefined, JSON.stringify(args));
      assert.match(ui.lastError(), message);
      assert.match(ui.lastError(), /Nothing was sent/);
    }
    assert.equal((await platformRules()).length, 0);
  });

  test('the 10-rule limit: refused before sending when the view knows, explained from the 409 otherwise', async () => {
    for (let i = 0; i < 9; i++)
      assert.equal((await alertsApi('POST', '/v1/alert-rules', rule({ name: `Rule ${i}` }))).status, 201);
    assert.equal((await group('Alert Rules')).description, '9 of 10');
    // Someone else adds the tenth: the view still counts nine, so the request goes out and the 409 is explained.
    await alertsApi('POST', '/v1/alert-rules', rule({ name: 'Rule 9' }));
    assert.equal(await exec('createAlertRule', rule({ name: 'Eleventh' })), undefined);
    assert.match(
      ui.lastError(),
      /already has 10 alert rules.*Delete a rule.*The platform said: Alert rule limit reached/,
    );
    // Now the view knows there are ten: nothing is sent.
    const full = await group('Alert Rules');
    assert.equal(full.description, '10 of 10');
    assert.equal(full.item.contextValue, 'alertRules.full');
    await admin.addFault({ family: 'build', method: 'POST', path: '/v1/alert-rules', status: 500, times: 1 });
    ui.shown.length = 0;
    assert.equal(await exec('createAlertRule', rule({ name: 'Eleventh' })), undefined);
    assert.match(ui.lastError(), /already has 10 alert rules.*Nothing was sent/);
    const faults = (await call<{ faults: Array<{ id: string }> }>('GET', `${urls.admin}/faults`)).body.faults;
    assert.equal(faults.length, 1, 'the fault on POST is still armed: no request was made');
    await admin.clearFaults();
    assert.equal((await platformRules()).length, 10);
  });

  test('a threshold edited after the last evaluation shows at once that the state is of the rule before; Check Alerts Now says when nothing changed', async () => {
    await converse();
    await alertsApi(
      'POST',
      '/v1/alert-rules',
      rule({ name: 'Busy', metric: 'call_volume', operator: '>=', threshold_value: 1000 }),
    );
    await evaluate();
    await exec('refreshAlerts');
    const [before] = await groupChildren('Alert Rules');
    const state = before!.description.split(' · ')[0]!;
    assert.doesNotMatch(state, /before the change/);
    await exec('editAlertRule', before!.node, { threshold_value: 1 });
    const [after] = await groupChildren('Alert Rules');
    assert.ok(
      after!.description.startsWith(`${state} before the change, not evaluated since · `),
      `the tree says at once that "${state}" was the state of the rule before the new threshold: ${after!.description}`,
    );

    ui.shown.length = 0;
    const checked = await exec<{ triggered: string[]; resolved: string[] }>('checkAlerts');
    assert.deepEqual([checked?.triggered, checked?.resolved], [[], []]);
    assert.ok(
      ui.shown.some((s) => s.kind === 'info' && /^Alerts checked: no change/.test(s.message)),
      `Check Alerts Now said something: ${JSON.stringify(ui.shown.map((s) => s.message))}`,
    );
  });

  test('edit sends only the changed fields: a change made elsewhere meanwhile survives; no change sends nothing', async () => {
    await alertsApi('POST', '/v1/alert-rules', rule());
    const [node] = await groupChildren('Alert Rules');
    const id = (node!.node as unknown as { rule: Rule }).rule.id;
    await alertsApi('PATCH', `/v1/alert-rules/${id}`, { window_duration: '60m' });
    const saved = await exec<Rule>('editAlertRule', node!.node, {
      name: 'Slow answers',
      threshold_value: 3000,
      operator: '>',
    });
    assert.equal(saved?.threshold_value, 3000);
    const [after] = await platformRules();
    assert.equal(
      after!.window_duration,
      '60m',
      "the window changed elsewhere was not overwritten by the view's stale copy",
    );
    assert.equal(after!.threshold_value, 3000);
    assert.match(ui.shown.find((s) => s.kind === 'info')!.message, /saved: threshold changed\.$/);

    ui.shown.length = 0;
    const same = await exec<Rule>(
      'editAlertRule',
      { ruleId: id },
      { threshold_value: 3000, metric: 'turn_latency_p95' },
    );
    assert.equal(same?.id, id);
    assert.match(ui.shown[0]!.message, /unchanged: nothing was sent/);
    assert.equal((await platformRules())[0]!.updated_at, after!.updated_at);

    assert.equal(await exec('editAlertRule', id, { threshold_value: -5 }), undefined);
    assert.match(ui.lastError(), /whole number of 0 or more \(milliseconds\).*Nothing was sent/);
    assert.equal((await platformRules())[0]!.threshold_value, 3000);
  });

  test('the rule wizard: 1,500 typed as shown, Back keeps what was typed, a review before create with a step counter that adds up', async () => {
    const answers: Array<[string, string]> = [
      ['input', 'Slow answers'],
      ['pick', 'This project'],
      ['pick', 'Turn latency p95'],
      ['pick', '>'],
      ['input', '1,500'],
      ['pick', BACK],
      ['input', typedThenBack('2,000')],
      ['pick', '>='],
      ['input', '2,000'],
      ['pick', '10 minutes'],
      ['pick', 'Fires when'],
      ['pick', '>'],
      ['input', '2,000'],
      ['pick', '$(check) Create Rule'],
    ];
    ui.setAnswer((s) => {
      if (s.kind !== 'input' && s.kind !== 'pick') return undefined;
      const [kind, answer] = answers.shift() ?? ['', ''];
      assert.equal(s.kind, kind, `${s.message} asked where ${kind} ${answer} was expected`);
      return answer;
    });
    const created = await exec<Rule>('createAlertRule');
    const steps = ui.shown.filter((s) => s.step);
    assert.deepEqual(
      steps.map((s) => `${s.step} ${s.value}`),
      [
        '1/8 ',
        '2/8 This project',
        '4/8 ',
        '5/8 >',
        '6/8 ',
        '7/8 10 minutes',
        '6/8 1,500',
        '5/8 >',
        '6/8 2,000',
        '7/8 10 minutes',
        '8/8 $(check) Create Rule',
        '5/8 >=',
        '6/8 2,000',
        '8/8 $(check) Create Rule',
      ],
      'Back shows the threshold as typed, and a change from the review returns to it',
    );
    assert.equal(answers.length, 0, 'every answer was asked for');
    assert.equal(created?.threshold_value, 2000);
    assert.ok(steps.every((s) => s.refused === undefined));
    const review = steps[10]!;
    assert.deepEqual(review.items, ['$(check) Create Rule', 'Name', 'Watches', 'Metric', 'Fires when', 'Window']);
    const [stored] = await platformRules();
    assert.deepEqual(
      [stored!.name, stored!.metric, stored!.operator, stored!.threshold_value, stored!.window_duration],
      ['Slow answers', 'turn_latency_p95', '>', 2000, '10m'],
    );
    assert.ok(
      !ui.shown.some((s) => /turn_latency|window_duration|threshold_value/.test(`${s.message} ${s.items.join(' ')}`)),
      'no API names in the flow',
    );

    // Edit: the project the rule names by its other name is listed once, as this project; no change sends nothing.
    ui.shown.length = 0;
    const labels: string[][] = [];
    ui.setAnswer((s) => {
      if (s.kind === 'pick' && s.step) labels.push(s.items);
      if (s.kind === 'pick' && s.step?.startsWith('8/')) return '$(check) Save Changes';
      if (s.step) return s.kind === 'input' ? s.value : s.value;
      return undefined;
    });
    const [node] = await groupChildren('Alert Rules');
    const same = await exec<Rule>('editAlertRule', node!.node);
    assert.equal(same?.updated_at, stored!.updated_at);
    assert.match(ui.shown.find((s) => s.kind === 'info')!.message, /unchanged: nothing was sent/);
    assert.deepEqual(labels[0], ['This project', 'Account-wide', 'Another project…'], 'the project once');
    // Numbered by place, out of a total that stays 8: the typed project step is skipped, not uncounted.
    assert.ok(ui.shown.some((s) => s.step === '8/8' && /Save the rule as shown/.test(s.message)));
  });

  test('a rule keeps showing its last value, with its time, while the platform has none', async () => {
    await converse();
    const { body: created } = await alertsApi<Rule>(
      'POST',
      '/v1/alert-rules',
      rule({ name: 'Any call', metric: 'call_volume', operator: '>=', threshold_value: 1 }),
    );
    await evaluate();
    const [firing] = await groupChildren('Alert Rules');
    assert.match(firing!.description, /^Firing · 1 \(>= 1\) · 5m · /);
    // Switched off and on: the platform has no value until the next evaluation.
    await alertsApi('PATCH', `/v1/alert-rules/${created.id}`, { enabled: false });
    await alertsApi('PATCH', `/v1/alert-rules/${created.id}`, { enabled: true });
    assert.equal((await platformRules())[0]!.current_value, null);
    const [after] = await groupChildren('Alert Rules');
    assert.match(after!.description, /^OK · last 1, [^(]+ \(>= 1\) · 5m · /);
    assert.doesNotMatch(after!.tooltip, /none yet/);
    assert.match(after!.tooltip, /the platform has no value for the current window; last 1 at/);
    // The details of the hover are rows of the tree too, for the keyboard.
    assert.equal(after!.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const details = await rows(after!.node.getChildren());
    assert.deepEqual(
      details.map((d) => d.label),
      ['Fires when', 'Current value', 'State', 'Scope', 'In this state since', 'Last evaluated', 'Rule id'],
    );
    assert.equal(details[0]!.description, 'Call volume is at or above 1 over 5 minutes');
    assert.match(details[1]!.description, /^the platform has no value for the current window; last 1 at /);
    assert.equal(details[6]!.description, created.id);
  });

  test('disable and enable, from a node and by id; the view shows a disabled rule switched off', async () => {
    const { body: created } = await alertsApi<Rule>('POST', '/v1/alert-rules', rule());
    const [node] = await groupChildren('Alert Rules');
    assert.equal((await exec<Rule>('disableAlertRule', node!.node))?.enabled, false);
    assert.equal((await platformRules())[0]!.enabled, false);
    const [off] = await groupChildren('Alert Rules');
    assert.equal(off!.icon, 'bell-slash');
    assert.match(off!.description, /^disabled · /);
    assert.match(String(off!.item.contextValue), /^alertRule\.disabled\./);
    assert.equal((await exec<Rule>('enableAlertRule', created.id))?.enabled, true);
    const [on] = await groupChildren('Alert Rules');
    assert.equal(on!.icon, 'pass');
    assert.equal((await platformRules())[0]!.enabled, true);
  });

  test('delete asks first: cancelling keeps the rule, confirming removes it', async () => {
    const { body: created } = await alertsApi<Rule>('POST', '/v1/alert-rules', rule({ name: 'Doomed' }));
    const [node] = await groupChildren('Alert Rules');
    assert.equal(await exec('deleteAlertRule', node!.node), false);
    const question = ui.shown.find((s) => s.modal)!;
    assert.match(question.message, /Delete alert rule "Doomed"\?/);
    assert.equal((await platformRules()).length, 1);
    ui.setAnswer((s) => (s.modal && /Delete alert rule/.test(s.message) ? 'Delete' : undefined));
    assert.equal(await exec('deleteAlertRule', node!.node), true);
    assert.equal((await alertsApi('GET', `/v1/alert-rules/${created.id}`)).status, 404);
    assert.equal((await group('Alert Rules')).description, '0 of 10');
  });

  test('creates a webhook endpoint: the secret once in a modal with Copy, kept in secret storage, and it checks a real signed delivery', async () => {
    const receiver = await startReceiver({ path: '/hooks/alerts' });
    try {
      ui.setAnswer((s) =>
        s.modal && /^Signing secret/.test(s.message) ? 'Copy and Keep in Secret Storage' : undefined,
      );
      const result = await exec<EndpointResult>('createWebhookEndpoint', {
        name: 'Pager',
        url: receiver.url,
        event_types: ['alerts.triggered'],
      });
      assert.ok(result?.secretStored);
      const modal = ui.shown.find((s) => s.modal && /^Signing secret of webhook endpoint "Pager"/.test(s.message))!;
      assert.deepEqual(modal.items, ['Copy and Keep in Secret Storage', 'Copy Only'], 'one choice: keep it or not');
      assert.equal(modal.close, 'Close Without Copying', 'no Cancel once the endpoint exists');
      assert.equal(ui.shown.filter((s) => s.modal).length, 1, 'one question');
      assert.match(
        ui.shown.find((s) => s.kind === 'info' && !s.modal)!.message,
        /^Signing secret copied\. It is also kept in secret storage for "Pager"/,
      );
      const secret = modal.detail.split('\n')[0]!;
      assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
      secretsSeen.push(secret);
      assert.equal(await vscode.env.clipboard.readText(), secret, 'Copy puts the secret on the clipboard');
      assert.ok(!JSON.stringify(result).includes(secret), 'the command does not hand the secret out');
      assert.deepEqual(
        (await platformEndpoints()).map((e) => [e.name, e.url, e.event_types]),
        [['Pager', receiver.url, ['alerts.triggered']]],
      );
      const [shown] = await groupChildren('Webhook Endpoints');
      assert.equal(shown!.item.contextValue, 'webhookEndpoint.secretStored');
      assert.equal(shown!.description, 'alerts.triggered');

      await converse();
      await alertsApi(
        'POST',
        '/v1/alert-rules',
        rule({ name: 'Any call', metric: 'call_volume', operator: '>=', threshold_value: 1 }),
      );
      await evaluate();
      const [delivery] = await receiver.waitFor(1, 10_000);
      const check = await exec<{ ok: boolean }>('verifyWebhookSignature', result.endpoint.id, {
        body: delivery!.body,
        headers: webhookHeaders(delivery!),
      });
      assert.deepEqual(check, { ok: true });
      assert.match(
        ui.shown.filter((m) => m.kind === 'info').at(-1)?.message ?? '',
        /^The signature is valid \(assumed scheme: Standard Webhooks\)/,
        'the verdict says the scheme it rests on',
      );
      const tampered = await exec<{ ok: boolean }>('verifyWebhookSignature', shown!.node, {
        body: delivery!.body.replace('Any call', 'Any calls'),
        headers: webhookHeaders(delivery!),
      });
      assert.equal(tampered?.ok, false);
      assert.match(
        ui.shown.filter((m) => m.kind === 'warning').at(-1)?.message ?? '',
        /^The signature does not check out for "Pager" \(assumed scheme: Standard Webhooks\)/,
      );
      const [current] = await groupChildren('Current Alerts');
      assert.equal(current!.label, 'Any call');
    } finally {
      await receiver.close();
    }
  });

  test('the endpoint wizard: no complaint before typing, warnings (not refusals) for a password in the address and plain http to another machine, Back keeps the name; Copy Only keeps nothing', async () => {
    const typed = ['Pager', BACK, 'Pager', 'https://ops:hunter2@example.com/hooks'];
    ui.setAnswer((s) => {
      if (s.kind === 'input') return typed.shift();
      if (s.kind === 'pick') return ['alerts.triggered'];
      return s.modal && /^Signing secret/.test(s.message) ? 'Copy Only' : undefined;
    });
    const result = await exec<EndpointResult>('createWebhookEndpoint');
    assert.equal(result?.secretStored, false);
    const steps = ui.shown.filter((s) => s.kind === 'input');
    assert.deepEqual(
      steps.map((s) => [s.step, s.value]),
      [
        ['1/3', ''],
        ['2/3', ''],
        ['1/3', 'Pager'],
        ['2/3', ''],
      ],
      'the address starts empty; Back keeps the name typed',
    );
    assert.ok(steps.every((s) => s.refused === undefined));
    assert.match(steps[3]!.note!, /user name or password/);
    assert.match(
      ui.shown.find((s) => s.kind === 'info' && !s.modal)!.message,
      /^Signing secret copied\. Paste it into the receiver of "Pager"/,
    );
    assert.deepEqual(
      (await platformEndpoints()).map((e) => e.url),
      ['https://ops:hunter2@example.com/hooks'],
    );
    secretsSeen.push(ui.shown.find((s) => /^Signing secret/.test(s.message))!.detail.split('\n')[0]!);
    const [row] = await groupChildren('Webhook Endpoints');
    assert.equal(row!.item.contextValue, 'webhookEndpoint', 'Copy Only keeps nothing here');

    for (const [url, warned] of [
      ['http://example.com/hooks', true],
      ['http://127.0.0.1:9/hooks', false],
    ] as const) {
      ui.shown.length = 0;
      const made = await exec<EndpointResult>('createWebhookEndpoint', {
        name: `Plain ${String(warned)}`,
        url,
        event_types: ['alerts.resolved'],
        storeSecret: true,
      });
      assert.ok(made?.secretStored, url);
      const warning = ui.shown.find((s) => s.kind === 'warning');
      if (warned) assert.match(warning!.message, /Plain http to example\.com: notifications travel unencrypted/);
      else assert.equal(warning, undefined, 'plain http on this machine is fine');
      secretsSeen.push(ui.shown.find((s) => /^Signing secret/.test(s.message))!.detail.split('\n')[0]!);
    }
  });

  test('refuses bad endpoint input with a clear message and sends nothing', async () => {
    const ok = { name: 'Hook', url: 'https://example.com/hooks', event_types: ['alerts.triggered'] };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...ok, url: ' ' }, /Give the address that receives the notifications/],
      [{ ...ok, name: '' }, /Give the webhook endpoint a name/],
      [{ ...ok, event_types: [] }, /Choose at least one event type/],
      [{ ...ok, event_types: [' '] }, /Name each event type, such as alerts.triggered, alerts.resolved/],
      [{ ...ok, showSecret: false }, /shown only once.*storeSecret: true/],
    ];
    for (const [args, message] of cases) {
      ui.shown.length = 0;
      assert.equal(await exec('createWebhookEndpoint', args), undefined, JSON.stringify(args));
      assert.match(ui.lastError(), message);
      assert.match(ui.lastError(), /Nothing was sent/);
      assert.ok(!ui.shown.some((s) => s.modal), 'no secret was shown');
    }
    assert.equal((await platformEndpoints()).length, 0);
  });

  test("[HOOK-1] sends an address or a name the spec sets no limit for, and shows the local platform's own refusal", async () => {
    const ok = { name: 'Hook', url: 'https://example.com/hooks', event_types: ['alerts.triggered'] };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { ...ok, url: 'ftp://example.com/hooks' },
        /url must be an http or https address for the local platform .*a rule of its own/,
      ],
      [{ ...ok, name: 'y'.repeat(129) }, /name the local platform takes at most 128 characters \(a limit of its own/],
    ];
    for (const [args, message] of cases) {
      ui.shown.length = 0;
      assert.equal(await exec('createWebhookEndpoint', args), undefined, JSON.stringify(args));
      assert.match(ui.lastError(), message);
      assert.ok(!ui.shown.some((s) => s.modal), 'no secret was shown');
    }
    assert.equal((await platformEndpoints()).length, 0);
  });

  test('rotate asks first, shows the new secret once and replaces the kept one; deliveries check with the new secret only', async () => {
    const receiver = await startReceiver({ path: '/hooks/alerts' });
    try {
      ui.setAnswer((s) => (s.modal && /^Signing secret/.test(s.message) ? 'Copy' : undefined));
      const created = await exec<EndpointResult>('createWebhookEndpoint', {
        name: 'Pager',
        url: receiver.url,
        event_types: ['alerts.triggered', 'alerts.resolved'],
        storeSecret: true,
      });
      const first = ui.shown.find((s) => /^Signing secret/.test(s.message))!.detail.split('\n')[0]!;
      secretsSeen.push(first);
      assert.deepEqual(
        ui.shown.find((s) => /^Signing secret/.test(s.message))!.items,
        ['Copy'],
        'storeSecret: true keeps it without asking',
      );
      const [node] = await groupChildren('Webhook Endpoints');

      ui.shown.length = 0;
      assert.equal(await exec('rotateWebhookSecret', node!.node), undefined, 'cancelled at the question');
      assert.match(ui.shown[0]!.message, /Rotate the signing secret of "Pager"\?/);
      assert.ok(ui.shown[0]!.modal);

      ui.shown.length = 0;
      ui.setAnswer((s) =>
        s.modal && /^Rotate/.test(s.message)
          ? 'Rotate'
          : s.modal && /^Signing secret/.test(s.message)
            ? 'Copy'
            : undefined,
      );
      const rotated = await exec<EndpointResult>('rotateWebhookSecret', node!.node);
      assert.equal(rotated?.secretStored, true, 'the kept secret is replaced');
      const second = ui.shown.find((s) => /^Signing secret/.test(s.message))!.detail.split('\n')[0]!;
      secretsSeen.push(second);
      assert.notEqual(second, first);
      const secondModal = ui.shown.find((s) => /^Signing secret/.test(s.message))!;
      assert.deepEqual(secondModal.items, ['Copy'], 'the kept secret is replaced without asking');
      assert.equal(secondModal.close, 'Done');
      assert.match(secondModal.detail, /replaces the secret kept in secret storage/);
      assert.ok(ui.shown.some((s) => /^Signing secret copied\. It also replaced the one kept/.test(s.message)));

      await converse();
      await alertsApi(
        'POST',
        '/v1/alert-rules',
        rule({ name: 'Any call', metric: 'call_volume', operator: '>=', threshold_value: 1 }),
      );
      await evaluate();
      const [delivery] = await receiver.waitFor(1, 10_000);
      const check = await exec<{ ok: boolean }>(
        'verifyWebhookSignature',
        { endpointId: created!.endpoint.id },
        { body: delivery!.body, headers: webhookHeaders(delivery!) },
      );
      assert.deepEqual(check, { ok: true });
      assert.equal(
        verifyWebhookSignature({ secret: first, body: delivery!.body, headers: webhookHeaders(delivery!) }).ok,
        false,
        'the old secret no longer checks',
      );
    } finally {
      await receiver.close();
    }
  });

  test('edit of an endpoint sends only the changes; delete asks first and forgets the kept secret', async () => {
    ui.setAnswer(() => undefined);
    const created = await exec<EndpointResult>('createWebhookEndpoint', {
      name: 'Log',
      url: 'http://127.0.0.1:9/a',
      event_types: ['alerts.resolved'],
      storeSecret: true,
    });
    secretsSeen.push(ui.shown.find((s) => /^Signing secret/.test(s.message))!.detail.split('\n')[0]!);
    const id = created!.endpoint.id;
    await alertsApi('PATCH', `/v1/webhook-endpoints/${id}`, { name: 'Renamed elsewhere' });
    const saved = await exec<Endpoint>('editWebhookEndpoint', { endpointId: id }, { url: 'https://example.com/b' });
    assert.equal(saved?.url, 'https://example.com/b');
    assert.deepEqual(
      (await platformEndpoints()).map((e) => [e.name, e.url]),
      [['Renamed elsewhere', 'https://example.com/b']],
    );
    assert.equal(await exec('editWebhookEndpoint', id, { url: 'mailto:ops@example.com' }), undefined);
    assert.match(ui.lastError(), /http or https address for the local platform .*a rule of its own/);

    const [node] = await groupChildren('Webhook Endpoints');
    assert.equal(await exec('deleteWebhookEndpoint', node!.node), false);
    assert.equal((await platformEndpoints()).length, 1);
    ui.setAnswer((s) => (s.modal && /^Delete webhook endpoint/.test(s.message) ? 'Delete' : undefined));
    assert.equal(await exec('deleteWebhookEndpoint', node!.node), true);
    assert.equal((await alertsApi('GET', `/v1/webhook-endpoints/${id}`)).status, 404);
    assert.deepEqual(
      (await groupChildren('Webhook Endpoints')).map((r) => r.label),
      ['No webhook endpoints yet'],
    );
  });

  test('refresh per node reloads its group; a failed load shows an error node whose click reloads it in this view', async () => {
    const top = await alertsRoots();
    const endpointsGroup = top[2]!.node;
    assert.deepEqual(
      (await rows(endpointsGroup.getChildren())).map((r) => r.label),
      ['No webhook endpoints yet'],
    );
    await alertsApi('POST', '/v1/webhook-endpoints', {
      name: 'Made elsewhere',
      url: 'https://example.com/x',
      event_types: ['alerts.resolved'],
    });
    assert.deepEqual(
      (await rows(endpointsGroup.getChildren())).map((r) => r.label),
      ['No webhook endpoints yet'],
      'children are cached until refreshed',
    );
    assert.deepEqual(
      (await rows(exec<AlertsNode[]>('refreshAlertsNode', endpointsGroup))).map((r) => r.label),
      ['Made elsewhere'],
    );

    await admin.addFault({ family: 'build', method: 'GET', path: '/v1/webhook-endpoints', status: 401, times: 1 });
    const [error] = await rows(exec<AlertsNode[]>('refreshAlertsNode', endpointsGroup));
    assert.match(error!.label, /^Could not load: List webhook endpoints failed/);
    assert.equal(error!.item.command?.command, 'agentWorkbench.refreshAlertsNode');
    const retried = await rows(
      exec<AlertsNode[]>(
        error!.item.command!.command.replace('agentWorkbench.', ''),
        ...(error!.item.command!.arguments ?? []),
      ),
    );
    assert.deepEqual(
      retried.map((r) => r.label),
      ['Made elsewhere'],
    );

    await alertsApi('POST', '/v1/alert-rules', rule({ name: 'Made elsewhere too' }));
    const rulesNow = await rows(exec<AlertsNode[]>('refreshAlertsNode', 'rules'));
    assert.deepEqual(
      rulesNow.map((r) => r.label),
      ['Made elsewhere too'],
    );
  });

  test('a failed load of the rules empties the view for its error welcome; Refresh recovers', async () => {
    await admin.addFault({ family: 'build', method: 'GET', path: '/v1/alert-rules', status: 502, times: 10 });
    assert.deepEqual(await alertsRoots(), []);
    await admin.clearFaults();
    assert.deepEqual(
      (await alertsRoots()).map((r) => r.label),
      ['Current Alerts', 'Alert Rules', 'Webhook Endpoints'],
    );
  });

  test("no signing secret reaches the extension's log", async () => {
    assert.ok(secretsSeen.length >= 3, 'the endpoint tests saw their secrets');
    const dir = dirname(api.logUri.fsPath);
    const files = (function walk(d: string): string[] {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
    })(dir).filter((f) => f.includes('Agent Workbench') || f.includes('agent-workbench'));
    // The log is written asynchronously: wait until the webhook requests of this suite are in it.
    const text = await until(
      'the rotation of a secret in the log',
      () => {
        const all = files.map((f) => readFileSync(f, 'utf8')).join('\n');
        return /rotate-secret/.test(all) && all;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // Each line names the host the request went to: "POST 127.0.0.1:port/build/v1/webhook-endpoints".
    assert.match(text, /POST \S*\/v1\/webhook-endpoints/);
    assert.match(text, /rotate-secret/);
    for (const secret of secretsSeen)
      assert.ok(!text.includes(secret), `a signing secret (${secret.slice(0, 8)}…) is in the log`);
  });

  test('without a profile the view is empty for its welcome, and a command says what to do', async () => {
    await exec('stopLocalPlatform');
    try {
      assert.deepEqual(await alertsRoots(), []);
      assert.equal(await exec('createAlertRule', rule()), undefined);
      assert.match(ui.lastError(), /Choose a connection profile first/);
    } finally {
      urls = (await exec<LocalPlatformUrls>('startLocalPlatform'))!;
      admin = new LocalAdmin(urls.admin);
      await exec('switchProfile', 'local');
    }
    assert.equal((await alertsRoots()).length, 3);
  });
});
