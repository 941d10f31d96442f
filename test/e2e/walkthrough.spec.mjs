// The Getting Started walkthrough as a newcomer follows it: each step opened in order, its button pressed, what
// it does carried through (quick picks, typing, saving), and the step marked done. Steps whose command this
// editor does not have are reported (not failed) with what the workbench said.
// With AGENT_WORKBENCH_WALKTHROUGH_IMAGES=1 the pictures of the walkthrough (media/walkthrough) are taken anew.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  ROOT,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
  webviewShowing,
} from '../support/browser/workbench.mjs';

const TITLE = 'Get Started with Agent Workbench';
const MEDIA = join(ROOT, 'media', 'walkthrough');

describe('Getting Started walkthrough', { timeout: 600_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-walkthrough' });
  });
  after(async () => {
    await wb?.close();
  });

  const chat = () => wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  /** A picture for the walkthrough itself, kept only when asked for. */
  async function mediaPicture(name) {
    if (process.env.AGENT_WORKBENCH_WALKTHROUGH_IMAGES !== '1') return;
    mkdirSync(MEDIA, { recursive: true });
    await wb.page.mouse.move(1200, 740);
    await wb.page.screenshot({ path: join(MEDIA, name) });
  }

  /** Opens the walkthrough (again) and expands the step titled `title`. */
  async function openStep(title) {
    const { page } = wb;
    // A quick input closes when something takes the focus (a notification, a panel loading): open it again then.
    for (let attempt = 1; ; attempt++) {
      try {
        await runCommand(page, 'Welcome: Open Walkthrough...');
        await choose(TITLE);
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        await page.keyboard.press('Escape');
      }
    }
    const stepButton = page.locator('.getting-started-step', { hasText: title }).first();
    await stepButton.waitFor();
    if (!(await stepButton.evaluate((e) => e.classList.contains('expanded')))) await stepButton.click();
    await page.locator('.getting-started-step.expanded', { hasText: title }).waitFor();
    return stepButton;
  }

  /** Whether the walkthrough (opened again, as its page may be behind what the step opened) marks the step done. */
  async function completes(title, timeout = 30_000) {
    const stepButton = await openStep(title);
    return stepButton
      .locator('.codicon.complete, .codicon-getting-started-item-checked')
      .first()
      .waitFor({ timeout })
      .then(
        () => true,
        () => false,
      );
  }

  /** Presses the step's command button; whatever the command opens (a quick pick, an editor) is left to the caller. */
  async function press(label) {
    await wb.page.locator('.getting-started-step.expanded').getByRole('button', { name: label }).click();
  }

  /** Chooses a quick pick item by typing its label, as a person does with the keyboard. */
  async function choose(label) {
    const { page } = wb;
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor();
    await input.fill(label, { timeout: 15_000 });
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).waitFor();
    await input.press('Enter');
  }

  it('walks every step in order, from starting the platform to reading the conversation', async () => {
    const { page } = wb;

    await step(page, 'walkthrough-1-start', async () => {
      await openStep('Start the local platform');
      await screenshot(page, 'walkthrough-1-start');
      await press('Start Local Platform');
      await notification(page, 'The local platform is running on').waitFor();
      assert.ok(await completes('Start the local platform'), 'the step is marked done');
      await showAgentWorkbench(page);
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Support Desk' }).first().waitFor();
      if (process.env.AGENT_WORKBENCH_WALKTHROUGH_IMAGES === '1') {
        const tab = page.locator('.tab', { hasText: 'Walkthrough' });
        await tab.hover();
        await tab.locator('.codicon-close').click();
        await tab.waitFor({ state: 'detached' });
        await mediaPicture('start-platform.png');
      }
    });

    await step(page, 'walkthrough-2-check-out', async () => {
      await openStep('Check out an agent');
      await screenshot(page, 'walkthrough-2-check-out');
      await press('Check Out an Agent');
      await choose('Support Desk');
      // The folder: the one suggested, in the workspace.
      const input = page.locator('.quick-input-widget input.input');
      await page.waitForFunction(() =>
        /support-desk$/.test(document.querySelector('.quick-input-widget input.input')?.value ?? ''),
      );
      await input.press('Enter');
      await page.locator('.tab', { hasText: 'behavior.md' }).first().waitFor();
      assert.ok(await completes('Check out an agent'), 'the step is marked done');
      await page.keyboard.press('Control+Shift+E');
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'support-desk' }).first().click();
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'knowledge' }).first().waitFor();
      await page.locator('.tab', { hasText: 'behavior.md' }).first().click();
      await mediaPicture('check-out.png');
    });

    await step(page, 'walkthrough-3-edit', async () => {
      await openStep('Edit its behavior');
      await screenshot(page, 'walkthrough-3-edit');
      await press('Open behavior.md');
      await page.locator('.tab.active', { hasText: 'behavior.md' }).waitFor();
      // Opening the file is not editing it: the step is done once a change is saved.
      assert.equal(await completes('Edit its behavior', 2_000), false, 'not done when the file is only opened');
      await page.locator('.tab', { hasText: 'behavior.md' }).first().click();
      await page.locator('.tab.active', { hasText: 'behavior.md' }).waitFor();
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\nWhen a caller gives their name, use it in every answer.');
      await mediaPicture('edit-behavior.png');
      await page.keyboard.press('Control+S');
      await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
      await mediaPicture('push.png');
      assert.ok(await completes('Edit its behavior'), 'the step is marked done once saved');
    });

    await step(page, 'walkthrough-4-push', async () => {
      await openStep('Push your change');
      await screenshot(page, 'walkthrough-4-push');
      await press('Push');
      await notification(page, 'Pushed 1 change').waitFor({ timeout: 60_000 });
      assert.ok(await completes('Push your change', 15_000), 'the step is marked done');
    });

    await step(page, 'walkthrough-5-chat', async () => {
      await openStep('Talk to it');
      await screenshot(page, 'walkthrough-5-chat');
      await press('Open Chat');
      await choose('Messaging, streamed');
      await chat().locator('.status', { hasText: 'Connected' }).waitFor();
      const box = chat().locator('#message textarea');
      await box.fill('What are your opening hours on Sunday?');
      await box.press('Enter');
      await chat().locator('.line.agent').nth(1).locator('.text').waitFor();
      await mediaPicture('chat.png');
      await mediaPicture('conversations.png');
      assert.ok(await completes('Talk to it'), 'the step is marked done');
    });

    await step(page, 'walkthrough-6-conversations', async () => {
      await openStep('Read the conversation');
      await screenshot(page, 'walkthrough-6-conversations');
      await press('Open Conversations');
      // The list, loaded: a panel that is still loading takes the focus from the walkthrough's quick pick.
      const list = await webviewShowing(page, '.rows .row[data-id]');
      await list.locator('.status', { hasText: /conversations? shown/ }).waitFor();
      assert.ok(await completes('Read the conversation', 15_000), 'the step is marked done');
      await screenshot(page, 'walkthrough-6-conversations-open');
    });

    await step(page, 'walkthrough-done', async () => {
      await openStep('Start the local platform');
      await screenshot(page, 'walkthrough-done');
    });
  });
});
