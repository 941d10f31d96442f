import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from '../support/editor/extension';
import { until } from '../support/until';

/** realtime/<config>.json is checked in the editor as it is typed, with the schema the extension ships. */
suite('Real-time config files in the editor', () => {
  let dir: string;

  suiteSetup(async () => {
    await activateExtension();
    dir = await mkdtemp(join(tmpdir(), 'aw-realtime-'));
    await mkdir(join(dir, 'realtime'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(dir, { recursive: true, force: true });
  });

  const problemsOf = async (text: string): Promise<vscode.Diagnostic[]> => {
    const file = join(dir, 'realtime', `config-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, text);
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(uri);
    // The JSON language server reads the file and the schema on its own time: wait for its verdict (each file
    // these tests wait for has a problem).
    return until(
      'the JSON language server to show a problem',
      () => {
        const problems = vscode.languages.getDiagnostics(uri);
        return problems.length > 0 && problems;
      },
      { intervalMs: 100 },
    );
  };

  test('a variable set to null and a file that is not an object are shown as problems', async () => {
    const nulls = await problemsOf('{\n  "holidayMode": null,\n  "maxWaitMinutes": 15\n}\n');
    assert.equal(nulls.length, 1, nulls.map((d) => d.message).join('; '));
    assert.equal(nulls[0]!.range.start.line, 1);
    const list = await problemsOf('[1, 2]\n');
    assert.ok(list.length > 0, 'a list is not a file of variables');
  });

  test('a file of variables has no problem', async () => {
    const file = join(dir, 'realtime', 'store-settings.json');
    await writeFile(file, '{\n  "holidayMode": true,\n  "hours": { "open": "09:00" },\n  "tags": ["a"]\n}\n');
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(uri);
    // Give the language server time to speak if it would; a valid file stays without problems.
    await problemsOf('{"x": null}\n');
    assert.deepEqual(vscode.languages.getDiagnostics(uri), []);
  });
});
