import { AgentsClient } from '../../../src/client/agents';
import { MemoryFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror } from '../../../src/workspace/mirror';
import { localContext } from '../../support/localClient';
import { call } from '../../support/localPlatform';
import type { LocalPlatform } from '../../../src/localPlatform/server';

export const AGENT = 'ag_support';
export const MAIN = { branchId: 'br_support_main', name: 'main' };
export const MANIFEST = { agentId: AGENT, name: 'Support Desk', profile: 'local', branch: MAIN };

/** A checked-out folder in memory and the client behind it. */
export async function checkedOut(
  lp: LocalPlatform,
): Promise<{ fs: MemoryFileSystem; mirror: AgentMirror; client: AgentsClient }> {
  const fs = new MemoryFileSystem();
  const client = new AgentsClient(localContext(lp));
  const mirror = new AgentMirror(fs, client);
  await mirror.checkout(MANIFEST);
  return { fs, mirror, client };
}

/** A new branch of the demo agent: its id from the answer or, where the answer does not say it (spec-minimal), from the list. */
export async function newBranch(client: AgentsClient, name: string): Promise<{ branchId: string; name: string }> {
  const created = await client.createBranch(AGENT, name);
  const branchId = created.branchId ?? (await client.listBranches(AGENT)).find((b) => b.name === name)?.branchId;
  if (!branchId) throw new Error(`branch ${name} was created but is neither in the answer nor in the list`);
  return { branchId, name };
}

/** A teammate's edit of a branch, through the local platform's admin API. */
export async function remoteEdit(
  lp: LocalPlatform,
  branchId: string,
  edit: {
    behavior?: string;
    upsertTopics?: { topicId?: string; name: string; content: string }[];
    deleteTopics?: string[];
  },
): Promise<void> {
  const res = await call('POST', `${lp.urls.admin}/agents/${AGENT}/branches/${branchId}/edit`, { body: edit });
  if (res.status !== 200) throw new Error(`remote edit failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function fault(lp: LocalPlatform, body: Record<string, unknown>): Promise<void> {
  await call('POST', `${lp.urls.admin}/faults`, { body: { family: 'build', ...body } });
}
