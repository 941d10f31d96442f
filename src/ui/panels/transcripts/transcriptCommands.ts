import * as vscode from 'vscode';
import type { ConversationRecord } from '../../../contract/conversations';
import {
  type ConversationFilters,
  DEFAULT_FILTERS,
  EXPORT_FORMATS,
  type ExportFormat,
  FILTER_ENVIRONMENTS,
  isConversationFilters,
  isTranscriptsSnapshot,
  type TranscriptTarget,
} from '../../../protocol/transcripts';
import { runCommand, UserFacingError } from '../../common/commandSupport';
import { prompts } from '../../common/prompts';
import { reachAgentById } from '../../connection/agentReach';
import type { Connection } from '../../connection/connection';
import { AgentNode, BranchNode } from '../../explorer/agents/agentNodes';
import type { AgentsTree } from '../../explorer/agents/agentsTree';
import { EnvironmentDeploymentsNode } from '../../explorer/agents/deploymentNodes';
import { Command, PanelType, View } from '../../ids';
import type { Log } from '../../log';
import type { TestRunConversations } from '../../model/testRunConversations';
import type { ProfileModels } from '../../model/profileModels';
import { OpenPanels } from '../openPanels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import type { LookupHints } from './conversationLookup';
import { ConversationPanel } from './conversationPanel';
import type { ConversationView, OpenConversationArgs } from './conversationView';
import { ConversationsPanel } from './conversationsPanel';
import type { TranscriptsWebviewOptions } from './transcriptsWebview';
import { tickWhenDone } from '../../walkthrough';

/** What Open Conversations accepts besides a tree node (palette, other commands, tests). */
export interface OpenConversationsArgs extends TranscriptsWebviewOptions {
  agentId?: string;
  /** The agent's name, for the panel's title. */
  label?: string;
  environment?: string;
  filters?: Partial<ConversationFilters>;
}

const isEnvironment = (v: unknown): v is ConversationFilters['environment'] =>
  (FILTER_ENVIRONMENTS as readonly unknown[]).includes(v);

/** Whose conversations a tree node stands for, and the environment it names. */
function targetOf(arg: unknown): { target: TranscriptTarget; environment?: string } | undefined {
  if (arg instanceof AgentNode) return { target: { label: arg.agent.name, agentId: arg.agent.agentId } };
  if (arg instanceof BranchNode)
    return { target: { label: arg.agentNode.agent.name, agentId: arg.agentNode.agent.agentId } };
  if (arg instanceof EnvironmentDeploymentsNode) {
    const agent = arg.group.agentNode.agent;
    return {
      target: { label: `${agent.name} (${arg.environment})`, agentId: agent.agentId },
      environment: arg.environment,
    };
  }
  return undefined;
}

function openArgsOf(arg: unknown): (OpenConversationArgs & TranscriptsWebviewOptions) | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Record<string, unknown>;
  if (typeof a.conversationId !== 'string' || !a.conversationId.trim()) return undefined;
  const hints: LookupHints = {};
  if (typeof a.environment === 'string') hints.environment = a.environment;
  if (typeof a.from === 'string') hints.from = a.from;
  if (typeof a.to === 'string') hints.to = a.to;
  return {
    conversationId: a.conversationId.trim(),
    ...(typeof a.agentId === 'string' ? { agentId: a.agentId } : {}),
    hints,
    ...(typeof a.turn === 'number' && Number.isSafeInteger(a.turn) && a.turn > 0 ? { turn: a.turn } : {}),
    ...(a.ackPaint === true ? { ackPaint: true } : {}),
    ...(typeof a.awaitRecordingMs === 'number' && a.awaitRecordingMs > 0
      ? { awaitRecordingMs: Math.min(a.awaitRecordingMs, 30 * 60_000) }
      : {}),
    ...(typeof a.callSid === 'string' && a.callSid ? { callSid: a.callSid } : {}),
    ...(typeof a.idleMs === 'number' && a.idleMs > 0 ? { idleMs: Math.min(a.idleMs, 24 * 60 * 60_000) } : {}),
  };
}

