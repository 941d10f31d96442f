// Every panel of the extension in each of the four kinds of colour theme: its text at WCAG AA contrast and its
// controls named, as axe-core finds them inside each webview's page in Chromium. The panels are opened once, with
// content, side by side, and the theme is switched under them as a person switches it: no panel reloads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessibilityProblems, switchTheme, THEME_KINDS } from '../support/browser/accessibility.mjs';
import {
  chooseMenuItem,
  openContextMenu,
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
  webviewShowing,
} from '../support/browser/workbench.mjs';
import { LocalAdmin } from '../support/localAdmin.ts';

/** Each panel by what only its page shows. */
const PANELS = {
  chat: '.lines .line.agent',
  'conversations, a conversation opened below': '.list-view + .detail-view .turn',
  'a conversation in its own panel': '#app > .detail-view:only-child .turn',
  'concurrency chart': '.plot canvas',
  replay: '.turn ins',
};

/** What has the keyboard in a page once it has drawn: the focused control's id, or nothing when no control has it. */
async function focusedIn(frame) {
  const focused = () => {
    const active = document.activeElement;
    return active && active !== document.body ? active.id || active.tagName.toLowerCase() : '';
  };
  await frame.waitForFunction(focused, undefined, { timeout: 5_000 }).catch(() => undefined);
  return frame.evaluate(focused);
}

describe('Every panel in the four kinds of colour theme', { timeout: 300_000 }, () => {
  let wb;
  /** The control each page gave the keyboard to as it opened. */
  const focusedOnOpen = {};
  before(async () => {
    // Large enough for five panels side by side, each showing its content.
    wb = await openWorkbench({ name: 'e2e-accessibility', viewport: { width: 1800, height: 1200 } });
    const { page } = wb;
    await step(page, 'accessibility-panels', async () => {
      await showAgentWorkbench(page);
      const origin = await startLocalPlatform(page);
      const admin = LocalAdmin.atOrigin(origin);
      // Three columns: the conversations; a conversation, the chart and a replay one above the other; the chat.
      await runCommand(page, 'View: Three Columns Editor Layout');
      await runCommand(page, 'View: Focus First Editor Group');
      await runCommand(page, 'Agent Workbench: Open Conversations');
      const list = await webviewShowing(page, '.rows .row[data-id]');
      await list.locator('.status', { hasText: /conversations? shown/ }).waitFor();
      focusedOnOpen.list = await focusedIn(list);
      const rows = list.locator('.rows .row[data-id]');
      const below = await rows.nth(1).getAttribute('data-id');
      await rows.nth(1).click();
      await list.locator('.detail-view .title', { hasText: below }).waitFor();
      await list.locator('#action-toggleFilters').click();
      await rows.nth(2).press('Control+Enter');
      await page.locator('.tab', { hasText: /^Conversation conv_/ }).waitFor();
      focusedOnOpen.conversation = await focusedIn(
        await webviewShowing(page, PANELS['a conversation in its own panel']),
      );

      await runCommand(page, 'View: Focus First Editor Group');
      await runCommand(page, 'View: Focus Right Editor Group');
      await runCommand(page, 'View: Focus Right Editor Group');
      await runCommand(page, 'Agent Workbench: Open Chat');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'WebSocket session; whole answers' }).click();
      const chat = await webviewShowing(page, PANELS.chat);
      await chat.locator('.status', { hasText: 'Connected' }).waitFor();
      const box = chat.locator('#message textarea');
      await box.fill('What are your opening hours on Sunday?');
      await box.press('Enter');
      await chat.locator('.line.agent').nth(1).waitFor();
      // The platform reports an error in the conversation: a red line with its fix.
      const session = (await admin.messagingSessions()).find((s) => s.connections > 0);
      assert.ok(session, 'the chat has a session open');
      await admin.sendSessionEvent(session.session_id, {
        type: 'EVENT_TYPE_SYSTEM_MESSAGE',
        payload: { level: 'SYSTEM_MESSAGE_LEVEL_ERROR', text: 'Error: Conversation not found' },
      });
      await chat.locator('.line.system.error').waitFor();
      await chat.locator('vscode-collapsible.settings').click({ position: { x: 40, y: 10 } });
      await chat.locator('vscode-button', { hasText: 'Restart with these settings' }).waitFor();

      await runCommand(page, 'View: Focus First Editor Group');
      await runCommand(page, 'View: Focus Right Editor Group');
      await runCommand(page, 'View: New Editor Group Below');
      const agent = page.locator('.sidebar .monaco-list-row', {
        has: page.locator('.label-name', { hasText: /^Support Desk$/ }),
      });
      await openContextMenu(page, agent);
      await chooseMenuItem(page, 'Open Concurrency Chart');
      const chart = await webviewShowing(page, PANELS['concurrency chart']);
      await chart.locator('vscode-checkbox#slice').click();
      await chart.locator('vscode-button#show').click();
      await chart.locator('.u-legend', { hasText: 'Friendly Tone' }).waitFor();

      // A replay whose answers differ from the recording: the agent was renamed and published to sandbox since.
      const res = await fetch(`${origin}/runtime/v3/acme/support-desk/conversations?client_env=live&limit=200`, {
        headers: { 'x-api-key': 'lp_conversations_key' },
      });
      const recorded = (await res.json()).conversations.find(
        (c) => !c.in_progress && !c.handoff && c.turns.length >= 3,
      );
      await admin.editBranch('ag_support', 'br_support_main', {
        behavior: '# Support Desk\n\nYou are Robin, the desk of Acme.',
      });
      await fetch(`${origin}/build/v1/agents/ag_support/deployments/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'lp_agents_key' },
        body: JSON.stringify({ environment: 'sandbox' }),
      });
      await runCommand(page, 'View: New Editor Group Below');
      await runCommand(page, 'Agent Workbench: Replay Conversation');
      await page.locator('.quick-input-widget input.input').fill(recorded.id);
      await page.keyboard.press('Enter');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: "The connector's default variant" })
        .first()
        .click();
      const replay = await webviewShowing(page, PANELS.replay);
      await replay.locator('.status', { hasText: 'answers differ from the recording' }).waitFor();
      await runCommand(page, 'View: Close Primary Side Bar');
    });
  });
  after(async () => {
    await wb?.close();
  });

  it('the conversations and a conversation in its own panel give the keyboard to a control as they open', () => {
    assert.equal(focusedOnOpen.list, 'range', "the list's first filter (Time) has the keyboard");
    assert.equal(focusedOnOpen.conversation, 'find', "the conversation's Find box has the keyboard");
  });

  for (const theme of THEME_KINDS) {
    it(`${theme.name}: the text of every panel meets WCAG AA contrast and every control is named`, async () => {
      const { page } = wb;
      await step(page, `accessibility-${theme.kind}`, async () => {
        await switchTheme(page, theme);
        const problems = [];
        for (const [panel, selector] of Object.entries(PANELS)) {
          const frame = await webviewShowing(page, selector, 10_000);
          for (const problem of await accessibilityProblems(frame)) problems.push(`${panel}: ${problem}`);
        }
        await screenshot(page, `accessibility-${theme.kind}`);
        assert.deepEqual(problems, [], `in ${theme.name}:\n${problems.join('\n')}`);
      });
    });
  }
});
