import type { Behavior, RealtimeConfig, Topic, UpdateTopicRequest } from '../contract/agents';
import type { RemoteDocs } from './documents';
import { BEHAVIOR_KEY, realtimeKey, topicKey } from './layout';

/** The calls of the Agents client the file mirror makes (AgentsClient has them all). */
export interface MirrorClient {
  getBehavior(agentId: string, branchId: string, signal?: AbortSignal): Promise<Behavior>;
  updateBehavior(agentId: string, branchId: string, behavior: string, signal?: AbortSignal): Promise<Behavior>;
  listTopics(agentId: string, branchId: string, signal?: AbortSignal): Promise<Topic[]>;
  createTopic(agentId: string, branchId: string, topic: { name: string; content: string }, signal?: AbortSignal): Promise<Topic>;
  updateTopic(agentId: string, branchId: string, topicId: string, change: UpdateTopicRequest, signal?: AbortSignal): Promise<Topic>;
  deleteTopic(agentId: string, branchId: string, topicId: string, signal?: AbortSignal): Promise<void>;
  listRealtimeConfigs(agentId: string, signal?: AbortSignal): Promise<RealtimeConfig[]>;
  updateVariables(agentId: string, config: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

/** Where a mirror points: an agent and one of its branches. */
export interface MirrorTarget {
  agentId: string;
  branchId: string;
}

/**
 * What the platform holds for a branch: behavior, topics and the agent's real-time configs,
 * read with three requests at once (the topic list carries every topic's content).
 */
export async function fetchRemote(client: MirrorClient, target: MirrorTarget, signal?: AbortSignal): Promise<RemoteDocs> {
  const [behavior, topics, configs] = await Promise.all([
    client.getBehavior(target.agentId, target.branchId, signal),
    client.listTopics(target.agentId, target.branchId, signal),
    client.listRealtimeConfigs(target.agentId, signal),
  ]);
  const docs: RemoteDocs = new Map();
  docs.set(BEHAVIOR_KEY, { kind: 'behavior', behavior: behavior.behavior });
  for (const t of topics) docs.set(topicKey(t.topicId), { kind: 'topic', name: t.name, content: t.content, topicId: t.topicId });
  for (const c of configs) docs.set(realtimeKey(c.name), { kind: 'realtime', config: c.name, variables: c.variables });
  return docs;
}
