import * as vscode from 'vscode';
import type { Agent, PhoneNumber } from '../../contract/agents';

/** Who holds a number the import did not take, as the platform's number lists show it. */
export interface NumberHolder {
  number: string;
  /** The agent whose list holds it; absent when no list read shows it. */
  agent?: { agentId: string; name: string };
  /** The phone number object's fields, as the spec shows them. */
  projectId?: string;
  clientEnv?: string;
  connectorId?: string;
}

/** How many agents' lists are read at once when looking for a number's holder. */
const READ_AT_ONCE = 4;

/**
 * Finds which agent holds each number, from the agents' number lists (GET …/telephony/phone-numbers, in the spec):
 * the importing agent's first, then the other agents the profile lists. The import's own answer names no holder, so
 * nothing is guessed: a number no list shows stays without one. A list that cannot be read is passed over.
 */
export async function findHolders(
  numbers: readonly string[],
  importing: { agentId: string; name: string },
  others: () => Promise<readonly Agent[]>,
  listNumbers: (agentId: string) => Promise<PhoneNumber[]>,
): Promise<NumberHolder[]> {
  const found = new Map<string, NumberHolder>();
  const look = async (agent: { agentId: string; name: string }) => {
    const listed = await listNumbers(agent.agentId).catch(() => [] as PhoneNumber[]);
    for (const n of listed)
      if (numbers.includes(n.number) && !found.has(n.number))
        found.set(n.number, {
          number: n.number,
          agent: { agentId: agent.agentId, name: agent.name },
          projectId: n.projectId,
          clientEnv: n.clientEnv,
          connectorId: n.connectorId,
        });
  };
  await look(importing);
  if (found.size < numbers.length) {
    const rest = (await others().catch(() => [] as Agent[])).filter((a) => a.agentId !== importing.agentId);
    for (let i = 0; i < rest.length && found.size < numbers.length; i += READ_AT_ONCE)
      await Promise.all(rest.slice(i, i + READ_AT_ONCE).map(look));
  }
  return numbers.map((number) => found.get(number) ?? { number });
}

/** One held number in words: "+14155550123 (Support Desk, project proj_support, sandbox, connector conn_voice)". */
export function holderText(h: NumberHolder): string {
  if (!h.agent) return h.number;
  const facts = [
    h.agent.name || h.agent.agentId,
    ...(h.projectId ? [vscode.l10n.t('project {0}', h.projectId)] : []),
    ...(h.clientEnv ? [h.clientEnv] : []),
    ...(h.connectorId ? [vscode.l10n.t('connector {0}', h.connectorId)] : []),
  ];
  return vscode.l10n.t('{0} (held by {1})', h.number, facts.join(', '));
}
