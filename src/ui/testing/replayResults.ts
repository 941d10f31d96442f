import * as vscode from 'vscode';
import type { ChangeKind, ReplayedConversation } from '../../agentTests/compare/replayTraffic';
import { Disposable } from '../../core/disposable';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { runCommand, UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command, ItemContext, View } from '../ids';
import { type SavedCases, saveCasesFile, type SavedTest, saveConversationAsTest } from './saveAsTest';
import { type EditorReplay, openReplayReport, type TrafficReplays } from './trafficReplay';

/** A group of a replay the view lists: the change kinds and unchanged (savable as cases), and the failures. */
export type ReplayGroupName = ChangeKind | 'unchanged' | 'failed' | 'not replayed';

export type ReplayNode =
  | { readonly kind: 'replay'; readonly replay: EditorReplay }
  | { readonly kind: 'group'; readonly replay: EditorReplay; readonly group: ReplayGroupName }
  | { readonly kind: 'conversation'; readonly replay: EditorReplay; readonly conversation: ReplayedConversation };

/** A group whose conversations replayed to the end: casesOfGroup writes them. */
const savable = (g: ReplayGroupName): g is ChangeKind | 'unchanged' => g !== 'failed' && g !== 'not replayed';

/** The ids of a group, in the order selected. */
export function groupIds(replay: EditorReplay, group: ReplayGroupName): readonly string[] {
  const r = replay.result;
  if (group === 'failed') return r.conversations.filter((c) => c.status === 'failed').map((c) => c.id);
  if (group === 'not replayed') return r.conversations.filter((c) => c.status === 'not replayed').map((c) => c.id);
  return r.groups[group];
}

/**
 * The Replay Results view (under Testing): each replay made in the editor, newest first, with its groups (the
 * change kinds with conversations in them, unchanged, failed and not replayed) and their conversations. A group
 * and a conversation save as test cases in one click; a conversation opens its original transcript.
 */
