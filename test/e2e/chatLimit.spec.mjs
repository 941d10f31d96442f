// A chat message longer than the editor sends: counted as it is typed, refused before anything is sent or
// cleared, and sent once shortened. The webview's page sits two frames deep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
} from '../support/browser/workbench.mjs';
import { LocalAdmin } from '../support/localAdmin.ts';

describe('A chat message over the limit', { timeout: 300_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-chat-limit' });
  });
  after(async () => {
    await wb?.close();
  });

  const chat = () => wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  it('is counted while typed, refused with the draft kept and nothing sent, and sent once shortened', async () => {
    const { page } = wb;
    await step(page, 'chat-limit', async () => {
      await showAgentWorkbench(page);
      const admin = LocalAdmin.atOrigin(await startLocalPlatform(page));
      await runCommand(page, 'Agent Workbench: Open Chat');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Chat API' }).first().click();
      await chat().locator('.line.agent').first().waitFor();
      const responds = async () =>
        (await admin.requests({ base: 'runtime' })).filter((r) => r.path.endsWith('/chat/respond'));
      const sentBefore = (await responds()).length;

      const box = chat().locator('#message textarea');
      const counter = chat().locator('#message-count');
      const long = `${'Please book a table for twelve. '.repeat(128)}`.slice(0, 4_090);
      await box.fill(long);
      await counter.filter({ hasText: '4,090 / 4,096 characters' }).waitFor();
      await box.press('End');
      await page.keyboard.type('0123456789');
      await counter.filter({ hasText: '4,100 / 4,096 characters: 4 too many' }).waitFor();
      await screenshot(page, 'chat-limit-counter');

      await box.press('Enter');
      await chat()
        .locator('.composer .problem', { hasText: 'Not sent: a message takes at most 4,096 characters' })
        .waitFor();
      assert.equal((await box.inputValue()).length, 4_100, 'the draft is kept');
      assert.equal(await chat().locator('.line.user').count(), 0, 'nothing is shown as sent');
      assert.equal((await responds()).length, sentBefore, 'nothing reached the platform');

      // Shortened, it goes.
      for (let i = 0; i < 4; i++) await box.press('Backspace');
      await counter.filter({ hasText: /^4,096 \/ 4,096 characters$/ }).waitFor();
      assert.equal(await chat().locator('.composer .problem').innerText(), '', 'the refusal is gone once it fits');
      await box.press('Enter');
      await chat().locator('.line.user').first().waitFor();
      assert.equal(await box.inputValue(), '', 'the box is cleared once sent');
      // The answer (the long line may have scrolled the greeting out of the drawn lines).
      await chat().locator('.line.user ~ .line.agent').first().waitFor();
      assert.equal((await responds()).length, sentBefore + 1, 'the shortened message was sent once');
    });
  });
});
