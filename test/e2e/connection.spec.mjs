// Adding a connection profile and a key through the quick inputs, as a person does it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  step,
} from '../support/browser/workbench.mjs';
import { TEST_KEYS } from '../support/secretsScan.ts';

/** Types into the open quick input and accepts, once the title says which step it is. */
async function answer(page, text, titleText) {
  const widget = page.locator('.quick-input-widget');
  if (titleText) await widget.locator('.quick-input-title', { hasText: titleText }).waitFor();
  const input = widget.locator('input.input');
  await input.fill(text);
  await page.keyboard.press('Enter');
}

describe('Connection profiles in the workbench', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-connection' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('adds a profile step by step (a studio address fills account and project) and keeps a key in a password field', async () => {
    const { page } = wb;
    await step(page, 'add-profile', async () => {
      await runCommand(page, 'Agent Workbench: Add Connection Profile');
      await answer(page, 'Acme staging', 'Add Connection Profile (1/7)');
      await answer(page, 'https://studio.example.com/acme/support-desk/agents', 'Add Connection Profile (2/7)');
      const widget = page.locator('.quick-input-widget');
      // The address held both ids, so the project step (3) is done: the counter goes on at 4 of the same 7.
      await widget.locator('.quick-input-title', { hasText: '(4/7)' }).waitFor();
      await widget.locator('.monaco-list-row', { hasText: 'United States' }).first().waitFor();
      await widget.locator('input.input').fill('United States');
      await page.keyboard.press('Enter');
      // The preset fills the runtime and build addresses; they stay editable.
      await page.waitForFunction(
        () =>
          document.querySelector('.quick-input-widget input.input')?.value === 'https://api.us-1.platform.polyai.app',
      );
      await widget.locator('.quick-input-title', { hasText: '(5/7)' }).waitFor();
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => document.querySelector('.quick-input-widget input.input')?.value === 'https://api.us.poly.ai',
      );
      await widget.locator('.quick-input-title', { hasText: '(6/7)' }).waitFor();
      await page.keyboard.press('Enter');
      await widget.locator('.quick-input-title', { hasText: '(7/7)' }).waitFor();
      // The messaging address has no public pattern: it must be typed, and a bad one is refused as typed.
      await widget.locator('input.input').fill('chat.example.com');
      await widget.locator('.quick-input-message', { hasText: 'full address' }).waitFor();
      await answer(page, 'https://chat.example.com');
      const added = notification(page, 'Profile "Acme staging" added');
      await added.waitFor();
      await added.getByRole('button', { name: 'Set Credential' }).click();
      await widget.locator('.monaco-list-row', { hasText: 'Agents API key' }).first().waitFor();
      await widget.locator('input.input').fill('Agents API key');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget input[type="password"]').waitFor();
      await screenshot(page, 'credential-password-field');
      await page.locator('.quick-input-widget input[type="password"]').fill(TEST_KEYS.stagingAgents);
      await page.keyboard.press('Enter');
      // The new profile is used only when asked, once it has a key: the views do not turn to errors at once.
      const saved = notification(page, 'Agents API key of "Acme staging" saved');
      await saved.waitFor();
      await saved.getByRole('button', { name: 'Use This Profile' }).click();
      await page.locator('.statusbar', { hasText: 'Acme staging · us · sandbox' }).waitFor();
      await screenshot(page, 'profile-added');
      const bar = await page.locator('.statusbar').innerText();
      assert.ok(!bar.includes(TEST_KEYS.stagingAgents), bar);
    });
  });
});