export class ReplayResultsTree extends Disposable implements vscode.TreeDataProvider<ReplayNode> {
  private readonly _onDidChangeTreeData = this.register(new vscode.EventEmitter<ReplayNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(private readonly replays: TrafficReplays) {
    super();
    this.register(replays.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
  }

  getChildren(node?: ReplayNode): ReplayNode[] {
    if (!node) return [...this.replays.replays].reverse().map((replay) => ({ kind: 'replay', replay }));
    if (node.kind === 'replay') {
      const groups: ReplayGroupName[] = [...agentTestsRuntime().CHANGE_KINDS, 'unchanged', 'failed', 'not replayed'];
      return groups
        .filter((g) => groupIds(node.replay, g).length > 0)
        .map((group) => ({ kind: 'group', replay: node.replay, group }));
    }
    if (node.kind === 'group') {
      const byId = new Map(node.replay.result.conversations.map((c) => [c.id, c]));
      return groupIds(node.replay, node.group).flatMap((id) => {
        const conversation = byId.get(id);
        return conversation ? [{ kind: 'conversation' as const, replay: node.replay, conversation }] : [];
      });
    }
    return [];
  }

  getTreeItem(node: ReplayNode): vscode.TreeItem {
    if (node.kind === 'replay') {
      const { replay } = node;
      const n = replay.result.counts;
      const item = new vscode.TreeItem(
        vscode.l10n.t('{0} against {1}', replay.labels.source, replay.labels.candidate),
        replay === this.replays.replays.at(-1)
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = replay.id;
      item.description = vscode.l10n.t(
        '{0} changed of {1}{2}',
        n.changed,
        n.replayed,
        replay.result.cancelled
          ? vscode.l10n.t(', cancelled')
          : replay.result.unreachable
            ? vscode.l10n.t(', stopped')
            : '',
      );
      item.tooltip = [replay.summary, ...replay.notes].join('\n\n');
      item.iconPath = new vscode.ThemeIcon(n.changed > 0 || n.failed > 0 ? 'warning' : 'pass');
      item.contextValue = ItemContext.replay();
      return item;
    }
    if (node.kind === 'group') {
      const count = groupIds(node.replay, node.group).length;
      const item = new vscode.TreeItem(node.group, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.replay.id}/${node.group}`;
      item.description = String(count);
      item.iconPath = new vscode.ThemeIcon(
        node.group === 'unchanged'
          ? 'pass'
          : node.group === 'failed'
            ? 'error'
            : node.group === 'not replayed'
              ? 'circle-slash'
              : 'diff',
      );
      item.contextValue = savable(node.group) ? ItemContext.replayGroup() : ItemContext.replayFailures();
      return item;
    }
    const c = node.conversation;
    const item = new vscode.TreeItem(c.id, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.replay.id}/${c.groups.join(',') || c.status}/${c.id}`;
    const origin = [c.record.channel, c.record.variant_name || c.record.variant_id].filter(Boolean).join(', ');
    const said = c.status === 'replayed' ? c.changes[0]?.detail : c.reason;
    item.description = [origin, said].filter(Boolean).join(' · ');
    item.tooltip = [
      ...c.changes.map((ch) => `${ch.kind}: ${ch.detail}`),
      ...(c.reason ? [c.reason] : []),
      ...(c.replayId ? [vscode.l10n.t('Replayed as {0}', c.replayId)] : []),
    ].join('\n');
    item.contextValue = c.recorded ? ItemContext.replayConversation() : ItemContext.replayFailures();
    item.command = {
      command: Command.openConversation,
      title: vscode.l10n.t('Open Conversation'),
      arguments: [
        {
          conversationId: c.id,
          environment: node.replay.environments.source,
          ...(node.replay.agentId ? { agentId: node.replay.agentId } : {}),
        },
      ],
    };
    return item;
  }
}

/** Save as Test Cases on a group: every conversation of it as a case, in a new file of the agent folder's tests/. */
export async function saveGroupAsTests(replay: EditorReplay, group: ReplayGroupName): Promise<SavedCases | undefined> {
  if (!savable(group))
    throw new UserFacingError(
      vscode.l10n.t(
        'The {0} conversations did not replay to the end: save them one at a time, or replay them again.',
        group,
      ),
    );
  const kind = group;
  const runtime = agentTestsRuntime();
  if (!runtime.casesOfGroup(replay.result, kind, replay.agentId))
    throw new UserFacingError(vscode.l10n.t('The group {0} has no conversation with lines to save.', group));
  const saved = await saveCasesFile(
    replay.agentId,
    (taken) => runtime.groupCasesFileName(kind, taken),
    (agentId) => runtime.casesOfGroup(replay.result, kind, agentId) ?? '',
  );
  if (saved)
    void prompts.info(
      vscode.l10n.t(
        'Saved {0} conversations of {1} as test cases in {2}. Each pins what the original did: run it against {3} to see what changed.',
        saved.count,
        group,
        vscode.workspace.asRelativePath(saved.uri),
        replay.labels.candidate,
      ),
    );
  return saved;
}

/** Save as Test Case on a conversation: the save-as-test flow of a transcript, with the original's lines. */
export async function saveReplayedAsTest(
  replay: EditorReplay,
  conversation: ReplayedConversation,
): Promise<SavedTest | undefined> {
  if (!conversation.recorded)
    throw new UserFacingError(vscode.l10n.t('{0} has no lines to save as a test case.', conversation.id));
  return saveConversationAsTest(conversation.recorded, replay.agentId);
}

/** The view and its commands: Replay Traffic…, Open Replay Report, Save as Test Cases, Clear. */
export function registerReplayResults(replays: TrafficReplays): vscode.Disposable {
  const tree = new ReplayResultsTree(replays);
  const view = vscode.window.createTreeView(View.replayResults, { treeDataProvider: tree, showCollapseAll: true });
  const replayOf = (node: unknown): EditorReplay | undefined =>
    node && typeof node === 'object' && 'replay' in node ? (node as ReplayNode).replay : replays.replays.at(-1);
  return vscode.Disposable.from(
    tree,
    view,
    vscode.commands.registerCommand(Command.replayTraffic, (arg?: unknown) =>
      runCommand(async () => {
        const done = await replays.ask(arg);
        if (done && 'result' in done)
          await view.reveal({ kind: 'replay', replay: done }, { expand: true }).then(undefined, () => undefined);
        return done;
      }),
    ),
    vscode.commands.registerCommand(Command.openReplayReport, (node?: unknown) =>
      runCommand(async () => {
        const replay = replayOf(node);
        if (!replay) {
          void prompts.info(vscode.l10n.t('No traffic was replayed yet: run Replay Traffic… first.'));
          return;
        }
        await openReplayReport(replay);
      }),
    ),
    vscode.commands.registerCommand(Command.saveReplayGroupAsTests, (node?: ReplayNode) =>
      runCommand(async () => (node?.kind === 'group' ? saveGroupAsTests(node.replay, node.group) : undefined)),
    ),
    vscode.commands.registerCommand(Command.saveReplayedAsTest, (node?: ReplayNode) =>
      runCommand(async () =>
        node?.kind === 'conversation' ? saveReplayedAsTest(node.replay, node.conversation) : undefined,
      ),
    ),
    vscode.commands.registerCommand(Command.clearReplayResults, () => replays.clear()),
  );
}
