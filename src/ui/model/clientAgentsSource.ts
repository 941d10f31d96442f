import type { AgentsClient } from '../../client/agents';
import type { Agent } from '../../contract/agents';
import type { AgentsSource } from './agentsSource';

/** The Agents model's reads, served by the agents client of one profile. */
export function agentsSourceOf(client: AgentsClient): AgentsSource {
  return {
    async listAgents(signal) {
      const all: Agent[] = [];
      for await (const agent of client.allAgents({ limit: 1000 }, signal ? { signal } : {})) all.push(agent);
      return all;
    },
    getAgent: (agentId) => client.getAgent(agentId),
    listBranches: (agentId) => client.listBranches(agentId),
    getBehavior: async (agentId, branchId) => (await client.getBehavior(agentId, branchId)).behavior,
    listTopics: (agentId, branchId) => client.listTopics(agentId, branchId),
    listDeployments: (agentId) => client.listDeployments(agentId),
    listPhoneNumbers: (agentId) => client.listPhoneNumbers(agentId),
    listRealtimeConfigs: (agentId) => client.listRealtimeConfigs(agentId),
  };
}
