import * as vscode from 'vscode';
import { type ChatSettings, type ChatTarget, isChatSnapshot } from '../../../protocol/chat';
import { runCommand, UserFacingError } from '../../common/commandSupport';
import { prompts } from '../../common/prompts';
import type { Connection } from '../../connection/connection';
import { AgentNode, BranchNode } from '../../explorer/agents/agentNodes';
import { EnvironmentDeploymentsNode } from '../../explorer/agents/deploymentNodes';
import { Command } from '../../ids';
import type { Log } from '../../log';
import { OpenPanels } from '../openPanels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import { CHAT_VIEW_TYPE, ChatPanel, type ChatPanelOptions } from './chatPanel';
import { AGENT_MANIFEST, parseAgentManifest } from '../../../workspace/agentManifest';
import { conversationFilters, readConversation } from './conversationFile';

/** What Open Chat accepts besides a tree node: the settings to start with (palette, tests, benchmarks). */
export type OpenChatArgs = Partial<Omit<ChatSettings, 'target'>> & { target?: ChatTarget } & ChatPanelOptions;

/** The panel options of a command's argument; anything else tunes nothing. */
function panelOptionsOf(arg: unknown): ChatPanelOptions {
  return arg && typeof arg === 'object' && (arg as ChatPanelOptions).ackPaint === true ? { ackPaint: true } : {};
}

/** The target of a tree node the command was run on. */
function targetOf(arg: unknown): ChatTarget | undefined {
  if (arg instanceof AgentNode) return { label: arg.agent.name, agentId: arg.agent.agentId };
  if (arg instanceof BranchNode)
    return {
      label: `${arg.agentNode.agent.name} (${arg.branch.name})`,
      agentId: arg.agentNode.agent.agentId,
      branchId: arg.branch.branchId,
    };
  if (arg instanceof EnvironmentDeploymentsNode) {
    const agent = arg.group.agentNode.agent;
    return { label: `${agent.name} (${arg.environment})`, agentId: agent.agentId, environment: arg.environment };
  }
  return undefined;
}

/**
 * The target of a checked-out agent folder (or its agent.json) chosen in the Explorer: the agent and
 * branch its agent.json names, when the folder belongs to the profile in use.
 */
async function targetOfFolder(uri: vscode.Uri, connection: Connection): Promise<ChatTarget> {
  const file = uri.path.endsWith(`/${AGENT_MANIFEST}`) ? uri : vscode.Uri.joinPath(uri, AGENT_MANIFEST);
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    throw new UserFacingError(
      vscode.l10n.t(
        '{0} is not a checked-out agent folder: it has no {1}.',
        vscode.workspace.asRelativePath(uri),
        AGENT_MANIFEST,
      ),
    );
  }
  const manifest = parseAgentManifest(text);
  if (!manifest)
    throw new UserFacingError(
      vscode.l10n.t('{0} does not say which agent and branch the folder holds.', vscode.workspace.asRelativePath(file)),
    );
  const active = connection.profiles.active;
  if (active && manifest.profile !== active.id) {
    throw new UserFacingError(
      vscode.l10n.t(
        'This folder belongs to the connection profile "{0}", not "{1}": switch profile to chat with {2}.',
        manifest.profile,
        active.name,
        manifest.name,
      ),
    );
  }
  return {
    label: `${manifest.name} (${manifest.branch.name})`,
    agentId: manifest.agentId,
    branchId: manifest.branch.branchId,
  };
}

/** Asks how to talk to the agent when the command was not told. */
async function pickMode(): Promise<Pick<ChatSettings, 'mode' | 'streaming'> | undefined> {
  const picks = [
    {
      label: vscode.l10n.t('Messaging, streamed'),
      detail: vscode.l10n.t('WebSocket session; answers arrive as they are written'),
      mode: 'messaging' as const,
      streaming: true,
    },
    {
      label: vscode.l10n.t('Messaging'),
      detail: vscode.l10n.t('WebSocket session; whole answers'),
      mode: 'messaging' as const,
      streaming: false,
    },
    {
      label: vscode.l10n.t('Chat API'),
      detail: vscode.l10n.t('Turn-based REST: create, respond, close'),
      mode: 'chatApi' as const,
      streaming: false,
    },
  ];
  const pick = await prompts.pick(picks, {
    title: vscode.l10n.t('Open Chat'),
    placeHolder: vscode.l10n.t('How to talk to the agent'),
    // Kept open when focus moves (a walkthrough marking its step done as the command starts).
    ignoreFocusOut: true,
  });
  return pick && { mode: pick.mode, streaming: pick.streaming };
}

