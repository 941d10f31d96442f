// The Alerts view, first with its welcome, then populated from the local platform's demo data, as a person sees it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  notification,
  openContextMenu,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  step,
} from '../support/browser/workbench.mjs';

/** A row of the sidebar's trees by its label. */
function row(page, label) {
  return page
    .locator('.sidebar .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }),
    })
    .first();
}

/** The pane of a view in the Agent Workbench container, by its title. */
function pane(page, title) {
  return page
    .locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: new RegExp(`^${title}`, 'i') }) })
    .first();
}

/** The labels of the context menu of a row (right click), then closes the menu. */
async function contextMenu(page, label) {
  const items = await openContextMenu(page, row(page, label));
  await page.keyboard.press('Escape');
  await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached' });
  return items;
}

describe('The Alerts view', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-alerts-view' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('sits below the Agents view and welcomes a person with no connection', async () => {
    const { page } = wb;
    await step(page, 'alerts-welcome', async () => {
      await page
        .locator('.activitybar li.action-item', { has: page.locator('a[aria-label^="Agent Workbench"]') })
        .click();
      const alerts = pane(page, 'Alerts');
      await alerts.locator('.welcome-view-content').getByText('Watch the metrics of your agents').waitFor();
      await alerts.getByRole('button', { name: 'Start Local Platform' }).waitFor();
      await screenshot(page, 'alerts-welcome');
    });
  });

  it('shows firing alerts, the rules with their state against the 10-rule limit, and the webhook endpoints of the demo', async () => {
    const { page } = wb;
    await step(page, 'alerts-view', async () => {
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      await notification(page, 'The local platform is running on').waitFor();
      // Give the Alerts view the room: collapse the Agents view above it.
      await pane(page, 'Agents')
        .locator('.pane-header')
        .click({ position: { x: 40, y: 10 } });
      await row(page, 'Current Alerts').waitFor();
      await row(page, 'Slow answers (p95)').waitFor();
      await row(page, 'Webhook Endpoints').click();
      await row(page, 'On-call pager (demo)').waitFor();
      const text = await pane(page, 'Alerts').innerText();
      assert.match(text, /6 of 10/, 'the rule count against the limit');
      assert.match(text, /\d firing/);
      assert.match(text, /ms \(> [\d,]+ ms\)/, 'latency against its threshold in milliseconds');
      assert.match(text, /account-wide/);
      assert.match(text, /disabled · /);
      assert.match(text, /alerts\.triggered, alerts\.resolved/);
      // Widen the side bar so the picture shows whole descriptions (value, threshold, window, scope).
      const edge = await page.locator('.part.sidebar').boundingBox();
      await page.mouse.move(edge.x + edge.width + 1, 400);
      await page.mouse.down();
      await page.mouse.move(edge.x + edge.width + 260, 400, { steps: 8 });
      await page.mouse.up();
      await screenshot(page, 'alerts-view', 'alerts-view.png');
    });
  });

  it("a rule's tooltip names its id and times; its menu fits its state", async () => {
    const { page } = wb;
    await step(page, 'alerts-menus', async () => {
      await row(page, 'Typical answer time (p50)').hover();
      const hover = page.locator('.monaco-hover', { hasText: 'Rule id' });
      await hover.waitFor();
      assert.match(await hover.innerText(), /Last evaluated/);
      await screenshot(page, 'alerts-tooltip');
      await page.keyboard.press('Escape');

      const enabled = await contextMenu(page, 'Typical answer time (p50)');
      for (const title of ['Edit Alert Rule', 'Disable Alert Rule', 'Delete Alert Rule', 'Copy Id'])
        assert.ok(enabled.includes(title), `${title} in ${enabled.join(', ')}`);
      assert.ok(!enabled.includes('Enable Alert Rule'));
      const disabled = await contextMenu(page, 'Call crashes');
      assert.ok(
        disabled.includes('Enable Alert Rule') && !disabled.includes('Disable Alert Rule'),
        disabled.join(', '),
      );
      const endpoint = await contextMenu(page, 'On-call pager (demo)');
      for (const title of ['Edit Webhook Endpoint', 'Rotate Signing Secret', 'Delete Webhook Endpoint', 'Copy Id'])
        assert.ok(endpoint.includes(title), `${title} in ${endpoint.join(', ')}`);
      assert.ok(!endpoint.includes('Forget Signing Secret'), 'no secret is kept for a demo endpoint');
    });
  });
  it('Create Alert Rule walks through the steps, checks the threshold as it is typed, and the new rule appears', async () => {
    const { page } = wb;
    await step(page, 'alerts-create', async () => {
      const input = page.locator('.quick-input-widget input.input');
      const widget = page.locator('.quick-input-widget');
      await runCommand(page, 'Agent Workbench: Create Alert Rule');
      await widget.getByText('Name of the alert rule').waitFor();
      await input.fill('Slow replies at night');
      await page.keyboard.press('Enter');
      await widget.locator('.monaco-list-row', { hasText: 'This project' }).waitFor();
      await page.keyboard.press('Enter');
      await widget.locator('.monaco-list-row', { hasText: 'Turn latency p95' }).waitFor();
      await input.fill('p95');
      await page.keyboard.press('Enter');
      await widget.locator('.monaco-list-row', { hasText: 'fire when the metric is above the threshold' }).waitFor();
      await page.keyboard.press('Enter');
      await widget.getByText(/Threshold for Turn latency p95, in milliseconds/).waitFor();
      await input.fill('-1');
      await widget.getByText(/whole number of 0 or more \(milliseconds\)/).waitFor();
      await screenshot(page, 'alerts-create-threshold');
      await page.keyboard.press('Enter');
      await widget.getByText(/whole number of 0 or more/).waitFor();
      await input.fill('3000');
      await page.keyboard.press('Enter');
      await widget.locator('.monaco-list-row', { hasText: '10 minutes' }).waitFor();
      await page.keyboard.press('Enter');
      // The review: the whole rule in words, created only from here.
      await widget.locator('.monaco-list-row', { hasText: 'Create Rule' }).waitFor();
      await widget.getByText(/Fires when Turn latency p95 is above 3,000 ms over 10 minutes/).waitFor();
      await screenshot(page, 'alerts-create-review');
      await page.keyboard.press('Enter');
      await notification(page, 'Alert rule "Slow replies at night" created').waitFor();
      await row(page, 'Slow replies at night').waitFor();
      assert.match(await pane(page, 'Alerts').innerText(), /7 of 10/);
    });
  });
});
