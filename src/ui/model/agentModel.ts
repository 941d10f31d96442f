import type { DeploymentContext, MergeOptions, MergeOutcome } from '../../client/agents';
import { isPlatformError, mayHaveActed } from '../../client/errors';
import type {
  Branch,
  CreatedBranch,
  Deployment,
  DeploymentActionResult,
  ImportPhoneNumbersRequest,
  ImportPhoneNumbersResponse,
  PhoneNumber,
  RealtimeConfig,
  Topic,
  UpdatedVariables,
} from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { Disposable } from '../../core/disposable';
import { type AgentsPlatform, type AgentsSource, mainOf } from './agentsSource';
import { ListedOrKept, Loadable, LoadableMap } from './loadable';
import type { KeptOfProfile, RememberedBranch } from './rememberedAgents';
import { type Served, servedFrom } from './served';

/** What changed: the list of agents, or one part of one agent. */
export type AgentsChange =
  | { part: 'agents' }
  | { part: 'branches' | 'deployments' | 'numbers' | 'realtimeConfigs'; agentId: string }
  | { part: 'topics' | 'behavior'; agentId: string; branchId: string };

/** A deployment as an action names it: its id, and what the platform has shown of it. */
export interface DeploymentRef {
  readonly id: string;
  readonly environment?: string;
  readonly version?: string;
}

/**
 * Makes a write and then tells the model: `keep` records what a platform that cannot list it needs, `changed`
 * forgets what the write changed. A write that failed where it may have acted (its answer was lost, a gateway
 * answered, or it was done but its answer could not be read) forgets too: the next read says what happened.
 */
export async function writeThen<T>(
  act: () => Promise<T>,
  changed: () => void,
  keep: (result: T) => Promise<void> | void = () => undefined,
): Promise<T> {
  let result: T;
  try {
    result = await act();
  } catch (err) {
    if (mayHaveActed(err)) changed();
    throw err;
  }
  try {
    await keep(result);
  } finally {
    changed();
  }
  return result;
}

/** What the editor knows of one agent, read when first needed, and the writes that change it. */
export class AgentModel extends Disposable {
  readonly branches: Loadable<Branch[]>;
  readonly deployments: Loadable<Deployment[]>;
  readonly numbers: Loadable<PhoneNumber[]>;
  readonly realtimeConfigs: Loadable<RealtimeConfig[]>;
  /** The knowledge topics of each branch, by branch id. */
  readonly topics: LoadableMap<Topic[]>;
  /** The behavior prompt of each branch, by branch id. */
  readonly behavior: LoadableMap<string>;
  /** The branches listed or, where they cannot be, those whose ids came from create answers or were typed here. */
  readonly knownBranches: ListedOrKept<Branch>;
  /** The deployments listed or, where they cannot be, those publish, promote and rollback returned here. */
  readonly knownDeployments: ListedOrKept<Deployment>;

  constructor(
    readonly agentId: string,
    source: AgentsSource,
    private readonly changed: (change: AgentsChange) => void,
    private readonly platform: () => AgentsPlatform,
    private readonly kept: KeptOfProfile,
  ) {
    super();
    const part = <T>(
      name: 'branches' | 'deployments' | 'numbers' | 'realtimeConfigs',
      load: () => Promise<T>,
    ): Loadable<T> => {
      const loadable = this.register(new Loadable(load));
      this.register(loadable.onDidChange(() => changed({ part: name, agentId })));
      return loadable;
    };
    this.branches = part('branches', () => source.listBranches(agentId));
    this.deployments = part('deployments', () => source.listDeployments(agentId));
    this.numbers = part('numbers', () => source.listPhoneNumbers(agentId));
    this.realtimeConfigs = part('realtimeConfigs', () => source.listRealtimeConfigs(agentId));
    this.topics = this.register(new LoadableMap((branchId) => source.listTopics(agentId, branchId)));
    this.register(this.topics.onDidChange((branchId) => changed({ part: 'topics', agentId, branchId })));
    this.behavior = this.register(new LoadableMap((branchId) => source.getBehavior(agentId, branchId)));
    this.register(this.behavior.onDidChange((branchId) => changed({ part: 'behavior', agentId, branchId })));
    this.knownBranches = this.register(
      new ListedOrKept(this.branches, () => kept.branches(agentId).map((b) => ({ ...b, agentId }))),
    );
    this.knownDeployments = this.register(new ListedOrKept(this.deployments, () => kept.deployments(agentId)));
  }

