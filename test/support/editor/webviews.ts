import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { checkPanelPage } from '../webviewPage';

/**
 * Checks a panel open in the editor as the editor holds it: its page's policy (no inline or eval script, a nonce of
 * its own) and the one folder its webview may load from, the extension's dist/webview.
 */
export function checkWebview(panel: vscode.WebviewPanel, where: string): void {
  const extension = vscode.extensions.getExtension('agent-workbench.agent-workbench');
  assert.ok(extension, 'the extension is installed');
  const roots = (panel.webview.options.localResourceRoots ?? []).map((u) => u.toString());
  assert.deepEqual(
    roots,
    [vscode.Uri.joinPath(extension.extensionUri, 'dist', 'webview').toString()],
    `${where}: roots`,
  );
  assert.equal(panel.webview.options.enableCommandUris ?? false, false, `${where}: no command links`);
  checkPanelPage(panel.webview.html, where, null);
}
