import { isPlatformError } from '../../client/errors';
import type { Agent } from '../../contract/agents';
import type { AgentsPlatform } from './agentsSource';

/** What the platform could say about an agent id typed by hand. */
export type AgentIdCheck =
  | { kind: 'found'; agent: Agent }
  /** A read the spec shows (the agent's phone numbers) answered: the id exists, its name is not known. */
  | { kind: 'exists' }
  /** A read the spec shows answered 404: no agent has the id. */
  | { kind: 'missing' }
  /** No read could tell; the reason in the platform's words. */
  | { kind: 'unverified'; reason: string };

/**
 * Checks an agent id. Reading one agent is an endpoint the spec does not show, so its 404 or 405 may only mean
 * that this platform lacks it: the id is then checked through the agent's phone numbers, a read the spec shows,
 * whose 404 does name the agent. Where that read fails otherwise, the id cannot be verified.
 */
export async function verifyAgentId(
  client: Pick<AgentsPlatform, 'getAgent' | 'listPhoneNumbers'>,
  agentId: string,
  signal?: AbortSignal,
): Promise<AgentIdCheck> {
  try {
    return { kind: 'found', agent: await client.getAgent(agentId, signal) };
  } catch (err) {
    if (!(isPlatformError(err) && (err.status === 404 || err.status === 405))) throw err;
  }
  try {
    await client.listPhoneNumbers(agentId, undefined, signal);
    return { kind: 'exists' };
  } catch (err) {
    if (isPlatformError(err) && err.status === 404) return { kind: 'missing' };
    // A credential refused, or the person cancelling, is said as it is rather than hidden behind "not verified".
    if (signal?.aborted || (isPlatformError(err) && err.status === 401)) throw err;
    return { kind: 'unverified', reason: err instanceof Error ? err.message : String(err) };
  }
}
