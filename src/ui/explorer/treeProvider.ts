import type * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { shownRow } from '../common/shownRow';
import type { TreeNode } from './treeNode';

/** Serves a tree of TreeNodes to VS Code; refreshes one node or the whole tree. */
export class NodeTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly _onDidChangeTreeData = this.register(new Emitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(
    private readonly roots: () => Promise<TreeNode[]>,
    /** A last word on each item (such as opening what the person had open before a refresh). */
    private readonly adjust: (item: vscode.TreeItem) => vscode.TreeItem = (item) => item,
  ) {
    super();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return shownRow(this.adjust(node.getTreeItem()));
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return node ? node.getChildren() : this.roots();
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    item.tooltip ??= node.tooltip();
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Reloads a node's children, or everything when no node is given. */
  refresh(node?: TreeNode): void {
    node?.invalidate();
    this._onDidChangeTreeData.fire(node);
  }
}
