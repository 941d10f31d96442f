// What a newcomer meets first in the sidebar: the welcome, then a filter that matches nothing, each with its buttons;
// then the path a newcomer takes: a profile without keys, its key set, an import with a refused number, a publish
// from a branch and a rollback, each state in a picture.
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

/** Types into the open quick input and accepts, once the title says which step it is. */
async function answer(page, text, titleText) {
  const widget = page.locator('.quick-input-widget');
  if (titleText) await widget.locator('.quick-input-title', { hasText: titleText }).waitFor();
  await widget.locator('input.input').fill(text);
  await page.keyboard.press('Enter');
}

/** Chooses a row of the open quick pick by its label. */
async function choose(page, label) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.monaco-list-row', { hasText: label }).first().waitFor();
  await widget.locator('input.input').fill(label);
  await page.keyboard.press('Enter');
}

/** Waits (best effort, 10 s) until a finished progress toast has left, so the picture shows the outcome. */
const gone = (toast) =>
  toast
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});

/** The tree row with this label in the side bar. */
const row = (page, label) =>
  page.locator('.sidebar .monaco-list-row', {
    has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }),
  });

describe('First use of the sidebar', { timeout: 420_000 }, () => {
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
  it('walks the first-use path: a profile without keys, its key, a refused number, a publish from a branch, a rollback', async () => {
    const { page } = wb;
    let origin;
    await step(page, 'first-use-profile-without-keys', async () => {
      // The side bar shows Agent Workbench since the test before (clicking its icon again would hide it).
      await page
        .locator('.sidebar .pane-header', { hasText: /^Agents/i })
        .first()
        .waitFor();
      // The toasts of the test before name the platform it stopped: clear them first.
      await runCommand(page, 'Notifications: Clear All Notifications');
      await notification(page, 'The local platform is running on').first().waitFor({ state: 'detached' });
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      const running = notification(page, 'The local platform is running on').first();
      await running.waitFor();
      origin = /running on (http:\/\/[^\s]+?)\.?$/.exec((await running.innerText()).split('\n')[0].trim())?.[1];
      if (!origin) throw new Error('the notification names the local platform address');
      await runCommand(page, 'Agent Workbench: Add Connection Profile');
      await answer(page, 'No keys yet', 'Add Connection Profile (1/7)');
      await answer(page, 'ACCOUNT-a1b2c3d', '(2/7)');
      await answer(page, 'PROJECT-5a7e1c0d', '(3/7)');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: '(4/7)' }).waitFor();
      await choose(page, 'Custom addresses');
      await answer(page, `${origin}/runtime`, '(5/7)');
      await answer(page, `${origin}/build`, '(6/7)');
      await answer(page, `${origin}/messaging`, '(7/7)');
      const added = notification(page, 'Profile "No keys yet" added');
      await added.waitFor();
      // Not in use until asked: the views still show the local platform.
      await row(page, 'Support Desk').first().waitFor();
      await added.getByRole('button', { name: 'Use It Now' }).click();
      const welcome = page.locator('.sidebar .welcome-view-content', { hasText: 'no Agents API key' });
      for (const name of ['Set Agents API Key', 'Switch Connection Profile', 'Test Connection', 'Show Log'])
        await welcome.getByRole('button', { name }).waitFor();
      await screenshot(page, 'first-use-profile-without-keys');
    });
    await step(page, 'first-use-key-set', async () => {
      await page
        .locator('.sidebar .welcome-view-content', { hasText: 'no Agents API key' })
        .getByRole('button', { name: 'Set Agents API Key' })
        .click();
      const password = page.locator('.quick-input-widget input[type="password"]');
      await password.waitFor();
      await password.fill('lp_agents_key');
      await page.keyboard.press('Enter');
      await notification(page, 'Agents API key of "No keys yet" saved').waitFor();
      await row(page, 'Support Desk').first().waitFor();
      await screenshot(page, 'first-use-key-set');
    });
    await step(page, 'first-use-import-refused', async () => {
      await runCommand(page, 'Agent Workbench: Import Phone Numbers');
      await choose(page, 'Support Desk');
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.quick-input-title', { hasText: '(1/2)' }).waitFor();
      // This editor sends numbers in E.164 form (an imported number cannot be removed through the API); what a
      // number in that form is worth is the platform's to judge.
      await widget.locator('input.input').fill('+14155550199, +1 415 555 0101, 0415 555 0101');
      await widget
        .locator('.quick-input-message', { hasText: 'This editor sends numbers in E.164 form: 04155550101' })
        .waitFor();
      await screenshot(page, 'first-use-import-refused');
      await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden' });
    });
    await step(page, 'first-use-publish-from-branch', async () => {
      await row(page, 'Bella Tavola Bookings').first().click();
      await row(page, 'christmas-menu').first().waitFor();
      const items = await openContextMenu(page, row(page, 'christmas-menu').first());
      if (!items.includes('Publish main to Sandbox')) throw new Error(`the branch menu offers Publish: ${items}`);
      await chooseMenuItem(page, 'Publish main to Sandbox');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByText('The platform publishes the main branch, not christmas-menu').waitFor();
      await dialog.getByRole('button', { name: 'Merge christmas-menu into main, then Publish' }).waitFor();
      await screenshot(page, 'first-use-publish-from-branch');
      await dialog.getByRole('button', { name: 'Publish main Only' }).click();
      await answer(page, 'Weekend hours', 'Publish Bella Tavola Bookings to sandbox');
      const published = notification(page, 'Published main: Bella Tavola Bookings now serves version');
      await published.waitFor();
      await published.getByRole('button', { name: 'Copy Test Run Ids' }).waitFor();
      await gone(notification(page, 'Publishing main of'));
      await screenshot(page, 'first-use-published');
    });
    await step(page, 'first-use-rollback', async () => {
      // Select Environment is sandbox: Roll Back from the palette starts there.
      await runCommand(page, 'Notifications: Clear All Notifications');
      await runCommand(page, 'Agent Workbench: Roll Back Deployment');
      await choose(page, 'Bella Tavola Bookings');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog
        .getByText(
          /sandbox serves version \d+ \(artifact [^)]+\) now\. After the rollback, sandbox serves the content of version/,
        )
        .waitFor();
      await screenshot(page, 'first-use-rollback-question');
      await dialog.getByRole('button', { name: 'Roll Back' }).click();
      await answer(page, 'Back to the previous hours', 'Roll back Bella Tavola Bookings in sandbox');
      await notification(page, /Rolled back in sandbox from version \d+/).waitFor();
      await gone(notification(page, 'Rolling back'));
      await screenshot(page, 'first-use-rolled-back');
      await runCommand(page, 'Agent Workbench: Stop Local Platform');
      await notification(
        page,
        /The local platform at .* stopped|The editor no longer uses the local platform/,
      ).waitFor();
    });
  });
});
