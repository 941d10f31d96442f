// The chat playground in the workbench: typing into the panel, a streamed answer arriving in pieces,
// and hostile text shown as text. The webview's page sits two frames deep.
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
import { until } from '../support/until.ts';

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
      await LocalAdmin.atOrigin(origin).setOptions({ streamDelayMs: 120 });
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
      await answer.locator('.text').waitFor();
      // The page itself keeps each text the answer shows, at every change of the conversation, until it is no
      // longer streaming: every piece drawn is seen, however fast they come.
      const seen = await answer.evaluate(
        (first) =>
          new Promise((resolve) => {
            const texts = new Set();
            const read = () => {
              const line = first.ownerDocument.querySelectorAll('.line.agent')[1];
              const text = line?.querySelector('.text');
              if (text instanceof HTMLElement) texts.add(text.innerText);
              if (line && !line.classList.contains('streaming')) {
                observer.disconnect();
                resolve([...texts]);
              }
            };
            const observer = new MutationObserver(read);
            observer.observe(first.ownerDocument.body, {
              subtree: true,
              childList: true,
              characterData: true,
              attributes: true,
            });
            read();
          }),
      );
      const final = await answer.locator('.text').innerText();
      const pieces = [...seen].filter((t) => t && t !== final);
      assert.ok(pieces.length >= 2, `the answer grew in pieces on screen (saw ${pieces.length} partial texts)`);
      assert.ok(
        pieces.every((t) => final.startsWith(t)),
        'each piece is the start of the answer',
      );
      await chat().locator('.entry .latency').first().waitFor();
      // An event's JSON is drawn once it is expanded.
      const answered = chat()
        .locator('.entry', { has: chat().locator('.latency') })
        .first();
      assert.equal(await answered.locator('pre').count(), 0, 'a collapsed event draws no JSON');
      await answered.locator('summary').click();
      assert.match(await answered.locator('pre').innerText(), /"type": "EVENT_TYPE_/);
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
      // The result to deliver comes first, drafted for this conversation.
      const body = widget.locator('.quick-input-box input');
      await body.waitFor();
      assert.match(await body.inputValue(), new RegExp(`"conversation_id":\\s*"${conversation}"`));
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

  it('keeps the newest line in view while the person is at the end, and stays where they scrolled to', async () => {
    const { page } = wb;
    await step(page, 'chat-follow', async () => {
      // Messages and typing signals come faster than the platform's rate limit here: it would drop some (MSG-28).
      const options = (body) => LocalAdmin.atOrigin(origin).setOptions(body);
      await options({ wsMessagesPerSecond: 1000 });
      const box = chat().locator('#message textarea');
      const conversation = chat().locator('.lines');
      /** Pixels between the bottom of the view and the end of the conversation, once the page has drawn. */
      const belowView = () =>
        conversation.evaluate(
          (e) =>
            new Promise((resolve) =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() => resolve(e.scrollHeight - e.scrollTop - e.clientHeight)),
              ),
            ),
        );
      const scrollTop = () => conversation.evaluate((e) => e.scrollTop);
      /** The first reading of `measure` under 2 px within 5 s (the page draws what arrives a frame or more later), else the last. */
      const settles = (measure) =>
        until(
          'the view to reach the end',
          async () => {
            const value = await measure();
            return value < 2 && { value };
          },
          { timeoutMs: 5_000, intervalMs: 100 },
        ).then(
          (settled) => settled.value,
          () => measure(),
        );
      const send = async (text) => {
        await box.fill(text);
        await box.press('Enter');
        // The person the chat was handed to repeats each message.
        await chat().locator('.line.liveAgent', { hasText: text }).waitFor();
      };
      for (let i = 1; i <= 12; i++) await send(`Line ${i} of a conversation longer than the panel`);
      assert.ok(
        (await conversation.evaluate((e) => e.scrollHeight - e.clientHeight)) > 100,
        'the conversation is taller than its view',
      );
      const atEnd = await settles(belowView);
      assert.ok(atEnd < 2, `the newest line is in view (${atEnd} px below it)`);
      // The inspector beside it shows its newest event too (it is drawn a few times a second).
      const events = chat().locator('.events');
      const belowEvents = () => events.evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight);
      const eventsAtEnd = await settles(belowEvents);
      assert.ok(eventsAtEnd < 2, `the newest event is in view (${eventsAtEnd} px below it)`);
      assert.ok((await events.evaluate((e) => e.scrollTop)) > 0, "the inspector's first events are out of view");

      // The person scrolls back to read: new lines no longer move the view.
      await conversation.hover();
      await page.mouse.wheel(0, -100_000);
      await until('scrolled to the start', async () => (await scrollTop()) === 0, {
        timeoutMs: 5_000,
        intervalMs: 100,
      });
      await send('A line written while the person reads the start');
      // A marker: one more line, drawn after the first and two frames on; a view that followed the first had moved.
      await send('And a line after it');
      await belowView();
      assert.equal(await scrollTop(), 0, 'the view stays where the person put it');

      // Back at the end, it follows again.
      await page.mouse.wheel(0, 100_000);
      await settles(belowView);
      await send('A line written once the person is back at the end');
      const again = await settles(belowView);
      assert.ok(again < 2, `the newest line is in view again (${again} px below it)`);
      await screenshot(page, 'chat-follow');
      await options({ wsMessagesPerSecond: 20 });
    });
  });
});
