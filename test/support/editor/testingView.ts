import * as vscode from 'vscode';
import type { ConversationTests } from '../../../src/ui/testing/conversationTests';
import type { ReportedItem, RunRecord } from '../../../src/ui/testing/testRun';
import { until } from '../until';

/** Test files written under a folder of the workspace, each listed by the Testing view as a person opening it sees it. */
export function testFilesUnder(tests: ConversationTests, root: vscode.Uri) {
  let n = 0;
  return async (text: string): Promise<vscode.TestItem> => {
    const uri = vscode.Uri.joinPath(root, `agent${++n}`, 'tests', 'cases.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await tests.discover();
    // Opened as a person opens a new file: its text is read at once, without waiting for the file watcher.
    await vscode.workspace.openTextDocument(uri);
    return until(`the item of ${uri.fsPath}`, () => tests.controller.items.get(uri.toString()), { timeoutMs: 90_000 });
  };
}

/** The child item of a test item with this label. */
export function childItem(item: vscode.TestItem, label: string): vscode.TestItem {
  let found: vscode.TestItem | undefined;
  item.children.forEach((c) => {
    if (c.label === label) found = c;
  });
  if (!found) throw new Error(`no item ${label} under ${item.label}`);
  return found;
}

/** What a run reported of an item; throws naming what it reported when the item is not among them. */
export function reportedOf(record: RunRecord, item: vscode.TestItem): ReportedItem {
  const reported = record.items.get(item.id);
  if (!reported) throw new Error(`${item.id} was not reported; reported: ${[...record.items.keys()].join(', ')}`);
  return reported;
}
