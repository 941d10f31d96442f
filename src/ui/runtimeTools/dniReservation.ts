import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { requireClients, runCommand, withProgress } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import { copyAction, parseJsonObject } from './toolSupport';

/** A reserved number, as shown (also to automation and tests). */
export interface ReservedNumber {
  number: string;
  expiresAt?: string;
  attributes: Record<string, unknown>;
}

/** Reserve a temporary number that routes to the key's agent with attributes written as a JSON object. */
export function registerDniReservationCommand(connection: Connection): vscode.Disposable {
  async function reserveNumber(): Promise<ReservedNumber | undefined> {
    requireClients(connection);
    const typed = await prompts.input({
      title: vscode.l10n.t('Reserve Phone Number'),
      prompt: vscode.l10n.t('Attributes the agent receives with calls to this number, as a JSON object'),
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
      const client = requireClients(connection).dni;
      const reply = await withProgress(vscode.l10n.t('Reserving a number…'), (signal) =>
        client.reserve(attributes, signal),
      );
      const reserved: ReservedNumber = {
        number: reply.dni,
        attributes,
        ...(reply.expires_at ? { expiresAt: reply.expires_at } : {}),
      };
      const until = reserved.expiresAt
        ? ` ${vscode.l10n.t('It routes to the agent until {0}.', new Date(reserved.expiresAt).toLocaleTimeString())}`
        : '';
      void prompts.info(vscode.l10n.t('Reserved {0}.', reserved.number) + until, copyAction()).then(async (choice) => {
        if (choice === copyAction()) await vscode.env.clipboard.writeText(reserved.number);
      });
      return reserved;
    };
    // Each attempt may reserve a number: never repeated by itself.
    const attempt = (): Promise<ReservedNumber | undefined> => runCommand(send, { retry: attempt });
    return attempt();
  }

  return vscode.commands.registerCommand(Command.reserveNumber, () => runCommand(reserveNumber));
}
