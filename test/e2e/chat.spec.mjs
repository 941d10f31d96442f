// The chat playground in the workbench: typing into the panel, a streamed answer arriving in pieces,
// and hostile text shown as text. The webview's page sits two frames deep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openWorkbench, runCommand, screenshot, showAgentWorkbench, startLocalPlatform, step } from './support.mjs';

const HOSTILE = [
  '<script>top.pwned=1</script><img src=x onerror="top.pwned=2">',
  '<a href="javascript:top.pwned=3">click me</a> \u202Eevil\u202C <b onmouseover=alert(1)>b</b>',
];

describe('Chat playground in the workbench', { timeout: 300_000 }, () => {
  let wb;
  let origin;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-chat' });
  });
  after(async () => {
    await wb?.close();
  });

  /** The chat panel's page. */
  const chat = () => wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');

  it('types into the panel and sees a streamed answer arrive in pieces', async () => {
    const { page } = wb;
    await step(page, 'chat-streaming', async () => {
      await showAgentWorkbench(page);
      origin = await startLocalPlatform(page);
      // Slow the stream down so a person (and this test) can watch it grow.
      await fetch(`${origin}/_local/options`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ streamDelayMs: 120 }),
      });
      await runCommand(page, 'Agent Workbench: Open Chat');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Messaging, streamed' }).first().click();
      await chat().locator('.line.agent').first().waitFor();
      await chat().locator('.status', { hasText: 'Connected' }).waitFor();

      const box = chat().locator('#message textarea');
      await box.click();
      await page.keyboard.type('What are your opening hours on Sunday?');
      await page.keyboard.press('Enter');
      await chat().locator('.line.user', { hasText: 'What are your opening hours on Sunday?' }).waitFor();
      const answer = chat().locator('.line.agent').nth(1);
      const seen = new Set();
      await answer.locator('.text').waitFor();
      while ((await answer.getAttribute('class')).includes('streaming')) {
        seen.add(await answer.locator('.text').innerText());
        await page.waitForTimeout(40);
      }
      const final = await answer.locator('.text').innerText();
      const pieces = [...seen].filter((t) => t && t !== final);
      assert.ok(pieces.length >= 2, `the answer grew in pieces on screen (saw ${pieces.length} partial texts)`);
      assert.ok(
        pieces.every((t) => final.startsWith(t)),
        'each piece is the start of the answer',
      );
      await chat().locator('.entry .latency').first().waitFor();
      await screenshot(page, 'chat-streamed-answer');
    });
  });

  it("the toolbar's Send external event asks for the result to post into this conversation", async () => {
    const { page } = wb;
    await step(page, 'chat-external-event', async () => {
      const conversation = (await chat().locator('.status').innerText()).match(/Conversation (\S+)/)?.[1];
      assert.ok(conversation, 'the status names the conversation');
      await chat().locator('#action-externalEvent').click();
      const widget = page.locator('.quick-input-widget');
      await widget.getByText(`Send External Event into Conversation ${conversation}`).waitFor();
      await widget.locator('.monaco-list-row', { hasText: 'payload' }).waitFor();
      await screenshot(page, 'chat-external-event');
      await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden' });
    });
  });

  it('a hostile message renders as plain text and runs nothing', async () => {
    const { page } = wb;
    await step(page, 'chat-hostile', async () => {
      const box = chat().locator('#message textarea');
      // A person quotes what they are sent: after the handoff the live agent repeats each message.
      await box.fill('Can I talk to a person?');
      await box.press('Enter');
      await chat().locator('.line.liveAgent').first().waitFor();
      for (const text of HOSTILE) {
        await box.fill(text);
        await box.press('Enter');
      }
      await chat().locator('.line.liveAgent', { hasText: 'click me' }).waitFor();
      const lines = chat().locator('.line');
      assert.equal(
        await chat().locator('.line script, .line img, .line a, .line b').count(),
        0,
        'no element made from message text',
      );
      const user = await chat().locator('.line.user .text').allInnerTexts();
      assert.ok(user.includes(HOSTILE[0]), 'the script tag is shown as typed');
      const quoted = (await chat().locator('.line.liveAgent .text').allInnerTexts()).join('\n');
      assert.match(quoted, /<script>top\.pwned=1<\/script>/);
      assert.match(quoted, /javascript:top\.pwned=3/);
      assert.match(quoted, /⟦U\+202E⟧evil⟦U\+202C⟧/, 'the right-to-left override is shown, not obeyed');
      await chat().locator('.line.liveAgent', { hasText: 'click me' }).hover();
      const frames = page.frames();
      for (const f of frames) {
        const pwned = await f.evaluate(() => globalThis.pwned).catch(() => undefined);
        assert.equal(pwned, undefined, `nothing ran in ${f.url()}`);
      }
      assert.ok((await lines.count()) > 4);
      await screenshot(page, 'chat-hostile-text');
    });
  });
});
