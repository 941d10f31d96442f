import type { MirrorClient } from '../../workspace/remote';
import type { AgentModel } from './agentModel';

/**
 * The file mirror's calls served by the model: reads of behavior, topics and real-time configs come from
 * (and fill) the same values the Agents view and the read-only documents show, and each write goes to the
 * platform through `writes` and then updates the model with the answer (behavior, which the answer holds
 * whole) or forgets what it changed (topics, configs), so every reader hears of it.
 */
export function modelMirrorClient(model: { agent(agentId: string): AgentModel }, writes: MirrorClient): MirrorClient {
  // A read shared with other views goes on when a pull is cancelled; only its answer is dropped here.
  const read = async <T>(value: Promise<T>, signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted();
    const v = await value;
    signal?.throwIfAborted();
    return v;
  };
  return {
    getBehavior: async (agentId, branchId, signal) => ({
      behavior: await read(model.agent(agentId).behavior.get(branchId).get(), signal),
      branchId,
    }),
    listTopics: (agentId, branchId, signal) => read(model.agent(agentId).topics.get(branchId).get(), signal),
    listRealtimeConfigs: (agentId, signal) => read(model.agent(agentId).realtimeConfigs.get(), signal),
    async updateBehavior(agentId, branchId, behavior, signal) {
      const held = model.agent(agentId).behavior.get(branchId);
      try {
        const answer = await writes.updateBehavior(agentId, branchId, behavior, signal);
        held.set(answer.behavior);
        return answer;
      } catch (err) {
        // The write may have been made though its answer was lost: the next read asks.
        held.invalidate();
        throw err;
      }
    },
    async createTopic(agentId, branchId, topic, signal) {
      try {
        return await writes.createTopic(agentId, branchId, topic, signal);
      } finally {
        model.agent(agentId).topics.invalidate(branchId);
      }
    },
    async updateTopic(agentId, branchId, topicId, change, signal) {
      try {
        return await writes.updateTopic(agentId, branchId, topicId, change, signal);
      } finally {
        model.agent(agentId).topics.invalidate(branchId);
      }
    },
    async deleteTopic(agentId, branchId, topicId, signal) {
      try {
        await writes.deleteTopic(agentId, branchId, topicId, signal);
      } finally {
        model.agent(agentId).topics.invalidate(branchId);
      }
    },
    async updateVariables(agentId, config, variables, signal) {
      try {
        return await writes.updateVariables(agentId, config, variables, signal);
      } finally {
        model.agent(agentId).realtimeConfigs.invalidate();
      }
    },
  };
}
