import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { type ScriptedPrompts, scriptedPrompts, type Shown } from '../support/editor/prompts';
import { call } from '../support/http';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

type Listed = Array<{
  delivery: {
    body: string;
    headers: Record<string, string>;
    eventType?: string;
    ruleName?: string;
    verdict: { verified: boolean };
  };
  item: vscode.TreeItem;
}>;
type Check =
  { firing: Array<{ name: string }>; triggered: string[]; resolved: string[]; badge: string | undefined } | undefined;
const POLL_SETTING = 'agentWorkbench.alerts.pollIntervalSeconds';
const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/** The webhook receiver and the alerts watcher against the local platform's evaluator and webhook sender. */
suite('Webhook receiver and alerts watcher', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    const api = await activateExtension();
    urls = (await exec<LocalPlatformUrls>('startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await exec('switchProfile', 'local');
    ui = scriptedPrompts(api);
    await admin.reset();
  });

  suiteTeardown(async () => {
    await exec('stopWebhookReceiver');
    ui.dispose();
  });

  test('a rule that fires reaches the editor: a signed delivery marked verified, the badge and a notification; a tampered one is unverified', async () => {
    ui.setAnswer((s) =>
      s.kind === 'info' && s.items.includes('Register as Endpoint') ? 'Register as Endpoint' : undefined,
    );
    const started = await exec<{ url: string; endpoint?: { id: string } }>('startWebhookReceiver');
    assert.ok(started?.endpoint, ui.lastError());
    assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+\/alerts$/);
    assert.equal((await exec<Check>('checkAlerts'))?.badge, undefined);

    await call('POST', `${urls.runtime}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat/create`, {
      headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      body: {},
    });
    await call('POST', `${urls.build}/v1/alert-rules`, {
      headers: { 'x-api-key': LOCAL_KEYS.alerts },
      body: {
        name: 'Any call',
        project_id: LOCAL_PROJECT.id,
        metric: 'call_volume',
        operator: '>=',
        threshold_value: 1,
        window_duration: '5m',
      },
    });
    await admin.evaluateAlerts();

    /** The listed deliveries once `ok` holds of them (or after `ms`, for the assertions to say what was listed). */
    const listedWhen = async (ok: (l: Listed) => boolean, ms = 10_000): Promise<Listed> => {
      const list = async () => (await exec<Listed>('refreshWebhookDeliveries')) ?? [];
      return until(
        'the deliveries listed',
        async () => {
          const l = await list();
          return ok(l) && l;
        },
        { timeoutMs: ms, intervalMs: 50 },
      ).catch(() => list());
    };
    const checked = (d: Listed[number] | undefined) => d !== undefined && !/^checking/.test(String(d.item.description));
    let listed = await listedWhen((l) => checked(l[0]));
    const first = listed[0]!;
    assert.equal(first.delivery.eventType, 'alerts.triggered');
    assert.equal(first.delivery.ruleName, 'Any call');
    assert.ok(first.delivery.verdict.verified);
    assert.match(String(first.item.description), /^verified \(assumed scheme\)/);
    assert.equal(first.item.contextValue, 'webhookDelivery.verified');

    const check = await exec<Check>('checkAlerts');
    assert.deepEqual(
      check?.firing.map((f) => f.name),
      ['Any call'],
    );
    assert.equal(check?.badge, '$(bell-dot) 1');

    const tampered = first.delivery.body.replace('"Any call"', '"No call"');
    const headers = Object.fromEntries(
      Object.entries(first.delivery.headers).filter(([k]) => k.startsWith('webhook-')),
    );
    await fetch(started.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: tampered,
    });
    listed = await listedWhen((l) => l.length === 2 && checked(l[0]), 5_000);
    assert.equal(listed[0]!.delivery.ruleName, 'No call');
    assert.equal(listed[0]!.delivery.verdict.verified, false);
    assert.match(String(listed[0]!.item.description), /^unverified \(assumed scheme\)/);

    // Opened, a delivery is a read-only document (not an untitled one that asks to be saved when closed).
    const doc = await exec<vscode.TextDocument>('openWebhookDelivery', listed[0]!.delivery);
    assert.ok(doc, ui.lastError());
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.uri.scheme, 'agent-workbench-delivery');
    assert.equal(doc.languageId, 'jsonc');
    assert.match(doc.getText(), /^\/\/ unverified/);
    assert.ok(doc.getText().includes('"No call"'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(
      !vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === doc.uri.toString()),
      ),
      'closed without a question',
    );

    // A delivery is listed as it arrives, while its signature is checked: here the platform takes 3 s to list
    // its webhook endpoints.
    await admin.addFault({ family: 'build', method: 'GET', path: 'webhook-endpoints', delayMs: 3_000, times: 1 });
    try {
      const sent = Date.now();
      await fetch(started.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: first.delivery.body,
      });
      listed = await listedWhen((l) => l.length === 3, 2_000);
      assert.equal(listed.length, 3, 'listed while its signature is checked');
      assert.ok(Date.now() - sent < 2_500, 'listed before the platform answered');
      assert.match(String(listed[0]!.item.description), /^checking the signature…/);
      listed = await listedWhen((l) => checked(l[0]));
      assert.ok(listed[0]!.delivery.verdict.verified, 'then verified');
      assert.match(String(listed[0]!.item.description), /^verified \(assumed scheme\)/);
    } finally {
      await admin.clearFaults();
    }

    await exec('stopWebhookReceiver');
    await assert.rejects(fetch(started.url, { method: 'POST', body: '{}' }));
  });

  test('with a reading interval set, the watcher reads the alerts by itself: a notification when a rule starts firing and one when it stops', async function () {
    this.timeout(120_000);
    await admin.reset();
    // Where the watcher starts from: nothing firing (a reading tells only what changed since the one before).
    assert.deepEqual((await exec<Check>('checkAlerts'))?.firing, []);
    ui.setAnswer(() => undefined);
    ui.shown.length = 0;
    const settings = vscode.workspace.getConfiguration();
    const kept = settings.inspect<number>(POLL_SETTING)?.globalValue;
    await settings.update(POLL_SETTING, 5, vscode.ConfigurationTarget.Global);
    try {
      const rule = await fireRule('Busy line');
      const triggered = await shownWithin(
        'the "triggered" notification',
        (s) => s.kind === 'warning' && s.message.startsWith('Alert triggered: Busy line'),
      );
      assert.deepEqual(triggered.items, ['Show Alerts']);

      await call('PATCH', `${urls.build}/v1/alert-rules/${rule}`, {
        headers: { 'x-api-key': LOCAL_KEYS.alerts },
        body: { threshold_value: 1000 },
      });
      await admin.evaluateAlerts();
      await shownWithin(
        'the "resolved" notification',
        (s) => s.kind === 'info' && s.message === 'Alert resolved: Busy line.',
      );
      assert.equal(
        ui.shown.filter((s) => /^Alert (triggered|resolved)/.test(s.message)).length,
        2,
        'each change told once, however many readings saw it',
      );
    } finally {
      await settings.update(POLL_SETTING, kept, vscode.ConfigurationTarget.Global);
    }
  });

  /** A conversation, then a rule on the call volume that it breaches, evaluated now; resolves with the rule's id. */
  async function fireRule(name: string): Promise<string> {
    await call('POST', `${urls.runtime}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat/create`, {
      headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      body: {},
    });
    const created = await call<{ id: string }>('POST', `${urls.build}/v1/alert-rules`, {
      headers: { 'x-api-key': LOCAL_KEYS.alerts },
      body: {
        name,
        project_id: LOCAL_PROJECT.id,
        metric: 'call_volume',
        operator: '>=',
        threshold_value: 1,
        window_duration: '5m',
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await admin.evaluateAlerts();
    return created.body.id;
  }

  /** What the person is shown, waited for without asking: only the watcher's own readings can show it. */
  function shownWithin(what: string, match: (s: Shown) => boolean, timeoutMs = 30_000): Promise<Shown> {
    return until(`${what} shown`, () => ui.shown.find(match), {
      timeoutMs,
      intervalMs: 100,
      detail: () => `shown: ${JSON.stringify(ui.shown)}`,
    });
  }
});
