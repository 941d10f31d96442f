import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { type ScriptedPrompts, scriptedPrompts } from './prompts';
import { activateExtension, http, type LocalPlatformUrls } from './support';

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
const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/** The webhook receiver and the alerts watcher against the local platform's evaluator and webhook sender. */
suite('Webhook receiver and alerts watcher', () => {
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    const api = await activateExtension();
    urls = (await exec<LocalPlatformUrls>('startLocalPlatform'))!;
    await exec('switchProfile', 'local');
    ui = scriptedPrompts(api);
    await http('POST', `${urls.admin}/reset`, { body: { seed: 'base' } });
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

    await http('POST', `${urls.runtime}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat/create`, {
      headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      body: {},
    });
    await http('POST', `${urls.build}/v1/alert-rules`, {
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
    await http('POST', `${urls.admin}/alerts/evaluate`, { body: {} });

    let listed: Listed = [];
    for (const deadline = Date.now() + 10_000; listed.length === 0 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await exec<Listed>('refreshWebhookDeliveries'))!;
    }
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
    for (const deadline = Date.now() + 5_000; listed.length < 2 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await exec<Listed>('refreshWebhookDeliveries'))!;
    }
    assert.equal(listed[0]!.delivery.ruleName, 'No call');
    assert.equal(listed[0]!.delivery.verdict.verified, false);
    assert.match(String(listed[0]!.item.description), /^unverified \(assumed scheme\)/);

    await exec('stopWebhookReceiver');
    await assert.rejects(fetch(started.url, { method: 'POST', body: '{}' }));
  });
});
