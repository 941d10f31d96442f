import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from '../support/editor/extension';
import { leaks, SECRETS } from '../support/secretsScan';

function filesUnder(dir: string, limit = 5000): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      if (out.length >= limit) return;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size < 20 * 1024 * 1024) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Runs last: after every other suite used the secrets, none of them may be found outside secret storage. */
suite('No secret outside secret storage', () => {
  test('[AUTH-2] the log of the extension (its output channel) holds no secret', async () => {
    const api = await activateExtension();
    const logsRoot = dirname(dirname(api.logUri.fsPath));
    const files = filesUnder(logsRoot);
    assert.ok(
      files.some((f) => f.includes('agent-workbench') || f.includes('Agent Workbench')),
      `the extension's log was found under ${logsRoot}`,
    );
    assert.deepEqual(leaks(files), []);
  });

  test('[AUTH-2] user and workspace settings and the workspace files hold no secret', () => {
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    const files = folders.flatMap((f) => filesUnder(f));
    const settings = vscode.workspace.getConfiguration('agentWorkbench');
    assert.deepEqual(leaks(files), []);
    const serialized = JSON.stringify(settings);
    for (const secret of SECRETS) assert.ok(!serialized.includes(secret), 'no secret in the agentWorkbench settings');
  });

  test('[AUTH-2] the user settings file holds no secret', async () => {
    const api = await activateExtension();
    // <user-data-dir>/logs/<session>/<window>/exthost/<extension>: the User folder sits beside logs.
    let dir = api.logUri.fsPath;
    while (dir !== dirname(dir) && !existsSync(join(dir, 'User'))) dir = dirname(dir);
    const settingsFile = join(dir, 'User', 'settings.json');
    assert.ok(existsSync(settingsFile), `user settings at ${settingsFile}`);
    assert.deepEqual(leaks([settingsFile]), []);
  });
});
