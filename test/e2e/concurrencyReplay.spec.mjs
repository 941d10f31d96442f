// The concurrency chart and a conversation replay in the workbench, from the demo data. The webview's page
// sits two frames deep.
import assert from 'node:assert/strict';
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
import { LocalAdmin } from '../support/localAdmin.ts';

const HOSTILE = '<img src=x onerror="pwned=1"> \u202Eevil\u202C';

describe('Concurrency chart and replay in the workbench', { timeout: 300_000 }, () => {
  let wb;
  let origin;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-concurrency' });
  });
  after(async () => {
    await wb?.close();
  });

  /** The page of the active webview panel. */
  const panel = () => wb.page.frameLocator('iframe.webview').last().frameLocator('iframe#active-frame');

  it('charts the last day of the demo week by variant with the deployments marked, and reads a window with the keyboard', async () => {
    const { page } = wb;
    await step(page, 'concurrency-chart', async () => {
      await showAgentWorkbench(page);
      origin = await startLocalPlatform(page);
      // From the agent in the tree, so its deployments are marked on the time axis.
      const agent = page.locator('.sidebar .monaco-list-row', {
        has: page.locator('.label-name', { hasText: /^Support Desk$/ }),
      });
      await agent.waitFor();
      const items = await openContextMenu(page, agent);
      assert.ok(items.includes('Open Concurrency Chart'), items.join(', '));
      await chooseMenuItem(page, 'Open Concurrency Chart');
      await panel().locator('.plot canvas').waitFor();
      await panel().locator('vscode-checkbox#slice').click();
      await panel().locator('vscode-button#show').click();
      await panel().locator('.u-legend', { hasText: 'Friendly Tone' }).waitFor();
      await panel().locator('.status', { hasText: 'five-minute windows' }).waitFor();
      await panel().locator('.deployments li', { hasText: 'deployment, Version' }).first().waitFor();
      await panel().locator('.plot').focus();
      await page.keyboard.press('End');
      await panel()
        .locator('.readout', { hasText: /UTC: Default \d+, Friendly Tone \d+/ })
        .waitFor();
      await screenshot(page, 'concurrency-chart');

      // A week and a minute is refused in the page, before anything is sent.
      const end = panel().locator('vscode-textfield#end');
      const start = await panel()
        .locator('vscode-textfield#start')
        .evaluate((e) => e.value);
      await end.evaluate((e, v) => (e.value = v), new Date(Date.parse(start) + 7 * 86_400_000 + 60_000).toISOString());
      await panel().locator('vscode-button#show').click();
      await panel().locator('.problem', { hasText: 'longer than a week' }).waitFor();
    });
  });

  it('replays a demo conversation side by side, the differences marked, hostile text shown as text', async () => {
    const { page } = wb;
    await step(page, 'replay', async () => {
      const res = await fetch(`${origin}/runtime/v3/acme/support-desk/conversations?client_env=live&limit=200`, {
        headers: { 'x-api-key': 'lp_conversations_key' },
      });
      const { conversations } = await res.json();
      const recorded = conversations.find((c) => !c.in_progress && !c.handoff && c.turns.length >= 3);
      assert.ok(recorded, 'a demo conversation to replay');
      // A teammate renames the agent and publishes to sandbox, where the chat connector is served.
      await LocalAdmin.atOrigin(origin).editBranch('ag_support', 'br_support_main', {
        behavior: `# Support Desk\n\nYou are Robin, the desk of Acme ${HOSTILE}.`,
      });
      await fetch(`${origin}/build/v1/agents/ag_support/deployments/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'lp_agents_key' },
        body: JSON.stringify({ environment: 'sandbox' }),
      });
      await runCommand(page, 'Agent Workbench: Replay Conversation');
      const input = page.locator('.quick-input-widget input.input');
      await input.fill(recorded.id);
      await page.keyboard.press('Enter');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: "The connector's default variant" })
        .first()
        .click();
      await panel().locator('.status', { hasText: 'answers differ from the recording' }).waitFor();
      const greeting = panel().locator('.turn').first();
      await greeting.locator('ins', { hasText: 'Robin' }).first().waitFor();
      assert.ok((await greeting.locator('del').count()) > 0, 'recorded words that are gone are marked');
      assert.equal(
        await greeting.locator('.answer.recorded .text').innerText(),
        recorded.turns[0].agent_response,
        'the recorded answer reads as it was recorded, marks and all',
      );
      const now = await greeting.locator('.answer.replayed .text').innerText();
      assert.match(now, /<img src=x onerror="pwned=1">/, 'markup from the agent is shown as typed');
      assert.match(now, /⟦U\+202E⟧evil⟦U\+202C⟧/, 'the right-to-left override is shown, not obeyed');
      assert.equal(await panel().locator('.turn img, .turn script').count(), 0, 'no element made from agent text');
      for (const f of page.frames()) {
        const pwned = await f.evaluate(() => globalThis.pwned).catch(() => undefined);
        assert.equal(pwned, undefined, `nothing ran in ${f.url()}`);
      }
      await screenshot(page, 'replay');
    });
  });
});