  /**
   * Forgets what a checked-out folder of a branch mirrors: its behavior and topics, and the agent's
   * real-time configs (or the behavior and topics of every branch, without a branch). The next read asks
   * the platform, so a pull, a push or a status read compares with what the platform holds now.
   */
  invalidateDocuments(branchId?: string): void {
    this.behavior.invalidate(branchId);
    this.topics.invalidate(branchId);
    this.realtimeConfigs.invalidate();
  }

  /** Forgets everything known of this agent. */
  invalidate(): void {
    for (const part of [
      this.branches,
      this.deployments,
      this.numbers,
      this.realtimeConfigs,
      this.topics,
      this.behavior,
    ])
      part.invalidate();
  }

  // ---- branches ----

  /**
   * Creates a branch from main. The spec shows the answer only as "new branch": where it has no id, the branch is
   * found by its name in the branches read afresh. An id known either way is kept, so the branch can be checked out
   * where branches are not listed; without one, the answer is returned as it came (`branchId` missing).
   */
  async createBranch(name: string, signal?: AbortSignal): Promise<CreatedBranch> {
    const keep = (branchId: string, named: string) =>
      this.kept.addBranch(this.agentId, { branchId, name: named || name });
    const made = await writeThen(
      () => this.platform().createBranch(this.agentId, name, signal),
      () => this.branches.invalidate(),
      (answer) => (answer.branchId ? keep(answer.branchId, answer.name) : undefined),
    );
    if (made.branchId) return made;
    const found = (await this.branches.get().catch(() => undefined))?.find((b) => b.name === name);
    if (!found) return made;
    await keep(found.branchId, found.name);
    return { ...made, branchId: found.branchId };
  }

  /** The branches whose ids came from create answers or were typed here. */
  keptBranches(): RememberedBranch[] {
    return this.kept.branches(this.agentId);
  }

  /** Keeps a branch id typed by hand (where branches are not listed): every view then shows the branch. */
  async keepBranch(branch: RememberedBranch): Promise<void> {
    await this.kept.addBranch(this.agentId, branch);
    this.knownBranches.invalidate();
    this.changed({ part: 'branches', agentId: this.agentId });
  }

  /** Gives a branch the content of another (the platform starts every branch as a copy of main). */
  async copyBranch(fromId: string, toId: string, signal?: AbortSignal): Promise<void> {
    const client = this.platform();
    const { agentId } = this;
    try {
      const [behavior, source, copy] = await Promise.all([
        client.getBehavior(agentId, fromId, signal),
        client.listTopics(agentId, fromId, signal),
        client.listTopics(agentId, toId, signal),
      ]);
      await client.updateBehavior(agentId, toId, behavior.behavior, signal);
      const inCopy = new Map(copy.map((t) => [t.topicId, t]));
      for (const t of source) {
        const there = inCopy.get(t.topicId);
        if (!there) await client.createTopic(agentId, toId, { name: t.name, content: t.content }, signal);
        else if (there.name !== t.name || there.content !== t.content)
          await client.updateTopic(agentId, toId, t.topicId, { name: t.name, content: t.content }, signal);
        inCopy.delete(t.topicId);
      }
      for (const gone of inCopy.keys()) await client.deleteTopic(agentId, toId, gone, signal);
    } finally {
      // Any step may have been made before one failed: what the model holds of the copy is forgotten either way.
      this.invalidateDocuments(toId);
    }
  }

  /**
   * Merges a branch into main. Merged, main took the branch's behavior and topics (every branch's documents are
   * forgotten when main is not known by id) and the branches changed; a refusal with conflicts changed nothing.
   */
  async merge(branchId: string, opts: MergeOptions = {}, signal?: AbortSignal): Promise<MergeOutcome> {
    const main = mainOf(this.branches.peek());
    const changed = () => {
      this.branches.invalidate();
      this.invalidateDocuments(main?.branchId);
    };
    let outcome: MergeOutcome;
    try {
      outcome = await this.platform().merge(this.agentId, branchId, opts, signal);
    } catch (err) {
      if (mayHaveActed(err)) changed();
      throw err;
    }
    if (outcome.merged) changed();
    return outcome;
  }

  // ---- deployments ----

  /** Publishes main to an environment (sandbox: later ones are reached by promoting); the deployment is kept. */
  publish(environment: Environment, deploymentMessage = '', signal?: AbortSignal): Promise<DeploymentActionResult> {
    return this.deploymentAction(() => this.platform().publish(this.agentId, environment, deploymentMessage, signal));
  }

