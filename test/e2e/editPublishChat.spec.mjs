// The first hour's main path, as a newcomer walks it: check out the first agent of the Agents view, change who the
// agent says it is in behavior.md, push, publish through the step the push offers, and hear the new behavior in the
// chat opened from that agent. The local platform's agents greet from their behavior ("You are Gio, ..." is
// "Hello! I'm Gio, ..."), so a changed name in behavior.md is a changed greeting once sandbox serves it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  chooseMenuItem,
  notification,
  notificationShown,
  openContextMenu,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
} from '../support/browser/workbench.mjs';

/** Chooses a row of the open quick pick by typing its label, as a person does with the keyboard. */
async function choose(page, label) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.monaco-list-row', { hasText: label }).first().waitFor();
  await widget.locator('input.input').fill(label);
  await widget.locator('.monaco-list-row.focused', { hasText: label }).waitFor();
  await page.keyboard.press('Enter');
}

describe('Edit, push, publish and chat', { timeout: 600_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-edit-publish-chat' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  const chat = () => wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  it('checks out the first agent, edits its behavior, pushes, publishes through the offered step and hears the new behavior in its chat', async () => {
    const { page } = wb;
    const agentRows = page.locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Agents/i }) });
    let first;

    await step(page, 'edit-publish-chat-check-out', async () => {
      await showAgentWorkbench(page);
      await startLocalPlatform(page);
      // The first agent of the list, whatever it is called: its row is the first top-level row of the Agents view.
      const firstRow = agentRows.locator('.monaco-list-row[aria-level="1"]').first();
      await firstRow.waitFor();
      first = (await firstRow.locator('.label-name').first().innerText()).trim();
      // Nothing is checked out yet: Switch Branch, which switches a checked-out folder, is not offered on a branch.
      await firstRow.click();
      const branchRows = agentRows.locator('.monaco-list-row[aria-level="2"]');
      await branchRows.first().waitFor();
      const beforeCheckOut = await openContextMenu(page, branchRows.first());
      assert.ok(!beforeCheckOut.includes('Switch Branch'), `no Switch Branch without a folder: ${beforeCheckOut}`);
      await page.keyboard.press('Escape');
      await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached' });
      const items = await openContextMenu(page, firstRow);
      assert.ok(items.includes('Check Out into Workspace Folder'), `the agent's menu offers Check Out: ${items}`);
      await chooseMenuItem(page, 'Check Out into Workspace Folder');
      // The agent's main branch, then the folder suggested in the workspace, as offered.
      await page.locator('.quick-input-widget input.input[placeholder="Branch to check out"]').waitFor();
      // Branches by name, with who made them: no internal id to read.
      const rows = page.locator('.quick-input-widget .monaco-list-row');
      await rows.filter({ hasText: 'the branch that gets published' }).first().waitFor();
      assert.deepEqual(await rows.filter({ hasText: /br_/ }).allInnerTexts(), []);
      await choose(page, 'main');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor();
      await page.waitForFunction(() =>
        /\/[^/]+$/.test(document.querySelector('.quick-input-widget input.input')?.value ?? ''),
      );
      await input.press('Enter');
      await page.locator('.tab.active', { hasText: 'behavior.md' }).waitFor({ timeout: 60_000 });
      // With the folder there (once the editor has found it), another branch of the agent offers Switch Branch.
      const otherBranch = agentRows.locator('.monaco-list-row[aria-level="2"]').nth(1);
      let afterCheckOut = [];
      for (const started = Date.now(); !afterCheckOut.includes('Switch Branch') && Date.now() - started < 30_000;) {
        afterCheckOut = await openContextMenu(page, otherBranch);
        await page.keyboard.press('Escape');
        await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached' });
      }
      assert.ok(afterCheckOut.includes('Switch Branch'), `Switch Branch once checked out: ${afterCheckOut}`);
      await page.locator('.tab', { hasText: 'behavior.md' }).first().click();
    });

    let before;
    let after;
    await step(page, 'edit-publish-chat-edit', async () => {
      const editor = page.locator('.editor-instance .monaco-editor').first();
      const text = await editor.locator('.view-lines').innerText();
      // Monaco draws spaces as non-breaking ones.
      const intro = /You are ([A-Z][\p{L}'-]*)/u.exec(text.replace(/\u00a0/g, ' '));
      assert.ok(intro, `the behavior of ${first} says who the agent is: ${text}`);
      before = intro[1];
      after = before === 'Robin' ? 'Alex' : 'Robin';
      // Find and replace, as a person renames the agent in an editor.
      await editor.locator('.view-lines').click();
      await page.keyboard.press('Control+H');
      const find = page.locator('.editor-widget.find-widget textarea[aria-label="Find"]');
      await find.waitFor();
      await find.fill(`You are ${before}`);
      const replace = page.locator('.editor-widget.find-widget textarea[aria-label="Replace"]');
      await replace.fill(`You are ${after}`);
      await page.keyboard.press('Control+Alt+Enter');
      await page.keyboard.press('Escape');
      // Saved (the file may already be, where the editor saves by itself).
      await page.keyboard.press('Control+S');
      await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
      await screenshot(page, 'edit-publish-chat-edited');
    });

    await step(page, 'edit-publish-chat-push', async () => {
      await runCommand(page, 'Agent Workbench: Push');
      const pushed = notification(page, 'Pushed 1 change');
      await pushed.waitFor({ timeout: 60_000 });
      await screenshot(page, 'edit-publish-chat-pushed');
      await pushed.getByRole('button', { name: 'Publish to Sandbox and Chat' }).click();
    });

    await step(page, 'edit-publish-chat-publish', async () => {
      // The usual confirmation of a publish, then its message.
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByRole('button', { name: 'Publish', exact: true }).waitFor();
      await screenshot(page, 'edit-publish-chat-confirm');
      await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.quick-input-title', { hasText: `Publish ${first} to sandbox` }).waitFor();
      await widget.locator('input.input').fill(`The agent is now ${after}`);
      await page.keyboard.press('Enter');
      // The report of the publish, or the chat's first question over it when the chat follows at once (a dialog
      // hides the toasts): the report is then looked for under the bell once the chat is open.
      const report = notification(page, `${first} now serves version`).first();
      await report
        .or(page.locator('.monaco-dialog-box', { hasText: `${first} is served by project` }))
        .or(page.locator('.quick-input-widget .quick-input-title', { hasText: 'Open Chat' }))
        .first()
        .waitFor({ timeout: 60_000 });
    });

    await step(page, 'edit-publish-chat-chat', async () => {
      // A demo agent has a project of its own: the Local profile reaches it with that project's keys and asks only
      // how to talk; a profile of another platform would first offer the project's profile.
      const reach = page.locator('.monaco-dialog-box', { hasText: `${first} is served by project` });
      const pick = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Open Chat' });
      await reach.or(pick).first().waitFor();
      if (await reach.isVisible()) {
        await screenshot(page, 'edit-publish-chat-reach');
        await reach.getByRole('button', { name: /^(Add|Use) Profile/ }).click();
      }
      await choose(page, 'Chat API');
      await page.locator('.tab.active', { hasText: `Chat: ${first}` }).waitFor();
      const greeting = chat().locator('.line.agent .text').first();
      await greeting.waitFor();
      const said = await greeting.innerText();
      assert.match(said, new RegExp(`I'm ${after}\\b`), `the agent greets as ${after}, as its behavior now says`);
      assert.doesNotMatch(said, new RegExp(`\\b${before}\\b`), `no longer as ${before}`);
      // The header says which version it talks to: the one just published, with nothing newer waiting.
      await chat().getByText(first).first().waitFor();
      await screenshot(page, 'edit-publish-chat-answer');
    });

    await step(page, 'edit-publish-chat-keyboard', async () => {
      // The keyboard is in the message box as the chat opens: typing and Enter ask the agent, with no Tab or click.
      await page.keyboard.type('What are your opening hours?');
      await page.keyboard.press('Enter');
      await chat().locator('.line.user', { hasText: 'What are your opening hours?' }).waitFor({ timeout: 30_000 });
      await chat().locator('.line.agent').nth(1).waitFor();
      await screenshot(page, 'edit-publish-chat-typed');
      // In the dark theme the person's lines are told from the agent's at a glance: tinted, not another grey.
      // As 0 to 255 per channel, whether the browser gives rgb() or color(srgb 0..1).
      const rgb = async (selector) => {
        const css = await chat()
          .locator(selector)
          .first()
          .evaluate((e) => getComputedStyle(e).backgroundColor);
        const scale = css.startsWith('color(') ? 255 : 1;
        return css
          .match(/[\d.]+/g)
          .slice(0, 3)
          .map((n) => Math.round(Number(n) * scale));
      };
      const [user, agent] = [await rgb('.line.user'), await rgb('.line.agent')];
      assert.ok(Math.max(...user) - Math.min(...user) > 12, `the person's line is tinted: rgb ${user}`);
      assert.notDeepEqual(user, agent, 'the agent line has another background');
    });

    await step(page, 'edit-publish-chat-report', async () => {
      // The publish was reported, as a toast or, once the chat's question hid it, under the bell.
      await notificationShown(page, `${first} now serves version`);
    });
  });
});
