import type { Agent, Branch, Deployment, PhoneNumber, RealtimeConfig, Topic } from '../../contract/agents';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import type { AgentsSource } from './agentsSource';
import { Loadable, LoadableMap } from './loadable';

/** What changed: the list of agents, or one part of one agent. */
export type AgentsChange =
  | { part: 'agents' }
  | { part: 'branches' | 'deployments' | 'numbers' | 'realtimeConfigs'; agentId: string }
  | { part: 'topics' | 'behavior'; agentId: string; branchId: string };

/** What the editor knows of one agent; each part is read when first needed. */
export class AgentModel extends Disposable {
  readonly branches: Loadable<Branch[]>;
  readonly deployments: Loadable<Deployment[]>;
  readonly numbers: Loadable<PhoneNumber[]>;
  readonly realtimeConfigs: Loadable<RealtimeConfig[]>;
  /** The knowledge topics of each branch, by branch id. */
  readonly topics: LoadableMap<Topic[]>;
  /** The behavior prompt of each branch, by branch id. */
  readonly behavior: LoadableMap<string>;

  constructor(
    readonly agentId: string,
    source: AgentsSource,
    changed: (change: AgentsChange) => void,
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
}

/**
 * The agents of one connection profile and, per agent, its branches, deployments, numbers, real-time
 * configs and topics. Trees, commands and (soon) source control and panels read it; a command that
 * changes something on the platform invalidates exactly the part it changed, and every reader hears.
 */
export class AgentsModel extends Disposable {
  /** Every agent of the workspace (all pages); an assumed endpoint that some platforms lack. */
  readonly agents: Loadable<Agent[]>;
  private readonly byId = new Map<string, AgentModel>();
  private readonly _onDidChange = this.register(new Emitter<AgentsChange>());
  readonly onDidChange: Event<AgentsChange> = this._onDidChange.event;

  constructor(private readonly source: AgentsSource) {
    super();
    this.agents = this.register(new Loadable(() => source.listAgents()));
    this.register(this.agents.onDidChange(() => this._onDidChange.fire({ part: 'agents' })));
  }

  /** What is known of one agent (nothing is read until a part is). */
  agent(agentId: string): AgentModel {
    let model = this.byId.get(agentId);
    if (!model) {
      model = this.register(new AgentModel(agentId, this.source, (change) => this._onDidChange.fire(change)));
      this.byId.set(agentId, model);
    }
    return model;
  }

  /**
   * One agent by id: from the list when it is loaded, otherwise read alone, so acting on one agent
   * never lists every agent. Undefined when the platform cannot read one agent (an assumed endpoint).
   */
  async find(agentId: string): Promise<Agent | undefined> {
    const listed = this.agents.peek()?.find((a) => a.agentId === agentId);
    if (listed) return listed;
    return this.source.getAgent?.(agentId);
  }

  /** Forgets everything (a full refresh). */
  invalidate(): void {
    for (const model of this.byId.values()) model.invalidate();
    this.agents.invalidate();
  }
}
