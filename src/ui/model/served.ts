import type { Behavior, Branch, Deployment, Topic } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { agentsClientOf } from './agentsClientOf';
import { mainOf } from './agentsSource';
import { activeDeployment } from './deployments';
import type { UiClients } from './platformClients';

/** What an environment serves of an agent, and whether main has changed since. */
export interface Served {
  /** Whether the platform listed the environment's deployments (false: only those kept here were known). */
  readonly listed: boolean;
  /** The deployment the environment serves, when it is known. */
  readonly serving?: Deployment;
  /** When main was last changed (the branch, its behavior or a topic), if that is after what is served. */
  readonly mainChangedAfter?: string;
  /** When main was last changed, where a read says; with `serving`, whether that is after it is `mainChangedAfter`. */
  readonly mainChanged?: string;
  /** The agent's branches, where they could be read. */
  readonly branches?: readonly Branch[];
  /** Main's behavior, where it could be read. */
  readonly behavior?: string;
}

/** The reads `servedFrom` makes: through the model (which every view then shows) or a client of another profile. */
export interface ServedReads {
  deployments(): Promise<readonly Deployment[]>;
  branches(): Promise<readonly Branch[]>;
  behavior(branchId: string): Promise<Pick<Behavior, 'behavior' | 'updatedAt'>>;
  topics(branchId: string): Promise<readonly Topic[]>;
}

const newest = (dates: ReadonlyArray<string | null | undefined>): string | undefined =>
  dates.filter((d): d is string => typeof d === 'string' && d !== '').sort((a, b) => Date.parse(b) - Date.parse(a))[0];

/** `changed`, when it is after what `serving` was made from; undefined where either date is unknown. */
export function changedAfter(changed: string | undefined, serving: Deployment): string | undefined {
  if (!changed || !serving.createdAt || Date.parse(changed) <= Date.parse(serving.createdAt)) return undefined;
  return changed;
}

/**
 * What `environment` serves of the agent, from the platform's list of its deployments or, on a platform that does not
 * list them, from the deployments publish, promote and rollback returned here (`kept`); and whether main has changes
 * pushed after it (which that environment does not answer from until they are published). Reads that fail count as
 * not known; this never throws for them.
 */
export async function servedFrom(
  reads: ServedReads,
  environment: Environment,
  kept: readonly Deployment[] = [],
): Promise<Served> {
  const quiet = <T>(p: () => Promise<T>): Promise<T | undefined> => p().catch(() => undefined);
  const [deployments, branches] = await Promise.all([quiet(reads.deployments), quiet(reads.branches)]);
  const listed = deployments !== undefined;
  const serving = activeDeployment((deployments ?? kept).filter((d) => d.environment === environment));
  const main = mainOf(branches);
  if (!main) return { listed, ...(serving ? { serving } : {}), ...(branches ? { branches } : {}) };
  const [behavior, topics] = await Promise.all([
    quiet(() => reads.behavior(main.branchId)),
    quiet(() => reads.topics(main.branchId)),
  ]);
  const changed = newest([
    main.updatedAt,
    main.mergedAt,
    behavior?.updatedAt,
    ...(topics ?? []).map((t) => t.updatedAt),
  ]);
  const after = serving && changedAfter(changed, serving);
  return {
    listed,
    branches,
    ...(serving ? { serving } : {}),
    ...(changed ? { mainChanged: changed } : {}),
    ...(after ? { mainChangedAfter: after } : {}),
    ...(behavior ? { behavior: behavior.behavior } : {}),
  };
}

/** `servedFrom` through the clients of a profile that may not be the active one (a chat's header). */
export function servedIn(
  clients: UiClients,
  agentId: string,
  environment: Environment,
  kept: readonly Deployment[] = [],
  signal?: AbortSignal,
): Promise<Served> {
  const client = agentsClientOf(clients);
  return servedFrom(
    {
      deployments: () => client.listDeployments(agentId, environment, signal),
      branches: () => client.listBranches(agentId, signal),
      behavior: (branchId) => client.getBehavior(agentId, branchId, signal),
      topics: (branchId) => client.listTopics(agentId, branchId, signal),
    },
    environment,
    kept,
  );
}
