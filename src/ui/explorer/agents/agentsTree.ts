import * as vscode from 'vscode';
import type { Agent } from '../../../contract/agents';
import { Disposable } from '../../../core/disposable';
import { NodeTreeProvider } from '../treeProvider';
import type { TreeNode } from '../treeNode';
import { AgentNode, type CheckedOutBranch } from './agentNodes';
import type { AgentsSource } from './agentsSource';
import { ContextKey, View } from '../../ids';

export const AGENTS_VIEW = View.agents;

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Why the Agents view is empty: drives its welcome content. */
export type AgentsViewState = 'noProfile' | 'empty' | 'error' | 'ready' | 'noMatch' | 'notListed';

/**
 * The Agents view: every agent of the workspace, filterable by name. Failures show in the view's
 * message with a retry link in the welcome content; nothing blocks the editor while loading.
 */
export class AgentsTree extends Disposable {
  readonly provider: NodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  private filterText = '';
  /** False while the platform does not list agents and the view shows those added by id. */
  private listed = true;
  private agents: Promise<Agent[]> | undefined;
  private nodes = new Map<string, AgentNode>();

  constructor(
    private readonly source: () => AgentsSource | undefined,
    private readonly checkedOut: CheckedOutBranch,
    /** What else a full refresh reloads (which branches are checked out, open read-only documents). */
    private readonly onRefresh: () => void = () => undefined,
    /** The agents added by id, shown where the platform does not list agents. */
    private readonly remembered: () => Promise<Agent[]> = () => Promise.resolve([]),
  ) {
    super();
    this.provider = this.register(new NodeTreeProvider(() => this.roots()));
    this.view = this.register(vscode.window.createTreeView(AGENTS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true }));
  }

  get filter(): string {
    return this.filterText;
  }

  setFilter(text: string): void {
    this.filterText = text.trim();
    void vscode.commands.executeCommand('setContext', ContextKey.agentsFiltered, this.filterText !== '');
    this.provider.refresh();
  }

  /** Reloads everything from the platform. */
  refresh(): void {
    this.onRefresh();
    this.listed = true;
    this.agents = undefined;
    this.nodes.clear();
    this.provider.refresh();
  }

  /** Reloads the children of the agents already shown (which branch is checked out changed). */
  refreshBranches(): void {
    for (const node of this.nodes.values()) if (node.children) this.provider.refresh(node);
  }

  /** Reloads one node's children. */
  refreshNode(node: TreeNode): void {
    this.provider.refresh(node);
  }

  /** The node of an agent, once the root was loaded. */
  agentNode(agentId: string): AgentNode | undefined {
    return this.nodes.get(agentId);
  }

  private async roots(): Promise<TreeNode[]> {
    const source = this.source();
    if (!source) {
      this.setState('noProfile');
      this.view.message = undefined;
      return [];
    }
    const pending = (this.agents ??= source.listAgents());
    let agents: Agent[];
    try {
      agents = await pending;
    } catch (err) {
      // A refresh during the load started a newer one: that one decides what the view shows.
      if (this.agents !== pending) return this.roots();
      if (isAssumptionError(err)) {
        // The platform does not list agents: the manual path is the agents added by id.
        agents = await this.remembered();
        this.listed = false;
        this.agents = Promise.resolve(agents);
        if (agents.length === 0) {
          this.setState('notListed');
          this.view.message = err instanceof Error ? err.message : String(err);
          return [];
        }
        return this.show(source, agents);
      }
      this.agents = undefined;
      this.setState('error');
      this.view.message = vscode.l10n.t('The agents could not be loaded: {0}', err instanceof Error ? err.message : String(err));
      return [];
    }
    if (this.agents !== pending) return this.roots();
    return this.show(source, agents);
  }

  private show(source: AgentsSource, agents: Agent[]): TreeNode[] {
    if (agents.length === 0) {
      this.setState('empty');
      this.view.message = undefined;
      return [];
    }
    const needle = this.filterText.toLowerCase();
    const shown = needle ? agents.filter((a) => a.name.toLowerCase().includes(needle) || a.agentId.toLowerCase().includes(needle)) : agents;
    this.setState(shown.length ? 'ready' : 'noMatch');
    this.view.message = needle
      ? vscode.l10n.t('Showing {0} of {1} agents matching "{2}"', shown.length, agents.length, this.filterText)
      : this.listed ? undefined : vscode.l10n.t('This platform does not list agents: showing the agents added by id.');
    this.view.description = needle ? vscode.l10n.t('filtered') : undefined;
    return [...shown].sort((a, b) => byName.compare(a.name, b.name)).map((a) => {
      let node = this.nodes.get(a.agentId);
      if (!node || node.agent !== a) {
        node = new AgentNode(a, source, this.checkedOut);
        this.nodes.set(a.agentId, node);
      }
      return node;
    });
  }

  private setState(state: AgentsViewState): void {
    void vscode.commands.executeCommand('setContext', ContextKey.agentsState, state);
  }
}

/** A failure of an endpoint the spec does not show (the client marks it with the assumption). */
function isAssumptionError(err: unknown): boolean {
  return err instanceof Error && err.name === 'PlatformError' && Boolean((err as { assumption?: unknown }).assumption);
}
