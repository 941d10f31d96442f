import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable';
import { Command } from '../ids';
import type { Connection } from '../connection/connection';
import type { WebhookSecrets } from '../connection/webhookSecrets';
import type { Log } from '../log';
import type { ProfileModels } from '../model/profileModels';
import { AlertWatcher } from './alertWatcher';
import { registerDniReservationCommand } from './dniReservation';
import { registerExternalEventCommand } from './externalEvent';
import { registerOutboundCallCommand } from './outboundCall';
import { registerWebhookReceiver } from './receiverView';

/** What the runtime tools need from the composition root. */
export interface RuntimeToolsDeps {
  connection: Connection;
  webhookSecrets: WebhookSecrets;
  log: Log;
  models: ProfileModels<object>;
  /** Where Send External Event remembers the last values sent per profile. */
  memory: vscode.Memento;
}

/** The tools an agent builder uses while building: test calls, number reservations, external events, the webhook receiver and the alerts watcher. */
export function registerRuntimeTools(deps: RuntimeToolsDeps): DisposableStore {
  const { connection } = deps;
  const store = new DisposableStore();
  for (const tool of [
    // The call's conversation opens in the transcript viewer, which waits for it to be recorded.
    registerOutboundCallCommand(connection, deps.models, (callSid) =>
      vscode.commands.executeCommand(Command.openConversation, {
        conversationId: callSid,
        callSid,
        awaitRecordingMs: 10 * 60_000,
      }),
    ),
    registerDniReservationCommand(connection, deps.models),
    registerExternalEventCommand(connection, deps.memory),
    registerWebhookReceiver(connection, deps.models, deps.webhookSecrets, deps.log),
    new AlertWatcher(deps.models, deps.log),
  ])
    store.add(tool);
  return store;
}
