import type { Deployment } from '../../contract/agents';

/** Where the records are kept: the workspace's state (VS Code's `Memento`), or memory. */
export interface KeptState {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** State held in memory only (a model made without the workspace's, as in unit tests). */
export function stateInMemory(): KeptState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, defaultValue: T) => (values.has(key) ? (values.get(key) as T) : defaultValue),
    update: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

const AGENTS_KEY = 'agentWorkbench.rememberedAgents';
const BRANCHES_KEY = 'agentWorkbench.rememberedBranches';
const DEPLOYMENTS_KEY = 'agentWorkbench.keptDeployments';
/** Per profile, the data id of the platform the deployments were kept from (local platforms say theirs). */
const DATA_KEY = 'agentWorkbench.keptFromData';
const STEPS_KEY = 'agentWorkbench.promoteSteps';
/** Deployments kept per agent: enough for a history, few enough to keep the workspace state small. */
const DEPLOYMENTS_KEPT = 50;

/** An agent created or added here: its id, and what is known of it. */
export interface RememberedAgent {
  agentId: string;
  /** As given at creation or read from the platform; unknown when only the id was given. */
  name?: string;
  description?: string;
  /** Added although no read the platform has could confirm the id. */
  unverified?: boolean;
}

/** A branch whose id came from a create answer or was typed. */
export interface RememberedBranch {
  branchId: string;
  name: string;
}

/**
 * What a person made or typed here, per connection profile, for platforms that do not list it (the list and
 * single-item reads of agents, branches and deployments are assumed endpoints, see docs/api-assumptions.md):
 * agents created or added by id, branch ids from create answers or typed, the deployments publish, promote and
 * rollback returned, and where each promotion went. Kept in the workspace's state.
 */
export class RememberedAgents {
  constructor(private readonly state: KeptState) {}

  list(profileId: string): RememberedAgent[] {
    // Earlier versions kept bare ids.
    return (this.state.get<Record<string, Array<string | RememberedAgent>>>(AGENTS_KEY, {})[profileId] ?? []).map(
      (a) => (typeof a === 'string' ? { agentId: a } : a),
    );
  }

  /** Remembers an agent; what is already known of it stays unless the new record says more. */
  async add(profileId: string, agent: RememberedAgent | string): Promise<void> {
    const given = typeof agent === 'string' ? { agentId: agent } : agent;
    const all = this.state.get<Record<string, Array<string | RememberedAgent>>>(AGENTS_KEY, {});
    const known = this.list(profileId);
    const before = known.find((a) => a.agentId === given.agentId);
    const merged: RememberedAgent = { ...before, ...given };
    if (!given.unverified) delete merged.unverified;
    const next = before ? known.map((a) => (a === before ? merged : a)) : [...known, merged];
    await this.state.update(AGENTS_KEY, { ...all, [profileId]: next });
  }

  async remove(profileId: string, agentId: string): Promise<void> {
    const all = this.state.get<Record<string, Array<string | RememberedAgent>>>(AGENTS_KEY, {});
    await this.state.update(AGENTS_KEY, {
      ...all,
      [profileId]: this.list(profileId).filter((a) => a.agentId !== agentId),
    });
  }

  branches(profileId: string, agentId: string): RememberedBranch[] {
    return this.state.get<Record<string, RememberedBranch[]>>(BRANCHES_KEY, {})[`${profileId}/${agentId}`] ?? [];
  }

  /** Remembers a branch id; a later name for the same id replaces the earlier one. */
  async addBranch(profileId: string, agentId: string, branch: RememberedBranch): Promise<void> {
    const all = this.state.get<Record<string, RememberedBranch[]>>(BRANCHES_KEY, {});
    const others = this.branches(profileId, agentId).filter((b) => b.branchId !== branch.branchId);
    await this.state.update(BRANCHES_KEY, { ...all, [`${profileId}/${agentId}`]: [...others, branch] });
  }

  /** The deployments actions returned here, newest last. */
  deployments(profileId: string, agentId: string): Deployment[] {
    return this.state.get<Record<string, Deployment[]>>(DEPLOYMENTS_KEY, {})[`${profileId}/${agentId}`] ?? [];
  }

