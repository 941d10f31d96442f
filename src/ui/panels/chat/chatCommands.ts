import type { Deployment } from '../../../contract/agents';
import * as vscode from 'vscode';
import { type ChatSettings, type ChatTarget, isChatSnapshot } from '../../../protocol/chat';
import { runCommand, UserFacingError } from '../../common/commandSupport';
import { type IDisposable, MutableDisposable } from '../../../core/disposable';
import { type AgentRef, agentRef, ensureReaches, servedAgent } from '../../connection/agentReach';
import type { ProfileModel, ProfileModels } from '../../model/profileModels';
import type { UiClients } from '../../model/platformClients';
import { chatHeader } from './chatHeader';
import { prompts } from '../../common/prompts';
import type { Connection } from '../../connection/connection';
import { checkedOutWith, profileName } from '../../connection/profileStore';
import type { ConnectionProfile } from '../../../client/profile';
import { AgentNode, BranchNode } from '../../explorer/agents/agentNodes';
import { EnvironmentDeploymentsNode } from '../../explorer/agents/deploymentNodes';
import { Command } from '../../ids';
import type { Log } from '../../log';
import { OpenPanels } from '../openPanels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import { CHAT_VIEW_TYPE, ChatPanel, type ChatPanelOptions } from './chatPanel';
import { AGENT_MANIFEST, parseAgentManifest } from '../../../workspace/agentManifest';
import { conversationFilters, readConversation } from './conversationFile';
import { tickWhenDone } from '../../walkthrough';

/** What Open Chat accepts besides a tree node: the settings to start with (palette, tests, benchmarks). */
export type OpenChatArgs = Partial<Omit<ChatSettings, 'target'>> & { target?: ChatTarget } & ChatPanelOptions;

/** What Publish to Sandbox and Chat accepts besides a tree node: the agent (and branch) pushed, and how to chat. */
export type PublishAndChatArgs = {
  agentId?: string;
  branchId?: string;
} & Partial<Pick<ChatSettings, 'mode' | 'streaming'>>;

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
  if (active && !checkedOutWith(manifest.profile, active)) {
    throw new UserFacingError(
      vscode.l10n.t(
        'This folder belongs to the connection profile "{0}", not "{1}": switch profile to chat with {2}.',
        profileName(connection.profiles, manifest.profile),
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
export function registerChatCommands(
  extensionUri: vscode.Uri,
  connection: Connection,
  log: Log,
  models: ProfileModels<UiClients>,
  /** The deployments actions returned here, per profile and agent, for a platform that does not list them. */
  keptDeployments: (profileId: string, agentId: string) => readonly Deployment[] = () => [],
): vscode.Disposable {
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
    const asked = targetOf(arg) ?? folder ?? args.target;
    const reached = await reachTarget(asked);
    if (!reached) return undefined;
    const { target, agent, profile } = reached;
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
    const chat = adopt(
      new ChatPanel(panel, extensionUri, connection, log, settings, {
        ackPaint: args.ackPaint === true,
        ...(profile ? { profileId: profile.id } : {}),
      }),
    );
    followHeader(chat, agent);
    return chat;
  }

  /**
   * The target with the profile whose runtime keys reach its agent. A target without an agent (the palette) is the
   * agent the active profile's project serves, named when known; one served by another project is offered the
   * profile of that project, or not opened.
   */
  async function reachTarget(
    asked: ChatTarget | undefined,
  ): Promise<{ target: ChatTarget; agent: AgentRef | undefined; profile?: ConnectionProfile } | undefined> {
    const profile = connection.profiles.active;
    const model = models.active();
    if (!profile || !model) return { target: asked ?? { label: vscode.l10n.t('agent') }, agent: undefined };
    if (!asked?.agentId) {
      const served = servedAgent(profile, connection, model.agents.agents.peek());
      return { target: { ...asked, label: asked?.label ?? served?.name ?? profile.name }, agent: served, profile };
    }
    const agent = await agentRef(model.agents, asked.agentId, asked.label);
    const reaching = await ensureReaches(connection, agent, vscode.l10n.t('Chat'), model.agents.agents.peek());
    return reaching && { target: asked, agent, profile: reaching };
  }

  /** Keeps the chat's header true: read on open and restart, and again when the agent's branches or deployments change. */
  function followHeader(chat: ChatPanel, agent: AgentRef | undefined): void {
    const profile = chat.profile;
    if (!profile) return;
    chat.headerSource = () => {
      // The profile as it is now: a local platform started again serves it at another address.
      const current = connection.profiles.get(profile.id) ?? profile;
      const clients =
        profile.id === connection.profiles.active?.id ? connection.clients : connection.clientsFor(current);
      if (!clients) return Promise.reject(new Error('no profile'));
      return chatHeader(profile, agent, clients, undefined, agent ? keptDeployments(profile.id, agent.agentId) : []);
    };
    void chat.refreshHeader();
    if (!agent) return;
    const watch = (model: ProfileModel | undefined) =>
      model?.agents.onDidChange((change) => {
        if ('agentId' in change && change.agentId === agent.agentId) void chat.refreshHeader();
      });
    const subscription = new MutableDisposable<IDisposable>();
    subscription.value = watch(models.active());
    const onModel = models.onDidChange((model) => {
      subscription.value = watch(model);
    });
    chat.onDidDispose(() => {
      subscription.dispose();
      onModel.dispose();
    });
  }

  /**
   * Publish to Sandbox and Chat (offered after a push): the publish command with its usual confirmation, then a
   * chat with the agent, which sandbox now serves from what was pushed. Nothing opens when nothing was published.
   */
  async function publishAndChat(arg?: unknown): Promise<ChatPanel | undefined> {
    const given = arg && typeof arg === 'object' && !(arg instanceof AgentNode) ? (arg as PublishAndChatArgs) : {};
    const publishArg =
      arg instanceof AgentNode || arg instanceof BranchNode
        ? arg
        : given.agentId
          ? { agentId: given.agentId, ...(given.branchId ? { branchId: given.branchId } : {}) }
          : undefined;
    const result = await vscode.commands.executeCommand<{ deployment?: { agentId?: string } } | undefined>(
      Command.publish,
      publishArg,
    );
    const agentId = result?.deployment?.agentId ?? given.agentId ?? targetOf(arg)?.agentId;
    if (!result || !agentId) return undefined;
    const agent = await models
      .active()
      ?.agents.find(agentId)
      .catch(() => undefined);
    return openChat({
      target: { label: agent?.name ?? agentId, agentId },
      ...(given.mode ? { mode: given.mode, streaming: given.streaming ?? false } : {}),
    });
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
    vscode.commands.registerCommand(Command.openChat, (arg?: unknown) =>
      runCommand(() => openChat(arg)).then(tickWhenDone('chat')),
    ),
    vscode.commands.registerCommand(Command.publishAndChat, (arg?: unknown) =>
      runCommand(() => publishAndChat(arg)).then(tickWhenDone('publish')),
    ),
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
    vscode.commands.registerCommand(Command.saveChatAsTest, () => runCommand(() => active().saveAsTest())),
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
