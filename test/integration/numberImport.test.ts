import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import type { ScriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import type { LocalPlatformUrls } from '../support/editor/extension';
import {} from '../support/localAdmin';
import { editorSuite } from '../support/editor/suite';

type Report = {
  imported: string[];
  duplicates: string[];
  held: Array<{ number: string; agent?: { agentId: string; name: string }; clientEnv?: string }>;
};

/** What Import Numbers tells after an import: repeats in the input, and who holds a number it did not take. */
suite('Import Numbers report', () => {
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  const agentsApi = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents }, body });
  const told = () => ui.shown.filter((s) => s.kind === 'warning' || s.kind === 'info').map((s) => s.message);

  const editor = editorSuite({ reset: 'once' });
  suiteSetup(async () => {
    ({ urls, ui } = editor);
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  test('lists numbers given twice as such, and names the agent, project and environment that hold a number already', async () => {
    const holderNumber = '+14155550161';
    const first = await vscode.commands.executeCommand<Report>(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      { numbers: [holderNumber], clientEnv: 'sandbox' },
    );
    assert.deepEqual(first?.imported, [holderNumber], ui.lastError());
    const other = await agentsApi<{ agentId: string }>('POST', '/v1/agents', {
      name: 'Number Report Check',
      description: '',
    });
    const otherId = other.body.agentId;
    ui.shown.length = 0;
    const report = await vscode.commands.executeCommand<Report>(
      'agentWorkbench.importNumbers',
      { agentId: otherId },
      { numbers: ['+14155550162', '+14155550162', holderNumber], clientEnv: 'live' },
    );
    assert.ok(report, ui.lastError());
    assert.deepEqual(report.imported, ['+14155550162']);
    assert.deepEqual(report.duplicates, ['+14155550162']);
    assert.deepEqual(
      report.held.map((h) => [h.number, h.agent?.agentId, h.clientEnv]),
      [[holderNumber, 'ag_support', 'sandbox']],
    );
    const [message] = told();
    assert.ok(message, 'the report is shown');
    assert.match(message, /Given more than once, sent once: \+14155550162\./);
    assert.match(message, /\+14155550161 \(held by Support Desk, project [\w-]+, sandbox, connector [\w-]+\)/);
    assert.doesNotMatch(message, /\btaken\b/, 'no bare "taken"');

    // Imported again to the agent that holds it: held by that same agent.
    ui.shown.length = 0;
    const again = await vscode.commands.executeCommand<Report>(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      { numbers: [holderNumber], clientEnv: 'sandbox' },
    );
    assert.deepEqual(again?.imported, []);
    assert.match(
      told()[0] ?? '',
      /Imported 0 of 1 number to Support Desk \(sandbox\)\. Not imported, already held: \+14155550161 \(held by Support Desk/,
    );
  });
});
