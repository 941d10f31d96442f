import * as vscode from 'vscode';
import type { ClientEventNames } from '../contract/messaging';

const KINDS: ReadonlyArray<keyof ClientEventNames> = ['userMessage', 'userTyping', 'requestHandoff', 'endSession'];

/**
 * The client event names a person set (agentWorkbench.messaging.clientEventNames), for the `eventNames`
 * option of a messaging session: the spec shows only the join request, so the other four can be corrected
 * here without a new release. Names left unset keep the defaults of the contract's table.
 */
export function messagingEventNames(): Partial<ClientEventNames> {
  const set = vscode.workspace
    .getConfiguration('agentWorkbench.messaging')
    .get<Record<string, unknown>>('clientEventNames', {});
  const out: Partial<ClientEventNames> = {};
  for (const kind of KINDS) {
    const name = set[kind];
    if (typeof name === 'string' && name.trim() !== '') out[kind] = name.trim();
  }
  return out;
}
