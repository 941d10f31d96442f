import * as vscode from 'vscode';
import { isReplayView, type ReplayView } from '../../../protocol/replay';
import { runCommand } from '../../common/commandSupport';
import { prompts } from '../../common/prompts';
import type { Connection } from '../../connection/connection';
import { Command, PanelType } from '../../ids';
import type { Log } from '../../log';
import { OpenPanels } from '../openPanels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import { ReplayPanel, type ReplayTarget } from './replayPanel';

/** What Replay Conversation accepts: the conversation, and (links, tests) the variant to send to; '' is the connector's default. */
export interface ReplayArgs {
  conversationId?: string;
  agentId?: string;
  variantId?: string;
}

const VARIANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Asks where to send the turns: the Chat API serves the chat connector's agent in its environment; the variant is chosen here. */
async function pickTarget(connection: Connection, given: string | undefined): Promise<ReplayTarget | undefined> {
  const agent = vscode.l10n.t('the agent of the Chat API connector of {0}', connection.profiles.active?.name ?? '');
  const labelOf = (variantId: string | undefined): string =>
    variantId
      ? vscode.l10n.t('Chat API: {0}, variant {1}', agent, variantId)
      : vscode.l10n.t("Chat API: {0}, the connector's default variant", agent);
  if (given !== undefined) return { ...(given ? { variantId: given } : {}), label: labelOf(given || undefined) };
  const picks = [
    { label: vscode.l10n.t("The connector's default variant"), variantId: '' },
    { label: vscode.l10n.t('Another variant…'), variantId: undefined },
  ];
  const pick = await prompts.pick(picks, {
    title: vscode.l10n.t('Replay Conversation'),
    placeHolder: vscode.l10n.t('Send the user turns to which variant?'),
  });
  if (!pick) return undefined;
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
  return { ...(variantId ? { variantId } : {}), label: labelOf(variantId || undefined) };
}

/** Replay Conversation: from the palette (asks for the id), or from a conversation's detail. */
export function registerReplayCommands(extensionUri: vscode.Uri, connection: Connection, log: Log): vscode.Disposable {
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
    const target = await pickTarget(connection, typeof args.variantId === 'string' ? args.variantId : undefined);
    if (!target) return undefined;
    const webviewPanel = vscode.window.createWebviewPanel(
      PanelType.replay,
      vscode.l10n.t('Replay: {0}', conversationId),
      vscode.ViewColumn.Active,
      panelOptions(extensionUri),
    );
    const panel = adopt(new ReplayPanel(webviewPanel, extensionUri, connection, log, conversationId, target));
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
        const target = { label: state.target, ...(state.variantId ? { variantId: state.variantId } : {}) };
        return adopt(new ReplayPanel(webviewPanel, extensionUri, connection, log, state.conversationId, target, view));
      },
    }),
    panels,
  );
}
