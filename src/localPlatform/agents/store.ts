import type { Environment } from '../../contract/common';
import type { AgentsState, StoredBranch, StoredDeployment } from './model';

/**
 * Lookups over the agents state that stay cheap with many agents. The caches are keyed by the
 * state object (a reset or seed replaces it) and check each hit, so a stale entry is never served.
 */
const mainBranchCache = new WeakMap<AgentsState, Map<string, string>>();
const activeDeploymentCache = new WeakMap<AgentsState, Map<string, string>>();

function cacheOf(caches: WeakMap<AgentsState, Map<string, string>>, state: AgentsState): Map<string, string> {
  let cache = caches.get(state);
  if (!cache) {
    cache = new Map();
    caches.set(state, cache);
  }
  return cache;
}

export const MAIN_BRANCH_NAME = 'main';

/** The default branch (`main`) of an agent. */
export function mainBranchOf(state: AgentsState, agentId: string): StoredBranch | undefined {
  const cache = cacheOf(mainBranchCache, state);
  const cachedId = cache.get(agentId);
  const cached = cachedId ? state.branches[cachedId] : undefined;
  if (cached && cached.agentId === agentId && cached.name === MAIN_BRANCH_NAME) return cached;
  // One pass notes every agent's main branch: a listing asks for a page of agents one after another.
  let found: StoredBranch | undefined;
  for (const branch of Object.values(state.branches)) {
    if (branch.name !== MAIN_BRANCH_NAME) continue;
    cache.set(branch.agentId, branch.branchId);
    if (branch.agentId === agentId) found ??= branch;
  }
  return found;
}

/** The deployment an environment of an agent currently serves, if any. */
export function activeDeploymentOf(
  state: AgentsState,
  agentId: string,
  environment: Environment,
): StoredDeployment | undefined {
  const cache = cacheOf(activeDeploymentCache, state);
  const key = `${agentId}\u0000${environment}`;
  const cachedId = cache.get(key);
  const cached = cachedId ? state.deployments[cachedId] : undefined;
  if (cached && cached.active && cached.agentId === agentId && cached.environment === environment) return cached;
  let found: StoredDeployment | undefined;
  for (const deployment of Object.values(state.deployments)) {
    if (deployment.agentId === agentId && deployment.environment === environment && deployment.active)
      found = deployment;
  }
  if (found) cache.set(key, found.id);
  return found;
}

/** Every branch of an agent: main first, then the others oldest first. */
export function branchesOf(state: AgentsState, agentId: string): StoredBranch[] {
  const branches = Object.values(state.branches).filter((b) => b.agentId === agentId);
  return branches.sort(
    (a, b) =>
      rankBranch(a) - rankBranch(b) || a.createdAt.localeCompare(b.createdAt) || a.branchId.localeCompare(b.branchId),
  );
}

function rankBranch(branch: StoredBranch): number {
  return branch.name === MAIN_BRANCH_NAME ? 0 : 1;
}

/** The number in a deployment's `version`, 0 when it is not a number. */
export function versionNumber(deployment: StoredDeployment): number {
  const n = Number.parseInt(deployment.version, 10);
  return Number.isFinite(n) ? n : 0;
}

/** Every deployment of an agent, newest first (the order they were made in, reversed). */
export function deploymentsOf(state: AgentsState, agentId: string, environment?: Environment): StoredDeployment[] {
  const list = Object.values(state.deployments).filter(
    (d) => d.agentId === agentId && (!environment || d.environment === environment),
  );
  return list.reverse();
}
