import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, getExtension } from '../support/editor/extension';

suite('Extension in VS Code', () => {
  test('runs in VS Code 1.100', () => {
    assert.match(vscode.version, /^1\.100\./);
  });

  test('is installed and activates', async () => {
    const ext = getExtension();
    const exports = await activateExtension();
    assert.equal(ext.isActive, true);
    assert.equal(typeof exports.activationTimeMs, 'number');
    assert.ok(exports.activationTimeMs >= 0);
  });

  test('registers every command it contributes, and contributes every command it registers', async () => {
    await activateExtension();
    const contributed = (
      getExtension().packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    assert.ok(contributed.includes('agentWorkbench.startLocalPlatform'));
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    // VS Code adds commands of its own for each view (agentWorkbench.agents.focus and the like).
    const views = Object.values(
      (getExtension().packageJSON as { contributes: { views: Record<string, { id: string }[]> } }).contributes.views,
    )
      .flat()
      .map((v) => `${v.id}.`);
    const extra = [...registered].filter(
      (c) => c.startsWith('agentWorkbench.') && !views.some((v) => c.startsWith(v)) && !contributed.includes(c),
    );
    assert.deepEqual(extra, [], `registered but not contributed: ${extra.join(', ')}`);
  });

  test('contributes the Agents view in its own activity bar container', () => {
    const contributes = (
      getExtension().packageJSON as {
        contributes: { viewsContainers: { activitybar: { id: string }[] }; views: Record<string, { id: string }[]> };
      }
    ).contributes;
    assert.ok(contributes.viewsContainers.activitybar.some((c) => c.id === 'agentWorkbench'));
    assert.ok(contributes.views.agentWorkbench?.some((v) => v.id === 'agentWorkbench.agents'));
  });

  test("the editor applies its default that hides a checked-out folder's .workbench bookkeeping (beside an agent.json) from the Explorer", () => {
    const exclude = vscode.workspace.getConfiguration('files').inspect<Record<string, unknown>>('exclude');
    assert.deepEqual(exclude?.defaultValue?.['**/.workbench'], { when: 'agent.json' });
    // VS Code's own defaults are kept beside it.
    assert.equal(exclude?.defaultValue?.['**/.git'], true);
  });
});
