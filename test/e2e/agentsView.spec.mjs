// The Agent Workbench sidebar and commands, in the workbench, with the extension loaded from this tree.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
} from '../support/browser/workbench.mjs';
import { until } from '../support/until.ts';

describe('Agent Workbench in the workbench', { timeout: 240_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({ name: 'e2e-agents' });
  });
  after(async () => {
    await wb?.close();
  });
  beforeEach(async () => {
    if (wb) await resetWorkbench(wb.page);
  });

  it('the activity bar item opens the Agents view with its welcome links', async () => {
    const { page } = wb;
    await step(page, 'agents-view', async () => {
      await showAgentWorkbench(page);
      const welcome = page.locator('.sidebar .welcome-view-content').first();
      await welcome.getByText('Build, deploy and test conversational agents').waitFor();
      await welcome.getByRole('button', { name: 'Connect to a Platform' }).waitFor();
      await welcome.getByRole('button', { name: 'Start Local Platform' }).waitFor();
      await screenshot(page, 'agents-view', 'agent-workbench-welcome.png');
    });
  });

  it('Start Local Platform from the command palette says where the platform runs, and it answers there', async () => {
    const { page } = wb;
    await step(page, 'start-local-platform', async () => {
      await runCommand(page, 'Agent Workbench: Start Local Platform');
      const toast = notification(page, 'The local platform is running on');
      await toast.waitFor();
      await screenshot(page, 'local-platform-started');
      const origin = (await toast.innerText()).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      assert.ok(origin, 'the notification names the address');
      const res = await fetch(`${origin}/_local/health`);
      assert.equal(res.status, 200);
    });
  });

  it('Stop Local Platform from the command palette stops it', async () => {
    const { page } = wb;
    await step(page, 'stop-local-platform', async () => {
      const text = await notification(page, 'The local platform is running on').innerText();
      const origin = text.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
      await runCommand(page, 'Agent Workbench: Stop Local Platform');
      await until(
        `${origin} to stop answering after Stop Local Platform`,
        () =>
          fetch(`${origin}/_local/health`).then(
            () => false,
            () => true,
          ),
        { timeoutMs: 30_000, intervalMs: 250 },
      );
    });
  });
});