/**
 * Open Conversations (the list, from the palette, an agent or an environment of the tree), Open
 * Conversation (one, by id), Export Conversation, and showing an agent in the Agents view.
 */
export function registerTranscriptCommands(
  extensionUri: vscode.Uri,
  connection: Connection,
  log: Log,
  agents: AgentsTree,
  models: ProfileModels<object>,
  testRuns?: TestRunConversations,
): vscode.Disposable {
  const lists = new OpenPanels<ConversationsPanel>();
  const details = new OpenPanels<ConversationPanel>();

  function createPanel(type: string, title: string, beside: boolean): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      type,
      title,
      beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
      panelOptions(extensionUri),
    );
  }

  const adoptList = (p: ConversationsPanel): ConversationsPanel => lists.add(p);
  const adoptDetail = (p: ConversationPanel): ConversationPanel => details.add(p);

  function openRecord(
    record: ConversationRecord,
    agentId: string | undefined,
    options: TranscriptsWebviewOptions & { revealed?: boolean } = {},
    via: Connection = connection,
  ): ConversationPanel {
    const existing = details.all.find((d) => d.conversationId === record.id);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const args: OpenConversationArgs = { conversationId: record.id, ...(agentId ? { agentId } : {}) };
    return adoptDetail(
      new ConversationPanel(
        createPanel(PanelType.conversation, record.id, true),
        extensionUri,
        via,
        log,
        args,
        record,
        options,
      ),
    );
  }

  function newList(
    target: TranscriptTarget,
    filters: ConversationFilters,
    options: TranscriptsWebviewOptions,
    panel?: vscode.WebviewPanel,
    via: Connection = connection,
  ): ConversationsPanel {
    return adoptList(
      new ConversationsPanel(
        panel ?? createPanel(PanelType.conversations, target.label, false),
        extensionUri,
        via,
        log,
        target,
        filters,
        (record, agentId, revealed) => Promise.resolve(openRecord(record, agentId, { ...options, revealed }, via)),
        options,
        (id) => testRuns?.has(id) ?? false,
      ),
    );
  }

  /**
   * Conversations are read with the runtime keys of a project: the agent's (offered in one click on another platform
   * when the active profile's are another project's). The connection to read them through, or undefined.
   */
  const reach = async (agentId: string | undefined): Promise<Connection | undefined> => {
    const reached = await reachAgentById(connection, models, agentId, undefined, vscode.l10n.t('Conversations'));
    return reached && connection.through(reached.profile);
  };

  async function openConversations(arg?: unknown): Promise<ConversationsPanel | undefined> {
    const fromTree = targetOf(arg);
    const args: OpenConversationsArgs =
      !fromTree && arg && typeof arg === 'object' ? (arg as OpenConversationsArgs) : {};
    const target: TranscriptTarget = fromTree?.target ?? {
      label: args.label ?? connection.profiles.active?.name ?? vscode.l10n.t('project'),
      ...(args.agentId ? { agentId: args.agentId } : {}),
    };
    // The environment of the node, else the one the status bar says is worked against; newest first unless the
    // caller gives its own filters.
    const environment = fromTree?.environment ?? args.environment ?? connection.profiles.environment;
    const filters: ConversationFilters = {
      ...DEFAULT_FILTERS,
      ...(args.filters ? {} : { sort: 'newest' as const }),
      ...(isEnvironment(environment) ? { environment } : {}),
      ...args.filters,
    };
    if (!isConversationFilters(filters))
      throw new UserFacingError(vscode.l10n.t('The filters given to Open Conversations are not valid.'));
    const via = await reach(target.agentId);
    if (!via) return undefined;
    return newList(target, filters, { ...(args.ackPaint ? { ackPaint: true } : {}) }, undefined, via);
  }

  async function openConversation(arg?: unknown): Promise<ConversationPanel | undefined> {
    let args = openArgsOf(arg);
    if (!args) {
      const typed = await prompts.input({
        title: vscode.l10n.t('Open Conversation'),
        prompt: vscode.l10n.t('The id of a conversation of this project'),
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type a conversation id.')),
      });
      if (!typed) return undefined;
      args = { conversationId: typed.trim() };
    }
    const existing = details.all.find((d) => d.conversationId === args.conversationId);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const via = await reach(args.agentId);
    if (!via) return undefined;
    const { ackPaint, ...open } = args;
    return adoptDetail(
      new ConversationPanel(
        createPanel(PanelType.conversation, args.conversationId, lists.size > 0),
        extensionUri,
        via,
        log,
        open,
        undefined,
        ackPaint ? { ackPaint } : {},
      ),
    );
  }

  /** The conversation in the active panel: one of its own, or beside the active list; else the last one looked at. */
  function activeDetail(): ConversationView {
    const panel: ConversationView | undefined =
      details.all.find((d) => d.panel.active) ??
      lists.all.find((l) => l.panel.active && l.openDetail)?.openDetail ??
      details.lastActive;
    if (!panel)
      throw new UserFacingError(vscode.l10n.t('Open a conversation first (Agent Workbench: Open Conversation).'));
    return panel;
  }

  async function exportConversation(arg?: unknown): Promise<vscode.Uri | undefined> {
    const panel = activeDetail();
    const a = (arg && typeof arg === 'object' ? arg : {}) as { format?: unknown };
    let format = EXPORT_FORMATS.find((f) => f === a.format);
    if (!format) {
      const pick = await prompts.pick(
        [
          {
            label: vscode.l10n.t('Markdown'),
            detail: vscode.l10n.t('A transcript to read or share'),
            format: 'markdown' as ExportFormat,
          },
          {
            label: vscode.l10n.t('JSON'),
            detail: vscode.l10n.t('The record as the platform gave it'),
            format: 'json' as ExportFormat,
          },
        ],
        { title: vscode.l10n.t('Export Conversation'), placeHolder: vscode.l10n.t('Format') },
      );
      if (!pick) return undefined;
      format = pick.format;
    }
    return panel.export(format);
  }

  /** Shows an agent in the Agents view: the view is focused and the agent selected and expanded. */
  async function revealAgent(arg?: unknown): Promise<boolean> {
    const agentId = typeof arg === 'string' ? arg : (arg as { agentId?: unknown } | undefined)?.agentId;
    if (typeof agentId !== 'string') throw new UserFacingError(vscode.l10n.t('Name the agent to show.'));
    await vscode.commands.executeCommand(`${View.agents}.focus`);
    await agents.provider.getChildren(undefined);
    const node = agents.agentNode(agentId);
    if (!node)
      throw new UserFacingError(
        vscode.l10n.t(
          'Agent {0} is not in the Agents view (it may be hidden by the filter or belong to another profile).',
          agentId,
        ),
      );
    await agents.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  const restore = (type: string) =>
    registerPanelSerializer(type, {
      // A panel open when the window closed comes back: the list with its filters (and the conversation that was
      // beside it), a conversation read again.
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        if (!isTranscriptsSnapshot(state)) {
          panel.dispose();
          return undefined;
        }
        if (state.kind === 'list') {
          const list = newList(state.list.target, state.list.filters, {}, panel);
          if (state.detail) void list.reopen(state.detail.conversationId);
          return list;
        }
        return adoptDetail(
          new ConversationPanel(panel, extensionUri, connection, log, {
            conversationId: state.conversationId,
            ...(state.detail?.agentId ? { agentId: state.detail.agentId } : {}),
            hints: state.detail ? { environment: state.detail.environment } : {},
          }),
        );
      },
    });

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.openConversations, (arg?: unknown) =>
      runCommand(() => openConversations(arg)).then(tickWhenDone('conversations')),
    ),
    vscode.commands.registerCommand(Command.openConversation, (arg?: unknown) =>
      runCommand(() => openConversation(arg)),
    ),
    vscode.commands.registerCommand(Command.exportConversation, (arg?: unknown) =>
      runCommand(() => exportConversation(arg)),
    ),
    vscode.commands.registerCommand(Command.createTestFromConversation, () =>
      runCommand(() => activeDetail().createTest()),
    ),
    vscode.commands.registerCommand(Command.revealAgent, (arg?: unknown) => runCommand(() => revealAgent(arg))),
    restore(PanelType.conversations),
    restore(PanelType.conversation),
    lists,
    details,
  );
}
