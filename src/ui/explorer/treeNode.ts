import * as vscode from 'vscode';
import { relativeWords } from '../../protocol/timeWords';
import { Command, ItemContext } from '../ids';
import { firstSentence } from '../common/failure';
import { markdownText } from '../../core/shownText';

/** A node of an Agent Workbench tree. Small classes own their TreeItem and children. */
export abstract class TreeNode {
  constructor(readonly parent: TreeNode | undefined) {}

  /** Stable and unique within the tree, so selection and expansion survive refreshes. */
  abstract get id(): string;

  abstract getTreeItem(): vscode.TreeItem;

  /** A tooltip built only when the item is hovered (VS Code asks through resolveTreeItem). */
  tooltip(): vscode.MarkdownString | string | undefined {
    return undefined;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([]);
  }

  /** Forgets cached children (of this node and below). */
  invalidate(): void {
    // leaf: nothing cached
  }
}

/**
 * A node whose children come from the platform: loaded once, cached until refreshed. A load
 * that fails shows one error node with a Retry action instead of throwing into the tree.
 */
export abstract class LoadingNode extends TreeNode {
  private cached: Promise<TreeNode[]> | undefined;
  private loadedChildren: TreeNode[] | undefined;

  protected abstract loadChildren(): Promise<TreeNode[]>;

  override getChildren(): Promise<TreeNode[]> {
    if (!this.cached) {
      // A refresh during the load starts a new one: the older load then changes nothing.
      const pending: Promise<TreeNode[]> = this.loadChildren().then(
        (children) => {
          if (this.cached === pending) this.loadedChildren = children;
          return children;
        },
        (err: unknown) => {
          if (this.cached === pending) {
            this.cached = undefined;
            this.loadedChildren = undefined;
          }
          return [new ErrorNode(this, err)];
        },
      );
      this.cached = pending;
    }
    return this.cached;
  }

  /** Children already loaded, without loading. */
  get children(): readonly TreeNode[] | undefined {
    return this.loadedChildren;
  }

  override invalidate(): void {
    this.loadedChildren?.forEach((c) => c.invalidate());
    this.cached = undefined;
    this.loadedChildren = undefined;
  }
}

/** Stands in for children that could not be loaded; clicking it retries. */
export class ErrorNode extends TreeNode {
  readonly message: string;

  constructor(
    parent: TreeNode,
    readonly error: unknown,
  ) {
    super(parent);
    this.message = error instanceof Error ? error.message : String(error);
  }

  get id(): string {
    return `${this.parent!.id}/error`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      vscode.l10n.t('Could not load: {0}', firstSentence(this.message)),
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.tooltip = new vscode.MarkdownString(
      `${markdownText(this.message)}\n\n${vscode.l10n.t('Click to try again.')}`,
    );
    item.contextValue = ItemContext.error();
    item.command = { command: Command.refreshNode, title: vscode.l10n.t('Retry'), arguments: [this.parent] };
    return item;
  }
}

/** A plain informational leaf (for example "No deployments yet", or a line of details with its value). */
export class InfoNode extends TreeNode {
  constructor(
    parent: TreeNode,
    private readonly key: string,
    private readonly label: string,
    private readonly icon = 'info',
    private readonly description?: string,
  ) {
    super(parent);
  }

  get id(): string {
    return `${this.parent!.id}/${this.key}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = ItemContext.info();
    if (this.description) {
      item.description = this.description;
      item.tooltip = `${this.label}: ${this.description}`;
    }
    return item;
  }
}

/** A leaf that runs a command when chosen (mouse, Enter or Space), for example "Import Phone Numbers…". */
export class ActionNode extends InfoNode {
  constructor(
    parent: TreeNode,
    key: string,
    label: string,
    icon: string,
    private readonly command: vscode.Command,
  ) {
    super(parent, key, label, icon);
  }

  override getTreeItem(): vscode.TreeItem {
    const item = super.getTreeItem();
    item.command = this.command;
    item.tooltip = this.command.tooltip ?? this.command.title;
    return item;
  }
}

/** "3 minutes ago" style text for a timestamp (in the one wording of relativeWords), with the exact time for tooltips. */
export function when(iso: string | null | undefined): { relative: string; exact: string } {
  if (!iso) return { relative: '', exact: '' };
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return { relative: iso, exact: iso };
  return {
    relative: relativeWords(t, Date.now(), vscode.env.language),
    exact: new Date(t).toLocaleString(vscode.env.language),
  };
}

/** The exact time of a platform timestamp, or the platform's text when it is not one (for hovers). */
export function exactTime(iso: string): string {
  return when(iso).exact;
}
