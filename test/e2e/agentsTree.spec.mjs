// The Agents view populated from the local platform's demo data, as a person sees it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  chooseMenuItem,
  notification,
  openContextMenu,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
} from '../support/browser/workbench.mjs';

/** A row of the Agents tree by its label. */
function row(page, label) {
  return page
    .locator('.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
}

/** Expands a row unless it is expanded already, so a test does not depend on what the one before left open. */
async function expand(page, label) {
  const target = row(page, label);
  await target.waitFor();
  if ((await target.getAttribute('aria-expanded')) === 'false') await target.click();
  await page
    .locator('.sidebar .monaco-list-row[aria-expanded="true"]', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }),
    })
    .first()
    .waitFor();
}

describe('The Agents view with demo data', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-agents-tree' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('lists the demo agents once the local platform runs, and expands an agent into branches, deployments and numbers', async () => {
    const { page } = wb;
    await step(page, 'agents-tree', async () => {
      await showAgentWorkbench(page);
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      await notification(page, 'The local platform is running on').waitFor();
      await row(page, 'Support Desk').waitFor();
      const labels = await page.locator('.sidebar .monaco-list-row .label-name').allInnerTexts();
      assert.ok(labels.length >= 3, `the demo agents are listed: ${labels.join(', ')}`);
      await expand(page, 'Support Desk');
      await row(page, 'main').waitFor();
      await expand(page, 'Deployments');
      await row(page, 'live').waitFor();
      await expand(page, 'Telephony Numbers');
      await page.locator('.sidebar .monaco-list-row', { hasText: '+14155550123' }).first().waitFor();
      await expand(page, 'main');
      await expand(page, 'Knowledge');
      await row(page, 'Returns').waitFor();
      const text = await page.locator('.sidebar').innerText();
      assert.match(text, /sandbox/);
      assert.match(text, /pre-release/);
      assert.match(text, /v\d+ · /, 'environments show the version they serve');
      await screenshot(page, 'agents-tree', 'agents-tree.png');
    });
  });

  it('promoting from the context menu asks first, saying from which environment to which', async () => {
    const { page } = wb;
    await step(page, 'promote-confirmation', async () => {
      await expand(page, 'Support Desk');
      await expand(page, 'Deployments');
      await expand(page, 'sandbox');
      const version = page.locator('.sidebar .monaco-list-row', { hasText: /Version \d+.*active/ }).first();
      await version.waitFor();
      const items = await openContextMenu(page, version);
      assert.ok(
        items.includes('Promote Deployment') && items.includes('Roll Back Deployment') && items.includes('Copy Id'),
        `menu: ${items.join(', ')}`,
      );
      await chooseMenuItem(page, 'Promote Deployment');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      // AGENT-7: the target is named only once an earlier promotion from sandbox showed where it goes.
      assert.match(await dialog.innerText(), /Promote version \d+ of Support Desk from sandbox( to pre-release)?\?/);
      await screenshot(page, 'promote-confirmation', 'promote-confirmation.png');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  });

  it('opens the behavior of a branch as a read-only document', async () => {
    const { page } = wb;
    await step(page, 'behavior-document', async () => {
      await expand(page, 'Support Desk');
      await expand(page, 'main');
      await row(page, 'Behavior').click();
      await page.locator('.editor-group-container .tab', { hasText: /behavior — Support Desk \(main\)/ }).waitFor();
      await page.locator('.editor-instance .view-lines', { hasText: 'You are Sam' }).waitFor();
      await screenshot(page, 'behavior-document');
    });
  });
});
