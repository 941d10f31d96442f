import type { AgentsClient } from '../../src/client/agents';
import { LOCAL_AGENT_ID } from '../../src/localPlatform/seed/credentials';

/**
 * Creates a branch of an agent (the seeded support agent unless named) through the client: its id from the
 * answer or, where the answer does not say it (spec-minimal), from the list.
 */
export async function newBranch(
  client: AgentsClient,
  name: string,
  agentId: string = LOCAL_AGENT_ID,
): Promise<{ branchId: string; name: string }> {
  const created = await client.createBranch(agentId, name);
  const branchId = created.branchId ?? (await client.listBranches(agentId)).find((b) => b.name === name)?.branchId;
  if (!branchId) throw new Error(`branch ${name} was created but is neither in the answer nor in the list`);
  return { branchId, name };
}
