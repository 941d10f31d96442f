import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { registerDniReservationCommand } from './dniReservation';
import { registerExternalEventCommand } from './externalEvent';
import { registerOutboundCallCommand } from './outboundCall';

/** What the runtime tools need from the composition root. */
export interface RuntimeToolsDeps {
  connection: Connection;
}

/** The tools an agent builder uses while building: test calls, number reservations and external events. */
export function registerRuntimeTools(deps: RuntimeToolsDeps): vscode.Disposable {
  const { connection } = deps;
  return vscode.Disposable.from(
    registerOutboundCallCommand(connection),
    registerDniReservationCommand(connection),
    registerExternalEventCommand(connection),
  );
}
