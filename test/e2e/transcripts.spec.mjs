// The transcript viewer in the workbench: the list of the demo week's conversations, a conversation's
// timeline with latency bars, and hostile transcript text shown as text. The webviews' pages sit two frames deep.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
  webviewShowing,
} from '../support/browser/workbench.mjs';
import { LocalAdmin } from '../support/localAdmin.ts';

const HOSTILE_USER = '<script>top.pwned=1</script><img src=x onerror="top.pwned=2"> where is my order?';
const HOSTILE_AGENT =
  '<a href="javascript:top.pwned=3">track it here</a> \u202Eevil\u202C <b onmouseover="top.pwned=4">b</b>';

describe('Transcript viewer in the workbench', { timeout: 300_000 }, () => {
  let wb;
  let origin;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-transcripts' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('lists the demo week and opens a conversation with latency bars', async () => {
    const { page } = wb;
    await step(page, 'transcripts-list', async () => {
      await showAgentWorkbench(page);
      origin = await startLocalPlatform(page);
      await runCommand(page, 'Agent Workbench: Open Conversations');
      const list = await webviewShowing(page, '.rows .row[data-id]');
      await list.locator('.status', { hasText: /conversations? shown/ }).waitFor();
      const header = await list.locator('.row.header').innerText();
      for (const column of ['Started', 'Duration', 'Turns', 'Channel', 'Handoff', 'From', 'To', 'Variant'])
        assert.match(header, new RegExp(column));
      const numbers = await list.locator('.rows .row .number').allInnerTexts();
      assert.ok(
        numbers.filter(Boolean).every((n) => n.includes('•')),
        'numbers are masked until shown',
      );
      await screenshot(page, 'transcripts-list', 'transcripts-list.png');

      // A voice call with several turns, opened as a person would: a click on its row.
      const rows = list.locator('.rows .row[data-id]');
      const count = await rows.count();
      let opened;
      for (let i = 0; i < count && !opened; i++) {
        const cells = await rows.nth(i).locator('[role=cell]').allInnerTexts();
        if (cells[3] === 'VOICE-SIP' && Number(cells[2]) >= 4) opened = await rows.nth(i).getAttribute('data-id');
        if (opened) await rows.nth(i).click();
      }
      assert.ok(opened, 'a voice call with four turns or more is listed');
      // Beside the list, in the same page: no page to load.
      const detail = await webviewShowing(page, '.turn .latency .bar');
      assert.equal(detail, list, 'the conversation opens in the list panel');
      await detail.locator('.detail-view .title', { hasText: opened }).waitFor();
      assert.equal(await list.locator(`.rows .row.opened[data-id="${opened}"]`).count(), 1, 'its row is marked');
      const widths = await detail
        .locator('.turn .latency .bar')
        .evaluateAll((bars) => bars.map((b) => b.getBoundingClientRect().width));
      assert.ok(widths.length >= 4 && widths.every((w) => w > 0), `a latency bar per turn (${widths.join(', ')})`);
      assert.ok(new Set(widths.map(Math.round)).size > 1, 'bars of different lengths for different latencies');
      await detail.locator('.side .metrics').waitFor();
      // Metrics read as words: no UPPER_SNAKE names, no raw timestamps.
      const metricNames = await detail.locator('.side .metrics dt').allInnerTexts();
      const metricValues = await detail.locator('.side .metrics dd').allInnerTexts();
      assert.ok(metricNames.includes('Call duration'), `metric names in words: ${metricNames.join(', ')}`);
      assert.ok(!metricNames.some((n) => /^[A-Z0-9]+_[A-Z0-9_]+$/.test(n)), `no raw names: ${metricNames.join(', ')}`);
      assert.ok(
        !metricValues.some((v) => /\d{4}-\d{2}-\d{2}T\d{2}/.test(v)),
        `no raw times: ${metricValues.join(' | ')}`,
      );
      await screenshot(page, 'transcripts-detail', 'transcripts-detail.png');

      // Escape closes it and puts the person back on its row; Ctrl+Enter opens it in a tab of its own.
      await detail.locator('.detail-view .turn').first().click();
      await page.keyboard.press('Escape');
      await list.locator('.detail-view').waitFor({ state: 'detached' });
      const row = list.locator(`.rows .row[data-id="${opened}"]`);
      assert.equal(await row.evaluate((r) => r === document.activeElement), true, 'focus back on the row');
      await row.press('Control+Enter');
      await page.locator('.tab', { hasText: `Conversation ${opened}` }).waitFor();
      const own = await webviewShowing(page, '.detail-view:only-child .turn');
      assert.notEqual(own, list, 'a page of its own');
      assert.equal(await list.locator('.detail-view').count(), 0, 'not beside the list');
    });
  });

  it('the conversations table is one Tab stop; the arrow keys move the row, and Enter opens the row the keyboard is on', async () => {
    const { page } = wb;
    await step(page, 'transcripts-keyboard', async () => {
      await runCommand(page, 'Agent Workbench: Open Conversations');
      const list = await webviewShowing(page, '.rows .row[data-id]');
      await list.locator('.status', { hasText: /conversations? shown/ }).waitFor();
      const stops = await list.locator('.rows .row[data-id][tabindex="0"]').count();
      assert.equal(stops, 1, 'one row is the Tab stop of the table');
      const rows = list.locator('.rows .row[data-id]');
      await rows.first().focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const third = await rows.nth(2).getAttribute('data-id');
      const focused = await list.evaluate(() => document.activeElement?.getAttribute('data-id'));
      assert.equal(focused, third, 'two presses of the down arrow put the keyboard on the third row');
      assert.equal(await list.locator('.rows .row[data-id][tabindex="0"]').getAttribute('data-id'), third);
      await page.keyboard.press('Enter');
      await list.locator('.detail-view .title', { hasText: third }).waitFor();
    });
  });

  it('shows hostile transcript text as plain text and runs nothing', async () => {
    const { page } = wb;
    await step(page, 'transcripts-hostile', async () => {
      const admin = LocalAdmin.atOrigin(origin);
      const { now } = await admin.clock();
      const { id } = await admin.recordConversation({
        started_at: now,
        channel: 'WEBCHAT',
        turns: [
          {
            user_input: HOSTILE_USER,
            agent_response: HOSTILE_AGENT,
            intents: ['<img src=x onerror="top.pwned=5">'],
            entities: { '<b>name</b>': 'javascript:top.pwned=6' },
          },
        ],
        state: { note: '<script>top.pwned=7</script>' },
      });
      await runCommand(page, 'Agent Workbench: Open Conversation by Id');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor();
      await input.fill(id);
      await page.keyboard.press('Enter');
      const detail = await webviewShowing(page, '.turn .said.agent');
      assert.equal(
        await detail.locator('.turn script, .turn img, .turn a, .turn b, .side script, .side img, .side b').count(),
        0,
        'no element made from transcript text',
      );
      assert.equal(await detail.locator('.turn .said.user .text').innerText(), HOSTILE_USER);
      const agent = await detail.locator('.turn .said.agent .text').innerText();
      assert.match(agent, /<a href="javascript:top\.pwned=3">track it here<\/a>/);
      assert.match(agent, /⟦U\+202E⟧evil⟦U\+202C⟧/, 'the right-to-left override is shown, not obeyed');
      assert.match(await detail.locator('.turn .intent').innerText(), /<img src=x onerror/);
      assert.match(await detail.locator('.side .state').innerText(), /<script>top\.pwned=7<\/script>/);
      await detail.locator('.turn .said.agent').hover();
      await detail.locator('.turn .said.agent .text').click();
      for (const f of page.frames()) {
        const pwned = await f.evaluate(() => globalThis.pwned).catch(() => undefined);
        assert.equal(pwned, undefined, `nothing ran in ${f.url()}`);
      }
      // Find marks the words in the text, still as text.
      await detail.locator('#find input').fill('track');
      await detail.locator('.turn.match mark', { hasText: 'track' }).waitFor();
      assert.equal(await detail.locator('.turn a').count(), 0);
      await screenshot(page, 'transcripts-hostile-text');
    });
  });
});
