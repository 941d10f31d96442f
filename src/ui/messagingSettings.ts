import * as vscode from 'vscode';
import type { ClientEventNames } from '../contract/messaging';
import { ASSUMED_SERVER_EVENT_NAMES, type ServerEventKind, type ServerEventNames } from '../contract/serverEventNames';

const SECTION = 'agentWorkbench.messaging';
const CLIENT_KINDS: ReadonlyArray<keyof ClientEventNames> = [
  'userMessage',
  'userTyping',
  'requestHandoff',
  'endSession',
];
const SERVER_KINDS = Object.keys(ASSUMED_SERVER_EVENT_NAMES) as ServerEventKind[];

/** The names set under one setting, for the kinds given; names left unset are left out. */
function namesOf<K extends string>(setting: string, kinds: readonly K[]): Partial<Record<K, string>> {
  const set = vscode.workspace.getConfiguration(SECTION).get<Record<string, unknown>>(setting, {});
  const out: Partial<Record<K, string>> = {};
  for (const kind of kinds) {
    const name = set[kind];
    if (typeof name === 'string' && name.trim() !== '') out[kind] = name.trim();
  }
  return out;
}

/**
 * The client event names a person set (agentWorkbench.messaging.clientEventNames), for the `eventNames`
 * option of a messaging session: the spec shows only the join request, so the other four can be corrected
 * here without a new release. Names left unset keep the defaults of the contract's table.
 */
export function messagingEventNames(): Partial<ClientEventNames> {
  return namesOf('clientEventNames', CLIENT_KINDS);
}

/**
 * The server event names a person set (agentWorkbench.messaging.serverEventNames), for the `serverEventNames`
 * option of a messaging session: the spec does not name the answer, its pieces, typing, handoff or the echo of a
 * message, so a platform that names them otherwise is read once they are set here. Ours are read as well.
 */
export function messagingServerEventNames(): Partial<ServerEventNames> {
  return namesOf('serverEventNames', SERVER_KINDS);
}

/** Sets the name of one server event in the user's settings (the other names stay as they are). */
export async function setServerEventName(kind: ServerEventKind, name: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.get<Record<string, unknown>>('serverEventNames', {});
  await config.update('serverEventNames', { ...current, [kind]: name }, vscode.ConfigurationTarget.Global);
}
