import type { Deployment } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { activeDeployment } from './deployments';
import type { PlatformClients } from './platformClients';

/** What an environment serves of an agent, and whether main has changed since. */
export interface Served {
  /** Whether the platform listed the environment's deployments (false: only those kept here were known). */
  readonly listed: boolean;
  /** The deployment the environment serves, when it is known. */
  readonly serving?: Deployment;
  /** When main was last changed (the branch, its behavior or a topic), if that is after what is served. */
  readonly mainChangedAfter?: string;
}

const newest = (dates: ReadonlyArray<string | null | undefined>): string | undefined =>
  dates.filter((d): d is string => typeof d === 'string' && d !== '').sort((a, b) => Date.parse(b) - Date.parse(a))[0];

/**
 * What `environment` serves of the agent, from the platform's list of its deployments or, on a platform that does not
 * list them, from the deployments publish, promote and rollback returned here (`kept`); and whether main has changes
 * pushed after it (which that environment does not answer from until they are published). Reads that fail count as
 * not known; this never throws for them.
 */
export async function servedIn(
  clients: Pick<PlatformClients, 'agents'>,
  agentId: string,
  environment: Environment,
  kept: readonly Deployment[] = [],
  signal?: AbortSignal,
): Promise<Served> {
  const quiet = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);
  const [deployments, branches] = await Promise.all([
    quiet(clients.agents.listDeployments(agentId, environment, signal)),
    quiet(clients.agents.listBranches(agentId, signal)),
  ]);
  const listed = deployments !== undefined;
  const serving = activeDeployment(deployments ?? kept.filter((d) => d.environment === environment));
  if (!serving) return { listed };
  const main = branches?.find((b) => b.isDefault) ?? branches?.find((b) => b.name === 'main');
  if (!main) return { listed, serving };
  const [behavior, topics] = await Promise.all([
    quiet(clients.agents.getBehavior(agentId, main.branchId, signal)),
    quiet(clients.agents.listTopics(agentId, main.branchId, signal)),
  ]);
  const changed = newest([
    main.updatedAt,
    main.mergedAt,
    behavior?.updatedAt,
    ...(topics ?? []).map((t) => t.updatedAt),
  ]);
  if (!changed || !serving.createdAt || Date.parse(changed) <= Date.parse(serving.createdAt))
    return { listed, serving };
  return { listed, serving, mainChangedAfter: changed };
}
