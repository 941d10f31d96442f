import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, recordMetric } from '../support/editor/extension';
import { writeBenchFolder } from '../support/lintBenchFolder';
import { median } from '../support/median';

/** Resolves when the diagnostics of `uri` are next published, with the time that took from `started`. */
function published(uri: vscode.Uri, started: () => number): Promise<number> {
  return new Promise((resolve) => {
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      sub.dispose();
      resolve(performance.now() - started());
    });
  });
}

/** The checks of agent folders in a real extension host, with 1,000 topics and a 100 KB behavior. */
suite('Agent folder check figures', function () {
  this.timeout(600_000);
  let dir: string;

  suiteSetup(async () => {
    await activateExtension();
    dir = await mkdtemp(join(tmpdir(), 'aw-bench-lint-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(dir, { recursive: true, force: true });
  });

  test('a folder opened, then keystrokes in its 100 KB behavior', async () => {
    const opened: number[] = [];
    let behavior: vscode.Uri | undefined;
    for (let i = 0; i < 3; i++) {
      const folder = join(dir, `agent-${i}`);
      await writeBenchFolder(folder);
      behavior = vscode.Uri.file(join(folder, 'behavior.md'));
      let t0 = 0;
      const done = published(behavior, () => t0);
      t0 = performance.now();
      await vscode.window.showTextDocument(behavior, { preview: false });
      opened.push(await done);
    }
    recordMetric('lintFolderMs', median(opened));

    const editor = vscode.window.activeTextEditor!;
    const keystrokes: number[] = [];
    for (let i = 0; i < 31; i++) {
      let t0 = 0;
      const done = published(behavior!, () => t0);
      t0 = performance.now();
      await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), 'x'));
      const ms = await done;
      // The first keystroke follows the folder's first check, which sets how soon the next ones are checked.
      if (i > 0) keystrokes.push(ms);
    }
    const sorted = keystrokes.sort((a, b) => a - b);
    recordMetric('lintKeystrokeP95Ms', sorted[Math.ceil(sorted.length * 0.95) - 1]!);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
