// The Agents view populated from the local platform's demo data, as a person sees it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { notification, openWorkbench, runCommand, screenshot, showAgentWorkbench, step } from './support.mjs';

/** A row of the Agents tree by its label. */
function row(page, label) {
  return page.locator('.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
}

describe('The Agents view with demo data', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-agents-tree' });
  });
  after(async () => {
    await wb?.close();
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
      await row(page, 'Support Desk').click();
      await row(page, 'main').waitFor();
      await row(page, 'Deployments').click();
      await row(page, 'live').waitFor();
      await row(page, 'Telephony Numbers').click();
      await page.locator('.sidebar .monaco-list-row', { hasText: '+14155550123' }).first().waitFor();
      await row(page, 'main').click();
      await row(page, 'Knowledge').click();
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
      await row(page, 'sandbox').click();
      const version = page.locator('.sidebar .monaco-list-row', { hasText: /Version \d+.*active/ }).first();
      await version.waitFor();
      await version.click({ button: 'right' });
      const menu = page.locator('.context-view .monaco-menu');
      await menu.waitFor();
      const items = (await menu.locator('.action-label').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
      assert.ok(items.includes('Promote Deployment') && items.includes('Roll Back Deployment') && items.includes('Copy Id'), `menu: ${items.join(', ')}`);
      await menu.locator('.action-label', { hasText: 'Promote Deployment' }).click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /Promote version \d+ of Support Desk from sandbox to pre-release\?/);
      await screenshot(page, 'promote-confirmation', 'promote-confirmation.png');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  });

  it('opens the behavior of a branch as a read-only document', async () => {
    const { page } = wb;
    await step(page, 'behavior-document', async () => {
      await row(page, 'Behavior').click();
      await page.locator('.editor-group-container .tab', { hasText: 'behavior.md' }).waitFor();
      await page.locator('.editor-instance .view-lines', { hasText: 'You are Sam' }).waitFor();
      await screenshot(page, 'behavior-document');
    });
  });
});
