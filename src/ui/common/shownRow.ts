import type * as vscode from 'vscode';
import { visibleControls } from '../../core/shownText';

/**
 * A row's label and description as text that cannot act on the display: a right-to-left override in a name
 * (`invoice\u202Etxt.exe`) or a control character is shown as its code, as the row's hover shows it.
 */
export function shownRow(item: vscode.TreeItem): vscode.TreeItem {
  if (typeof item.label === 'string') item.label = visibleControls(item.label);
  else if (item.label && !item.label.highlights?.length) item.label = { label: visibleControls(item.label.label) };
  if (typeof item.description === 'string') item.description = visibleControls(item.description);
  return item;
}
