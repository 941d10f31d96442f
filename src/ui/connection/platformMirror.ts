import { profilePlatformData } from '../../client/localPlatformDiscovery';
import type { MirrorClient } from '../../workspace/remote';
import { requireClients, requireModel } from '../common/commandSupport';
import type { Connection } from './connection';
import type { ProfileModels } from '../model/profileModels';

/**
 * The platform as a folder's mirror reaches it through the active profile: reads through the model (the values
 * every view shows), writes to the platform and then into the model. With `fresh`, that branch's documents are
 * read afresh first, so a check out, pull, push, branch switch or status compares with what the platform holds now.
 * On the local platform the mirror also learns which data it holds (its data id): a check out records it, and a pull
 * or push of a folder read from other data is refused.
 */
export function platformMirror(
  connection: Connection,
  models: ProfileModels<object>,
  fresh?: { agentId: string; branchId: string },
): MirrorClient {
  const agents = requireModel(models).agents;
  const clients = requireClients(connection);
  const client = agents.mirrorClient();
  if (fresh) agents.agent(fresh.agentId).invalidateDocuments(fresh.branchId);
  return { ...client, platformData: (signal) => profilePlatformData(clients.profile, signal) };
}

/** Makes the next read of a branch's documents ask the platform. */
export function readAfresh(models: ProfileModels<object>, agentId: string, branchId: string): void {
  requireModel(models).agents.agent(agentId).invalidateDocuments(branchId);
}
