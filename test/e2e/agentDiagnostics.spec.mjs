// Diagnostics as typed, seen as a person sees them: text typed into a topic of a checked-out agent folder, and the
// rule engine's problems in the Problems panel with their rule ids (secret, personal-data).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openFileAtEnd, openWorkbench, runCommand, screenshot, step } from '../support/browser/workbench.mjs';
import { TEST_KEYS } from '../support/secretsScan.ts';

const MANIFEST = JSON.stringify(
  { agentId: 'ag_support', name: 'Support Desk', profile: 'local', branch: { branchId: 'br_main', name: 'main' } },
  null,
  2,
);

describe('Diagnostics of an agent folder in the Problems panel', { timeout: 300_000 }, () => {
  let wb;
  before(async () => {
    wb = await openWorkbench({
      name: 'e2e-agent-diagnostics',
      prepare: (sandbox) => {
        const folder = join(sandbox.workspace, 'support-desk');
        mkdirSync(join(folder, 'knowledge'), { recursive: true });
        writeFileSync(join(folder, 'agent.json'), `${MANIFEST}\n`);
        writeFileSync(join(folder, 'behavior.md'), 'You are the support desk of Acme stores. Be brief.\n');
        writeFileSync(join(folder, 'knowledge', 'returns.md'), '---\nname: Returns\n---\n\nReturns within 30 days.\n');
      },
    });
  });
  after(async () => {
    await wb?.close();
  });

  it('secret, personal-data: a problem typed into a topic appears in the Problems panel with its rule id', async () => {
    const { page } = wb;
    await step(page, 'agent-diagnostics', async () => {
      await openFileAtEnd(page, 'returns.md');
      await page.keyboard.type(`\nWrite to jane.doe@acme-stores.co.uk or use key ${TEST_KEYS.typedInPrompt}`);

      await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
      const rows = page.locator('.markers-panel .monaco-list-row');
      const secret = rows.filter({ hasText: 'An API key is written here' });
      const email = rows.filter({ hasText: 'An e-mail address in knowledge' });
      await secret.first().waitFor();
      await email.first().waitFor();
      assert.match(await secret.first().innerText(), /secret/, 'the row names the rule');
      assert.match(await email.first().innerText(), /personal-data/, 'the row names the rule');
      assert.ok(
        !(await rows.allInnerTexts()).some((t) => t.includes(TEST_KEYS.typedInPrompt)),
        'the key is not repeated in the Problems panel',
      );
      await screenshot(page, 'agent-diagnostics-problems');
    });
  });
});
