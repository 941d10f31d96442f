// Conversation tests in the Testing view of the workbench: a test file in the workspace is listed, its cases are
// run against the local platform from the view, and the failing one shows its result, its message and its
// conversation in the Test Results panel; its message opens as a diff of the expected and the actual answer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  chooseMenuItem,
  openContextMenu,
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
} from '../support/browser/workbench.mjs';

const CASES = `agent: ag_support
cases:
  - name: Opening hours
    turns:
      - user: What are your opening hours?
        contains: Monday
  - name: Password reset
    turns:
      - user: How do I reset my password?
        contains: reset link
        reference: We sent you a reset link.
`;

describe('Conversation tests in the Testing view', { timeout: 300_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({
      name: 'e2e-conversation-tests',
      prepare: async (sandbox) => {
        const dir = join(sandbox.workspace, 'support-tests', 'tests');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'cases.yaml'), CASES);
      },
    });
  });
  after(async () => {
    await wb?.close();
  });

  it('runs the cases of a test file from the Testing view and shows the failing one with its message and conversation', async () => {
    const { page } = wb;
    await step(page, 'conversation-tests-run', async () => {
      await showAgentWorkbench(page);
      await startLocalPlatform(page);
      await runCommand(page, 'Testing: Focus on Test Explorer View');
      const row = (name) => page.locator('.sidebar .monaco-list-row', { hasText: name }).first();
      // The file is found when the view first asks; its cases are under it.
      await row('cases.yaml').waitFor();
      if ((await row('cases.yaml').getAttribute('aria-expanded')) === 'false') await row('cases.yaml').click();
      await row('Password reset').waitFor();
      await runCommand(page, 'Test: Run All Tests');
      await row('Opening hours').locator('.codicon-testing-passed-icon').waitFor();
      await row('Password reset').locator('.codicon-testing-failed-icon').waitFor();
      await screenshot(page, 'conversation-tests-run');

      // The Test Results panel lists the failing case with its turn's message and the link to its conversation.
      await page
        .locator('.part.panel .monaco-list-row', { hasText: 'The answer does not contain "reset' })
        .first()
        .waitFor();
      await page
        .locator('.part.panel .monaco-list-row', { hasText: /Conversation conv_\d+: open it/ })
        .first()
        .waitFor();
      // The run's output holds each whole conversation; in which order the cases ended varies, and the output as a
      // whole may be longer than the panel is high: the panel is made as high as the window, as a person would.
      await runCommand(page, 'View: Toggle Maximized Panel');
      await page.locator('.part.panel', { hasText: "agent: Sorry, I can't help with that" }).first().waitFor();
      await screenshot(page, 'conversation-tests-output');

      // The test file opened shows the failing turn's message on its line; its Peek Error shows the message as a
      // diff of the expected and the actual answer.
      await runCommand(page, 'View: Toggle Maximized Panel');
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input.input').fill('cases.yaml');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cases.yaml' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tab.active', { hasText: 'cases.yaml' }).waitFor();
      // The failing turn's gutter mark (line 9, the last failing mark) offers Peek Error.
      await openContextMenu(
        page,
        page.locator('.editor-instance .testing-run-glyph.codicon-testing-failed-icon').last(),
      );
      await chooseMenuItem(page, 'Peek Error');
      const diff = page.locator('.peekview-widget .monaco-diff-editor');
      await diff.locator('.editor.original', { hasText: 'We sent you a reset link.' }).waitFor();
      await diff.locator('.editor.modified', { hasText: "Sorry, I can't help with that" }).waitFor();
      await screenshot(page, 'conversation-tests-diff');
    });
  });
});
