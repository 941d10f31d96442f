// Alerts that reach the editor, as a person sees them: the local platform's evaluator fires a rule, the webhook
// receiver gets the signed notification and marks it verified, the status bar shows the alerts badge and a
// notification says the rule triggered; a delivery whose body was changed on the way is marked unverified.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  notification,
  notificationShown,
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
} from '../support/browser/workbench.mjs';
import { LocalAdmin } from '../support/localAdmin.ts';

/** The pane of a view in the Agent Workbench container, by its title. */
function pane(page, title) {
  return page
    .locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: new RegExp(`^${title}`, 'i') }) })
    .first();
}

async function json(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('Alerts that reach the editor', { timeout: 300_000 }, () => {
  let wb;
  before(async () => {
    // The watcher reads the current alerts every 5 s (its shortest interval); the platform starts without demo alerts.
    wb = await openWorkbench({
      name: 'e2e-alert-receiver',
      settings: { 'agentWorkbench.alerts.pollIntervalSeconds': 5, 'agentWorkbench.localPlatform.seed': 'base' },
    });
  });
  after(async () => {
    await wb?.close();
  });

  it('a rule fires: a verified delivery, the status bar badge and a notification; a tampered delivery is unverified', async () => {
    const { page } = wb;
    await step(page, 'alert-receiver', async () => {
      await showAgentWorkbench(page);
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      const started = notification(page, 'The local platform is running on');
      await started.waitFor();
      const origin = (await started.innerText()).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      assert.ok(origin, 'the notification names the local platform');
      const admin = LocalAdmin.atOrigin(origin);
      const connection = await admin.connection();

      await runCommand(page, 'Agent Workbench: Start Webhook Receiver');
      const listening = notification(page, 'The webhook receiver listens at');
      await listening.waitFor();
      const receiverUrl = (await listening.innerText()).match(/http:\/\/127\.0\.0\.1:\d+\/alerts/)?.[0];
      assert.ok(receiverUrl, 'the notification names where the receiver listens');
      await listening.getByRole('button', { name: 'Register as Endpoint' }).click();
      await notification(page, 'is kept in secret storage for this connection profile').waitFor();

      // Someone talks to the agent, and a rule on the call volume is breached at the next evaluation.
      const { runtime, build } = connection.bases;
      await json('POST', `${origin}${runtime}/v1/${connection.accountId}/${connection.projectId}/chat/create`, {
        headers: { 'X-API-KEY': connection.keys.chat, 'X-TOKEN': connection.connectors.chatToken },
        body: {},
      });
      const rule = await json('POST', `${origin}${build}/v1/alert-rules`, {
        headers: { 'x-api-key': connection.keys.alerts },
        body: {
          name: 'Busy line',
          project_id: connection.projectId,
          metric: 'call_volume',
          operator: '>=',
          threshold_value: 1,
          window_duration: '5m',
        },
      });
      assert.equal(rule.status, 201, JSON.stringify(rule.body));
      const evaluated = await admin.evaluateAlerts();
      assert.equal(evaluated.changes[0]?.to, 'alert', JSON.stringify(evaluated));

      // The receiver lists the delivery, verified with the kept signing secret.
      const deliveries = pane(page, 'Webhook Deliveries');
      if ((await deliveries.locator('.pane-header[aria-expanded="false"]').count()) > 0)
        await deliveries.locator('.pane-header').click();
      // Listed as it arrives, then with its verdict once the signature is checked.
      const verified = deliveries
        .locator('.monaco-list-row', { hasText: 'Busy line' })
        .filter({ hasText: 'verified (assumed scheme)' });
      await verified.waitFor();
      assert.match(await verified.innerText(), /alerts\.triggered · Busy line[\s\S]*verified \(assumed scheme\)/);
      assert.doesNotMatch(await verified.innerText(), /unverified/);

      // The watcher's own reading (nobody asked) shows the badge and tells that the rule triggered.
      await notificationShown(page, 'Alert triggered: Busy line');
      const badge = page.locator('.statusbar-item[id$=".agentWorkbench.alerts"]', {
        has: page.locator('.codicon-bell-dot'),
      });
      await badge.waitFor();
      assert.equal((await badge.innerText()).trim(), '1', 'the badge counts one firing rule');
      assert.match(await badge.getAttribute('aria-label'), /Busy line/);
      await screenshot(page, 'alert-triggered');

      // The delivery as received, opened from the list: its headers, then a copy whose body was changed on the way.
      await verified.click();
      const editor = page.locator('.editor-instance .view-lines');
      await editor.getByText('webhook-signature').waitFor();
      const lines = (await editor.innerText()).split('\n').map((l) => l.replace(/\u00a0/g, ' '));
      const headers = Object.fromEntries(
        lines.flatMap((l) => {
          const m = /^\/\/ (webhook-[a-z]+): (.+)$/.exec(l.trim());
          return m ? [[m[1], m[2].trim()]] : [];
        }),
      );
      assert.deepEqual(Object.keys(headers).sort(), ['webhook-id', 'webhook-signature', 'webhook-timestamp']);
      const deliveriesSent = await admin.webhookDeliveries();
      const { payload } = deliveriesSent.find((d) => d.event_type === 'alerts.triggered');
      const sent = await fetch(receiverUrl, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ...payload, alert: { ...payload.alert, name: 'Quiet line' } }),
      });
      assert.equal(sent.status, 200);
      const tampered = deliveries
        .locator('.monaco-list-row', { hasText: 'Quiet line' })
        .filter({ hasText: 'verified (assumed scheme)' });
      await tampered.waitFor();
      assert.match(await tampered.innerText(), /alerts\.triggered · Quiet line[\s\S]*unverified \(assumed scheme\)/);
      await screenshot(page, 'alert-tampered-delivery');
    });
  });
});
