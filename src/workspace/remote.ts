import type { Behavior, CreatedTopic, RealtimeConfig, Topic, UpdateTopicRequest } from '../contract/agents';
import { isAssumptionFailure, type PlatformError } from '../client/errors';
import type { BaseSnapshot } from './baseStore';
import { docOf, type RemoteDocs } from './documents';
import { BEHAVIOR_KEY, kindOfKey, realtimeKey, topicKey } from './layout';

/** The calls of the Agents client the file mirror makes (AgentsClient has them all). */
export interface MirrorClient {
  getBehavior(agentId: string, branchId: string, signal?: AbortSignal): Promise<Behavior>;
  updateBehavior(agentId: string, branchId: string, behavior: string, signal?: AbortSignal): Promise<Behavior>;
  listTopics(agentId: string, branchId: string, signal?: AbortSignal): Promise<Topic[]>;
  createTopic(
    agentId: string,
    branchId: string,
    topic: { name: string; content: string },
    signal?: AbortSignal,
  ): Promise<CreatedTopic>;
  updateTopic(
    agentId: string,
    branchId: string,
    topicId: string,
    change: UpdateTopicRequest,
    signal?: AbortSignal,
  ): Promise<Topic>;
  deleteTopic(agentId: string, branchId: string, topicId: string, signal?: AbortSignal): Promise<void>;
  listRealtimeConfigs(agentId: string, signal?: AbortSignal): Promise<RealtimeConfig[]>;
  updateVariables(
    agentId: string,
    config: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /**
   * Which data the platform holds now: the local platform's data id, undefined for a platform that has none (a real
   * one). Where the client does not have it, the mirror neither records nor checks where its base was read from.
   */
  platformData?(signal?: AbortSignal): Promise<string | undefined>;
}

/** Where a mirror points: an agent and one of its branches. */
export interface MirrorTarget {
  agentId: string;
  branchId: string;
}

/**
 * What the platform holds for a branch: behavior, topics and the agent's real-time configs,
 * read with three requests at once (the topic list carries every topic's content).
 *
 * Listing real-time configs is an endpoint the spec does not show: where the platform lacks it,
 * the configs are taken as `known` has them (the base), so the mirror still pulls and pushes
 * behavior and topics, and pushes config files through the variables endpoint the spec shows.
 */
export async function fetchRemote(
  client: MirrorClient,
  target: MirrorTarget & { known?: BaseSnapshot['docs'] },
  signal?: AbortSignal,
): Promise<RemoteDocs> {
  const [behavior, topics, configs] = await Promise.all([
    client.getBehavior(target.agentId, target.branchId, signal),
    client.listTopics(target.agentId, target.branchId, signal),
    client.listRealtimeConfigs(target.agentId, signal).catch((err: unknown) => {
      if (isAssumptionFailure(err)) return undefined;
      throw err;
    }),
  ]);
  const docs: RemoteDocs = new Map();
  docs.set(BEHAVIOR_KEY, { kind: 'behavior', behavior: behavior.behavior });
  for (const t of topics)
    docs.set(topicKey(t.topicId), { kind: 'topic', name: t.name, content: t.content, topicId: t.topicId });
  if (configs) {
    for (const c of configs)
      docs.set(realtimeKey(c.name), { kind: 'realtime', config: c.name, variables: c.variables });
  } else {
    for (const [key, entry] of Object.entries(target.known ?? {})) {
      const doc = kindOfKey(key) === 'realtime' ? docOf(key, entry.path, entry.text) : undefined;
      if (doc) docs.set(key, doc);
    }
  }
  return docs;
}

/**
 * The platform's documents, or why not where the platform does not let them be read: reading behavior and
 * topics are endpoints the spec does not show (their 404 or 405 then names the assumption).
 */
export async function fetchRemoteIfReadable(
  client: MirrorClient,
  target: MirrorTarget & { known?: BaseSnapshot['docs'] },
  signal?: AbortSignal,
): Promise<{ docs: RemoteDocs } | { unreadable: PlatformError }> {
  try {
    return { docs: await fetchRemote(client, target, signal) };
  } catch (err) {
    if (isAssumptionFailure(err)) return { unreadable: err };
    throw err;
  }
}

/** What the base says the platform held, as documents: the other side of a push that cannot read the platform. */
export function remoteFromBase(known: BaseSnapshot['docs']): RemoteDocs {
  const docs: RemoteDocs = new Map();
  for (const [key, entry] of Object.entries(known)) {
    const doc = docOf(key, entry.path, entry.text);
    if (doc) docs.set(key, doc);
  }
  return docs;
}