  /**
   * Keeps a deployment an action returned. With `from`, the environment the promoted deployment was in, the
   * step the platform took is kept too: the platform shows a promotion's target only in its answer.
   */
  async keepDeployment(profileId: string, d: Deployment, from?: string): Promise<void> {
    const all = this.state.get<Record<string, Deployment[]>>(DEPLOYMENTS_KEY, {});
    const key = `${profileId}/${d.agentId}`;
    const kept = [...this.deployments(profileId, d.agentId).filter((x) => x.id !== d.id), d].slice(-DEPLOYMENTS_KEPT);
    // Both are set before either is awaited: the memento holds a value as soon as it is updated, so a promotion
    // made right after this one already names where this one went.
    const writes = [this.state.update(DEPLOYMENTS_KEY, { ...all, [key]: kept })];
    if (from) {
      const steps = this.state.get<Record<string, Record<string, string>>>(STEPS_KEY, {});
      writes.push(this.state.update(STEPS_KEY, { ...steps, [key]: { ...steps[key], [from]: d.environment } }));
    }
    await Promise.all(writes);
  }

  /**
   * Forgets the deployments kept for a profile and where its promotions went: its platform's data was made afresh
   * (a local platform reset), so the ids kept no longer name the same deployments.
   */
  async forgetDeployments(profileId: string): Promise<void> {
    const keep = <T>(all: Record<string, T>) =>
      Object.fromEntries(Object.entries(all).filter(([key]) => !key.startsWith(`${profileId}/`)));
    await Promise.all([
      this.state.update(DEPLOYMENTS_KEY, keep(this.state.get<Record<string, Deployment[]>>(DEPLOYMENTS_KEY, {}))),
      this.state.update(STEPS_KEY, keep(this.state.get<Record<string, Record<string, string>>>(STEPS_KEY, {}))),
    ]);
  }

  /**
   * Tells which data a profile's platform holds now (a local platform's data id). When it is not the data the
   * deployments were kept from (a reset, or a restart without a data folder), they are forgotten: their ids no
   * longer name the same deployments.
   */
  async platformData(profileId: string, dataId: string): Promise<void> {
    const seen = this.state.get<Record<string, string>>(DATA_KEY, {});
    if (seen[profileId] === dataId) return;
    await Promise.all([
      this.forgetDeployments(profileId),
      this.state.update(DATA_KEY, { ...seen, [profileId]: dataId }),
    ]);
  }

  /** Where the last promotion of this agent's deployment from `from` went, as the platform answered. */
  promotedTo(profileId: string, agentId: string, from: string): string | undefined {
    return this.state.get<Record<string, Record<string, string>>>(STEPS_KEY, {})[`${profileId}/${agentId}`]?.[from];
  }
}

/** What was kept for one profile: the records of `RememberedAgents` with the profile given once. */
export interface KeptOfProfile {
  agents(): RememberedAgent[];
  addAgent(agent: RememberedAgent): Promise<void>;
  branches(agentId: string): RememberedBranch[];
  addBranch(agentId: string, branch: RememberedBranch): Promise<void>;
  deployments(agentId: string): Deployment[];
  keepDeployment(d: Deployment, from?: string): Promise<void>;
  promotedTo(agentId: string, from: string): string | undefined;
}

/** The records of one profile. */
export function keptOf(remembered: RememberedAgents, profileId: string): KeptOfProfile {
  return {
    agents: () => remembered.list(profileId),
    addAgent: (agent) => remembered.add(profileId, agent),
    branches: (agentId) => remembered.branches(profileId, agentId),
    addBranch: (agentId, branch) => remembered.addBranch(profileId, agentId, branch),
    deployments: (agentId) => remembered.deployments(profileId, agentId),
    keepDeployment: (d, from) => remembered.keepDeployment(profileId, d, from),
    promotedTo: (agentId, from) => remembered.promotedTo(profileId, agentId, from),
  };
}