/** Open Chat (from the tree, the palette or a saved file), Restart, Save Conversation, Copy Conversation Id. */
export function registerChatCommands(extensionUri: vscode.Uri, connection: Connection, log: Log): vscode.Disposable {
  const panels = new OpenPanels<ChatPanel>();
  const adopt = (panel: ChatPanel): ChatPanel => panels.add(panel);

  function createPanel(title: string): vscode.WebviewPanel {
    // The first chat opens where the person is; more open beside it, so several can be compared.
    const column = panels.size > 0 ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    return vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, title, column, panelOptions(extensionUri));
  }

  function active(): ChatPanel {
    const panel = panels.active;
    if (!panel) throw new UserFacingError(vscode.l10n.t('Open a chat first (Agent Workbench: Open Chat).'));
    return panel;
  }

  async function openChat(arg?: unknown): Promise<ChatPanel | undefined> {
    const args: OpenChatArgs =
      arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) && targetOf(arg) === undefined
        ? (arg as OpenChatArgs)
        : {};
    const folder = arg instanceof vscode.Uri ? await targetOfFolder(arg, connection) : undefined;
    const target = targetOf(arg) ??
      folder ??
      args.target ?? { label: connection.profiles.active?.name ?? vscode.l10n.t('agent') };
    const mode = args.mode ? { mode: args.mode, streaming: args.streaming ?? false } : await pickMode();
    if (!mode) return undefined;
    const settings: ChatSettings = {
      ...mode,
      target,
      ...(args.variantId ? { variantId: args.variantId } : {}),
      ...(args.integrationAttributes ? { integrationAttributes: args.integrationAttributes } : {}),
      ...(args.asrLanguage ? { asrLanguage: args.asrLanguage } : {}),
      ...(args.ttsLanguage ? { ttsLanguage: args.ttsLanguage } : {}),
    };
    const panel = createPanel(vscode.l10n.t('Chat: {0}', target.label));
    return adopt(new ChatPanel(panel, extensionUri, connection, log, settings, { ackPaint: args.ackPaint === true }));
  }

  /** Open Saved Conversation: the file is always the person's choice. `options` only tunes the panel (benchmarks). */
  async function openSaved(options: ChatPanelOptions = {}): Promise<ChatPanel | undefined> {
    const uri = await prompts.openFile({
      title: vscode.l10n.t('Open Saved Conversation'),
      filters: conversationFilters(),
    });
    if (!uri) return undefined;
    const snapshot = await readConversation(uri);
    return adopt(
      new ChatPanel(
        createPanel(vscode.l10n.t('Chat: {0}', snapshot.settings.target.label)),
        extensionUri,
        connection,
        log,
        snapshot.settings,
        options,
        snapshot,
      ),
    );
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.openChat, (arg?: unknown) => runCommand(() => openChat(arg))),
    vscode.commands.registerCommand(Command.openSavedConversation, (options?: unknown) =>
      runCommand(() => openSaved(panelOptionsOf(options))),
    ),
    vscode.commands.registerCommand(Command.restartChat, () => runCommand(() => active().restart())),
    vscode.commands.registerCommand(Command.saveConversation, () => runCommand(() => active().save())),
    vscode.commands.registerCommand(Command.copyConversationId, () =>
      runCommand(async () => {
        const id = await active().copyConversationId();
        if (!id) throw new UserFacingError(vscode.l10n.t('This chat has no conversation id yet.'));
        return id;
      }),
    ),
    vscode.commands.registerCommand(Command.openChatTranscript, () => runCommand(() => active().openTranscript())),
    registerPanelSerializer(CHAT_VIEW_TYPE, {
      // A panel that was open when the window closed comes back with its conversation, not connected.
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<ChatPanel | undefined> {
        if (!isChatSnapshot(state)) {
          panel.dispose();
          return undefined;
        }
        return adopt(new ChatPanel(panel, extensionUri, connection, log, state.settings, {}, state));
      },
    }),
    panels,
  );
}
