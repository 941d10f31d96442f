// What a newcomer meets first in the sidebar: the welcome, then a filter that matches nothing, each with its buttons.
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
} from './support.mjs';

describe('First use of the sidebar', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-first-use' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('welcomes with buttons named as the commands, and a filter matching nothing offers Clear Filter', async () => {
    const { page } = wb;
    await step(page, 'first-use-welcome', async () => {
      await showAgentWorkbench(page);
      const welcome = page.locator('.sidebar .welcome-view-content').first();
      await welcome.getByRole('button', { name: 'Connect to a Platform' }).waitFor();
      await welcome.getByRole('button', { name: 'Start Local Platform' }).waitFor();
      await screenshot(page, 'first-use-welcome');
    });
    await step(page, 'first-use-no-match', async () => {
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      await notification(page, 'The local platform is running on').waitFor();
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Support Desk' }).first().waitFor();
      await runCommand(page, 'Agent Workbench: Filter Agents');
      await page.locator('.quick-input-widget input.input').fill('zzz');
      await page.keyboard.press('Enter');
      const welcome = page.locator('.sidebar .welcome-view-content', { hasText: 'No agent' });
      await welcome.getByRole('button', { name: 'Clear Filter' }).waitFor();
      await screenshot(page, 'first-use-no-match');
      await welcome.getByRole('button', { name: 'Clear Filter' }).click();
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Support Desk' }).first().waitFor();
      await runCommand(page, 'Agent Workbench: Stop Local Platform');
    });
  });
});
