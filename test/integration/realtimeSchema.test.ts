import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedPrompts } from '../support/editor/prompts';
import {} from '../support/localAdmin';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

/**
 * The config's own schema's problems, as the editor shows them (the JSON editor's are another source): under the
 * rule id the docs name, `realtime-variables`, linked to its page.
 */
const configProblems = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages
    .getDiagnostics(uri)
    .filter(
      (d) =>
        d.source === 'Agent Workbench' &&
        typeof d.code === 'object' &&
        d.code.value === 'realtime-variables' &&
        decodeURIComponent(d.code.target.toString()).includes('/docs/rules/realtime-variables.md'),
    );

/**
 * AGENT-10: a real-time config's variables are checked as typed against the schema the platform has for that config
 * (Bella Tavola's booking-rules: maxPartySize an integer from 1 to 30, no other variable than those it names), not
 * only against the shipped schema that takes any value.
 */
suite('Real-time config values checked against the config’s own schema (AGENT-10)', function () {
  this.timeout(120_000);
  let ui: ScriptedPrompts;
  let dir: string;
  let file: vscode.Uri;

  const editor = editorSuite({ seed: 'demo', reset: 'once' });
  suiteSetup(async () => {
    ({ ui } = editor);
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    dir = await mkdtemp(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'realtime-schema-'));
    const folder = join(dir, 'bella-tavola-bookings');
    const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
      agentId: 'ag_restaurant',
      branchId: 'br_restaurant_main',
      folder,
    });
    assert.equal(done, folder, ui.lastError());
    file = vscode.Uri.file(join(folder, 'realtime', 'booking-rules.json'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(dir, { recursive: true, force: true });
  });

  /** Replaces one variable's value in the open editor, unsaved, as a person types it. */
  async function type(doc: vscode.TextDocument, from: RegExp, to: string): Promise<void> {
    const text = doc.getText();
    const m = from.exec(text);
    assert.ok(m, `${from} in ${text}`);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(m.index), doc.positionAt(m.index + m[0].length)), to);
    assert.ok(await vscode.workspace.applyEdit(edit));
  }

  test('"maxPartySize": "twelve" is an error on its line as it is typed, before any push, under the rule id realtime-variables; a fitting value clears it', async () => {
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    assert.match(doc.getText(), /"maxPartySize": 12/);
    await type(doc, /"maxPartySize": 12/, '"maxPartySize": "twelve"');
    const [problem] = await until(
      'the problem of maxPartySize',
      () => configProblems(file).length > 0 && configProblems(file),
      {
        timeoutMs: 30_000,
      },
    );
    assert.match(problem!.message, /"maxPartySize" must be of type integer/);
    assert.match(problem!.message, /booking-rules/);
    assert.equal(problem!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(
      problem!.range.start.line,
      doc
        .getText()
        .split('\n')
        .findIndex((l) => l.includes('maxPartySize')),
    );
    assert.ok(doc.isDirty, 'found as typed, not on save');

    await type(doc, /"maxPartySize": "twelve"/, '"maxPartySize": 31');
    await until('the bound of maxPartySize', () =>
      configProblems(file).some((d) => /must be at most 30/.test(d.message)),
    );
    await type(doc, /"maxPartySize": 31/, '"maxPartySize": 14');
    await until('no problem once the value fits', () => configProblems(file).length === 0);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
