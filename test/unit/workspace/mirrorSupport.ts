import { AgentsClient } from '../../../src/client/agents';
import { MemoryFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror } from '../../../src/workspace/mirror';
import { localContext } from '../../support/localClient';
import type { LocalPlatform } from '../../../src/localPlatform/server';
import type { BranchEditRequest } from '../../../src/localPlatform/adminApi';
import { LocalAdmin } from '../../support/localAdmin';

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

/** A teammate's edit of a branch, through the local platform's admin API. */
export async function remoteEdit(lp: LocalPlatform, branchId: string, edit: BranchEditRequest): Promise<void> {
  await new LocalAdmin(lp.urls.admin).editBranch(AGENT, branchId, edit);
}
