import * as vscode from 'vscode';
import { agentIdOf, reachAgentById, reachedAgentName } from '../connection/agentReach';
import type { Connection } from '../connection/connection';
import { requireClients, runCommand, withProgress } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import { copyAction, parseJsonObject } from './toolSupport';

/** A reserved number, as shown (also to automation and tests). */
export interface ReservedNumber {
  number: string;
  expiresAt?: string;
  attributes: Record<string, unknown>;
  /** The agent the number routes to (the one the DNI key is tied to), as the editor knows it. */
  agent?: string;
}

/** Reserve a temporary number that routes to the key's agent with attributes written as a JSON object. */
export function registerDniReservationCommand(
  connection: Connection,
  models: ProfileModels<object>,
): vscode.Disposable {
  async function reserveNumber(arg?: unknown): Promise<ReservedNumber | undefined> {
    requireClients(connection);
    const reached = await reachAgentById(connection, models, agentIdOf(arg), undefined, vscode.l10n.t('A number'));
    if (!reached) return undefined;
    // The agent the number routes to: the one the profile's runtime keys reach.
    const agentName = reached.agent?.name ?? reachedAgentName(connection, models);
    const typed = await prompts.input({
      title: agentName
        ? vscode.l10n.t('Reserve Phone Number for {0}', agentName)
        : vscode.l10n.t('Reserve Phone Number'),
      prompt: agentName
        ? vscode.l10n.t('Attributes {0} receives with calls to this number, as a JSON object', agentName)
        : vscode.l10n.t('Attributes the agent receives with calls to this number, as a JSON object'),
      value: '{}',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const parsed = parseJsonObject(v);
        return parsed.ok ? undefined : parsed.message;
      },
    });
    if (typed === undefined) return undefined;
    const parsed = parseJsonObject(typed);
    if (!parsed.ok) return undefined;
    const attributes = parsed.value;
    const send = async (): Promise<ReservedNumber> => {
      const client = requireClients(connection.through(reached.profile)).dni;
      const reply = await withProgress(vscode.l10n.t('Reserving a number…'), (signal) =>
        client.reserve(attributes, signal),
      );
      const reserved: ReservedNumber = {
        number: reply.dni,
        attributes,
        ...(reply.expires_at ? { expiresAt: reply.expires_at } : {}),
        ...(agentName ? { agent: agentName } : {}),
      };
      const until = reserved.expiresAt
        ? ` ${
            agentName
              ? vscode.l10n.t(
                  'It routes to {0} until {1}.',
                  agentName,
                  new Date(reserved.expiresAt).toLocaleTimeString(),
                )
              : vscode.l10n.t('It routes to the agent until {0}.', new Date(reserved.expiresAt).toLocaleTimeString())
          }`
        : '';
      const said = agentName
        ? vscode.l10n.t('Reserved {0} for {1}.', reserved.number, agentName)
        : vscode.l10n.t('Reserved {0}.', reserved.number);
      void prompts.info(said + until, copyAction()).then(async (choice) => {
        if (choice === copyAction()) await vscode.env.clipboard.writeText(reserved.number);
      });
      return reserved;
    };
    // Each attempt may reserve a number: never repeated by itself.
    const attempt = (): Promise<ReservedNumber | undefined> => runCommand(send, { retry: attempt });
    return attempt();
  }

  return vscode.commands.registerCommand(Command.reserveNumber, (arg?: unknown) =>
    runCommand(() => reserveNumber(arg)),
  );
}
