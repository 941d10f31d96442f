import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import type { ScriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { child, type LocalPlatformUrls, treeItems, type WorkbenchExports } from '../support/editor/extension';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

/** Check Out writes an agent's branch into a folder as files, against the local platform. */
suite('Check out into a workspace folder', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  const folders: string[] = [];
  const newFolder = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aw-checkout-'));
    folders.push(dir);
    return join(dir, 'support-desk');
  };

  const editor = editorSuite({ reset: 'once' });
  suiteSetup(() => ({ api, urls, ui } = editor));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  test("writes agent.json, behavior.md and one file per topic, with the platform's behavior", async () => {
    const folder = await newFolder();
    const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
      agentId: 'ag_support',
      branchId: 'br_support_main',
      folder,
    });
    assert.equal(done, folder, ui.lastError());
    const manifest = JSON.parse(await readFile(join(folder, 'agent.json'), 'utf8')) as {
      agentId: string;
      profile: string;
      branch: { name: string };
    };
    assert.deepEqual([manifest.agentId, manifest.profile, manifest.branch.name], ['ag_support', 'local', 'main']);
    const remote = await call<{ behavior: string }>(
      'GET',
      `${urls.build}/v1/agents/ag_support/branches/br_support_main/behavior`,
      { headers: { 'x-api-key': LOCAL_KEYS.agents } },
    );
    assert.ok((await readFile(join(folder, 'behavior.md'), 'utf8')).includes(remote.body.behavior.trim()));
    assert.match(await readFile(join(folder, 'knowledge', 'opening-hours.md'), 'utf8'), /Opening hours/);
    assert.match(ui.shown.at(-1)?.message ?? '', /checked out into/);
    // The Agents view's read-only documents are the same text as the files: their diff shows nothing. A document
    // still open from before shows what the platform held then until Refresh, as a person would press it.
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    const [agent] = await treeItems(api.agentsView);
    const main = await child(api.agentsView, agent!.node, 'main');
    const [behavior, knowledge] = await treeItems(api.agentsView, main.node);
    const topic = await child(api.agentsView, knowledge!.node, 'Opening hours');
    for (const [item, file] of [
      [behavior!.item, 'behavior.md'],
      [topic.item, join('knowledge', 'opening-hours.md')],
    ] as const) {
      const doc = await vscode.workspace.openTextDocument(item.command!.arguments![0] as vscode.Uri);
      const text = await readFile(join(folder, file), 'utf8');
      await until(`the document of ${file} to hold the file's text`, () => doc.getText() === text, {
        timeoutMs: 10_000,
        intervalMs: 50,
        detail: () => doc.getText(),
      }).catch(() => undefined);
      assert.equal(doc.getText(), text, file);
    }
  });

  test('from the palette it asks for the branch and the folder, and a folder of another agent is refused', async () => {
    const folder = await newFolder();
    ui.setAnswer((s) =>
      s.kind === 'pick' ? s.items.find((i) => i === 'main') : s.kind === 'input' ? folder : undefined,
    );
    assert.equal(
      await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', { agentId: 'ag_support' }),
      folder,
      ui.lastError(),
    );
    const other = await call<{ agentId: string }>('POST', `${urls.build}/v1/agents`, {
      headers: { 'x-api-key': LOCAL_KEYS.agents },
      body: { name: 'Other Desk', description: '' },
    });
    ui.setAnswer((s) => (s.kind === 'input' ? folder : s.kind === 'pick' ? s.items[0] : undefined));
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.checkOut', { agentId: other.body.agentId }),
      undefined,
    );
    assert.match(ui.lastError(), /already mirrors agent ag_support/);
  });
});
