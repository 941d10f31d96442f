import type { AgentsClient } from '../../client/agents';
import { PlatformClients, type UiClients } from './platformClients';

/**
 * The agents client behind the clients src/ui holds. For src/ui/model/ only (dependency-cruiser's
 * `ui-clients-through-model`): everything else reads and writes agents through the profile's `AgentsModel`.
 */
export function agentsClientOf(clients: UiClients): AgentsClient {
  if (!(clients instanceof PlatformClients)) throw new Error('These clients were not made by the connection.');
  return clients.agents;
}