  /** Promotes a deployment one environment on; the deployment returned is kept, and where the promotion went. */
  promote(d: DeploymentRef, deploymentMessage = '', signal?: AbortSignal): Promise<DeploymentActionResult> {
    return this.deploymentAction(
      () => this.platform().promote(this.agentId, d.id, actionContext(d, deploymentMessage), signal),
      d.environment || undefined,
    );
  }

  /** Rolls an environment back from a deployment; the deployment returned is kept. */
  rollback(d: DeploymentRef, deploymentMessage = '', signal?: AbortSignal): Promise<DeploymentActionResult> {
    return this.deploymentAction(() =>
      this.platform().rollback(this.agentId, d.id, actionContext(d, deploymentMessage), signal),
    );
  }

  private deploymentAction(act: () => Promise<DeploymentActionResult>, from?: string): Promise<DeploymentActionResult> {
    return writeThen(
      act,
      () => this.deployments.invalidate(),
      (result) => this.kept.keepDeployment(result.deployment, from),
    );
  }

  /** The deployments of an environment that actions here returned. */
  keptIn(environment: string): Deployment[] {
    return this.kept.deployments(this.agentId).filter((d) => d.environment === environment);
  }

  /** Where the last promotion of this agent's deployment from `from` went, as the platform answered. */
  promotedTo(from: string): string | undefined {
    return this.kept.promotedTo(this.agentId, from);
  }

  /**
   * A deployment by id: as an action here returned it, else read; where the platform cannot read one deployment
   * (404 or 405 of an endpoint the spec does not show), only its id is known, and the action itself is the check.
   */
  async deploymentById(deploymentId: string, signal?: AbortSignal): Promise<Deployment> {
    const kept = this.kept.deployments(this.agentId).find((d) => d.id === deploymentId);
    if (kept) return kept;
    try {
      return await this.platform().getDeployment(this.agentId, deploymentId, signal);
    } catch (err) {
      if (!(isPlatformError(err) && (err.assumption || err.status === 404 || err.status === 405))) throw err;
      return {
        id: deploymentId,
        agentId: this.agentId,
        accountId: '',
        environment: '',
        artifactVersion: '',
        version: '',
        createdBy: '',
        createdAt: '',
        metadata: {},
      };
    }
  }

  /**
   * What an environment serves and whether main changed after it, read afresh (an action is never based on a cached
   * view of what is served): the branches, deployments, and main's behavior and topics, which every view then shows.
   */
  served(environment: Environment, signal?: AbortSignal): Promise<Served> {
    return servedFrom(
      {
        deployments: () => this.deployments.refresh(),
        branches: () => this.branches.refresh(),
        behavior: async (branchId) => {
          const answer = await this.platform().getBehavior(this.agentId, branchId, signal);
          this.behavior.get(branchId).set(answer.behavior);
          return answer;
        },
        topics: (branchId) => this.topics.get(branchId).refresh(),
      },
      environment,
      this.kept.deployments(this.agentId),
    );
  }

  // ---- telephony and real-time configs ----

  /** Imports phone numbers; the agent's numbers are read again after. */
  importNumbers(request: ImportPhoneNumbersRequest, signal?: AbortSignal): Promise<ImportPhoneNumbersResponse> {
    return writeThen(
      () => this.platform().importPhoneNumbers(this.agentId, request, signal),
      () => this.numbers.invalidate(),
    );
  }

  /** The agent's numbers (of one connector, when given), read afresh: every view showing them hears. */
  async numbersOf(connectorId?: string, signal?: AbortSignal): Promise<PhoneNumber[]> {
    const all = await this.numbers.refresh();
    signal?.throwIfAborted();
    return connectorId === undefined ? all : all.filter((n) => n.connectorId === connectorId);
  }

  /** Sets a real-time config's variables; the configs are read again after. */
  updateVariables(config: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<UpdatedVariables> {
    return writeThen(
      () => this.platform().updateVariables(this.agentId, config, variables, signal),
      () => this.realtimeConfigs.invalidate(),
    );
  }
}

/** What the client's messages say of a deployment: only what the platform has shown of it (an id typed by hand shows none). */
function actionContext(d: DeploymentRef, deploymentMessage: string): DeploymentContext {
  return {
    ...(d.environment ? { environment: d.environment } : {}),
    ...(d.version ? { version: d.version } : {}),
    ...(deploymentMessage !== '' ? { deploymentMessage } : {}),
  };
}
