import * as vscode from 'vscode';
import { isReplayView, type ReplayView } from '../../../protocol/replay';
import { runCommand } from '../../common/commandSupport';
import { prompts } from '../../common/prompts';
import { reachAgentById, servedAgent } from '../../connection/agentReach';
import type { Connection } from '../../connection/connection';
import { Command, PanelType } from '../../ids';
import type { Log } from '../../log';
import type { ProfileModels } from '../../model/profileModels';
import { OpenPanels } from '../openPanels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import { ReplayPanel, replayLabel, type ReplayTarget } from './replayPanel';

/** What Replay Conversation accepts: the conversation, and (links, tests) the variant to send to; '' is the connector's default. */
export interface ReplayArgs {
  conversationId?: string;
  agentId?: string;
  variantId?: string;
}

const VARIANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The agent the active profile's Chat API reaches, by name when known. */
function servedName(connection: Connection, models: ProfileModels<object>): string {
  const profile = connection.profiles.active;
  const served = profile && servedAgent(profile, connection, models.active()?.agents.agents.peek());
  return served?.name ?? vscode.l10n.t('the agent of project {0}', profile?.projectId ?? '');
}

/**
 * Asks where to send the turns: the Chat API serves the agent of the profile's project in its environment; the
 * variant is the recording's unless the person picks another. `agentName` is that agent when known.
 */
async function pickTarget(given: string | undefined, agentName: string): Promise<ReplayTarget | undefined> {
  const agent = vscode.l10n.t('Chat API: {0}', agentName);
  if (given !== undefined) return { ...(given ? { variantId: given } : {}), label: replayLabel(agent, given) };
  const picks = [
    { label: vscode.l10n.t("The recording's variant"), variantId: RECORDED },
    { label: vscode.l10n.t("The connector's default variant"), variantId: '' },
    { label: vscode.l10n.t('Another variant…'), variantId: undefined },
  ];
  const pick = await prompts.pick(picks, {
    title: vscode.l10n.t('Replay Conversation'),
    placeHolder: vscode.l10n.t('Send the user turns to which variant?'),
  });
  if (!pick) return undefined;
  if (pick.variantId === RECORDED) return { recordedVariant: true, label: agent };
  let variantId = pick.variantId;
  if (variantId === undefined) {
    variantId = await prompts.input({
      title: vscode.l10n.t('Replay Conversation'),
      prompt: vscode.l10n.t('The variant id to send the turns to'),
      placeHolder: 'var_friendly',
      validateInput: (v) =>
        VARIANT_ID.test(v.trim()) ? undefined : vscode.l10n.t('A variant id: letters, digits, - and _ only.'),
    });
    if (variantId === undefined) return undefined;
  }
  variantId = variantId.trim();
  return { ...(variantId ? { variantId } : {}), label: replayLabel(agent, variantId) };
}

const RECORDED = '\0recorded';

/** Replay Conversation: from the palette (asks for the id), or from a conversation's detail. */
export function registerReplayCommands(
  extensionUri: vscode.Uri,
  connection: Connection,
  log: Log,
  models: ProfileModels<object>,
): vscode.Disposable {
  const panels = new OpenPanels<ReplayPanel>();

  async function replay(arg?: unknown): Promise<ReplayPanel | undefined> {
    const args: ReplayArgs = arg && typeof arg === 'object' ? (arg as ReplayArgs) : {};
    const conversationId =
      typeof args.conversationId === 'string' && args.conversationId.trim()
        ? args.conversationId.trim()
        : (
            await prompts.input({
              title: vscode.l10n.t('Replay Conversation'),
              prompt: vscode.l10n.t('The id of the recorded conversation to replay'),
              placeHolder: 'conv_…',
              validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Give a conversation id.')),
            })
          )?.trim();
    if (!conversationId) return undefined;
    // The Chat API reaches the agent of the profile's project: the one asked for, offered in one click when another.
    const reached = await reachAgentById(connection, models, args.agentId, undefined, vscode.l10n.t('Replay'));
    if (!reached) return undefined;
    const agentName = reached.agent?.name ?? servedName(connection, models);
    const target = await pickTarget(typeof args.variantId === 'string' ? args.variantId : undefined, agentName);
    if (!target) return undefined;
    const webviewPanel = vscode.window.createWebviewPanel(
      PanelType.replay,
      vscode.l10n.t('Replay: {0}', conversationId),
      vscode.ViewColumn.Active,
      panelOptions(extensionUri),
    );
    const via = connection.through(reached.profile);
    const panel = adopt(new ReplayPanel(webviewPanel, extensionUri, via, log, conversationId, target));
    void panel.start();
    return panel;
  }

  const adopt = (panel: ReplayPanel): ReplayPanel => panels.add(panel);

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.replayConversation, (arg?: unknown) => runCommand(() => replay(arg))),
    registerPanelSerializer(PanelType.replay, {
      // A replay that was open when the window closed shows what it had; one cut short says so, and Replay again runs it anew.
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        if (!isReplayView(state)) {
          webviewPanel.dispose();
          return undefined;
        }
        const cut = state.state === 'running' || state.state === 'loading';
        const view: ReplayView = cut
          ? {
              ...state,
              state: 'cancelled',
              turns: state.turns.map((t) =>
                t.state === 'waiting' || t.state === 'sending' ? { ...t, state: 'cancelled' } : t,
              ),
              message: vscode.l10n.t('The window was reloaded during the replay: Replay again to run it anew.'),
            }
          : state;
        const target: ReplayTarget = {
          label: state.target,
          ...(state.variantId ? { variantId: state.variantId } : {}),
        };
        return adopt(new ReplayPanel(webviewPanel, extensionUri, connection, log, state.conversationId, target, view));
      },
    }),
    panels,
  );
}
