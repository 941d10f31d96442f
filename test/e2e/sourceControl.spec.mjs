// A checked-out agent in the Source Control view: local and remote changes listed, then a conflict
// settled in VS Code's merge editor. The teammate's edits go through the local platform's admin API.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
} from '../support/browser/workbench.mjs';
import { LocalAdmin } from '../support/localAdmin.ts';

describe('Source control of a checked-out agent', { timeout: 300_000 }, () => {
  let wb;
  let origin;
  let folder;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-source-control' });
  });
  after(async () => {
    await wb?.close();
  });

  /** A teammate's edit in the studio (the admin API refuses loudly: the step fails with its answer). */
  const teammate = (edit) => LocalAdmin.atOrigin(origin).editBranch('ag_support', 'br_support_main', edit);

  it('lists local and remote changes in the Source Control view, with the sync state in the status bar', async () => {
    const { page } = wb;
    await step(page, 'source-control-changes', async () => {
      await showAgentWorkbench(page);
      origin = await startLocalPlatform(page);
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Support Desk' }).first().waitFor();

      // Check Out from the palette: the agent, then the folder the editor suggests.
      await runCommand(page, 'Agent Workbench: Check Out');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Support Desk' }).first().click();
      const input = page.locator('.quick-input-widget input.input');
      await page.locator('.quick-input-widget', { hasText: 'The folder for the agent' }).waitFor();
      folder = await input.inputValue();
      await page.keyboard.press('Enter');
      // The status bar names the checked-out agent (the notification saying so may already have faded).
      await page.locator('.statusbar-item', { hasText: 'Support Desk (main)' }).waitFor();

      await writeFile(
        join(folder, 'behavior.md'),
        (await readFile(join(folder, 'behavior.md'), 'utf8')).replace('Be brief and friendly.', 'Be brief and warm.'),
      );
      await writeFile(
        join(folder, 'knowledge', 'gift-cards.md'),
        '---\nname: Gift cards\n---\n\nGift cards never expire.\n',
      );
      await teammate({ upsertTopics: [{ topicId: 'kt_delivery', name: 'Delivery', content: 'Delivery is free.' }] });

      // The item, not its icon: the badge of pending changes lies over the icon and takes the click.
      await page
        .locator('.activitybar li.action-item', { has: page.locator('a[aria-label^="Source Control"]') })
        .click();
      await runCommand(page, 'Agent Workbench: Refresh Status');
      const scm = page.locator('.scm-view');
      for (const group of ['Local Changes', 'Remote Changes'])
        await scm.locator('.monaco-list-row', { hasText: group }).first().waitFor();
      for (const file of ['behavior.md', 'gift-cards.md', 'delivery.md'])
        await scm.locator('.monaco-list-row', { hasText: file }).first().waitFor();
      await page.locator('.statusbar-item', { hasText: /Support Desk \(main\) ↓1 ↑2/ }).waitFor();
      await screenshot(page, 'source-control-changes', 'source-control.png');
    });
  });

  it('settles a conflict in the merge editor: base, yours and the platform side by side', async () => {
    const { page } = wb;
    await step(page, 'source-control-merge-editor', async () => {
      const behavior = await readFile(join(folder, 'behavior.md'), 'utf8');
      await teammate({ behavior: behavior.replace('Be brief and warm.', 'Be brief and cheerful.').trimEnd() });
      await runCommand(page, 'Agent Workbench: Pull');
      const warning = notification(page, 'cannot be combined');
      await warning.waitFor();
      await warning.getByRole('button', { name: 'Open File Merge' }).click();
      const merge = page.locator('.merge-editor');
      await merge.first().waitFor();
      for (const side of ['Yours', 'Platform']) await merge.getByText(side, { exact: true }).first().waitFor();
      await page.locator('.scm-view .monaco-list-row', { hasText: 'Conflicts' }).first().waitFor();
      // While the merge is open the file holds the conflict in VS Code's markers, which the merge editor counts.
      assert.match(
        await readFile(join(folder, 'behavior.md'), 'utf8'),
        /<<<<<<< Yours[\s\S]*=======[\s\S]*>>>>>>> Platform/,
      );
      await screenshot(page, 'source-control-merge-editor', 'merge-editor.png');
    });
  });
});
