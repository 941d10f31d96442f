import type { Agent, CreateAgentRequest, CreateAgentResponse } from '../../contract/agents';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import { type AgentsChange, AgentModel, writeThen } from './agentModel';
import type { AgentsPlatform, AgentsSource } from './agentsSource';
import { type AgentIdCheck, verifyAgentId } from './agentVerification';
import { ListedOrKept, Loadable } from './loadable';
import type { MirrorClient } from '../../workspace/remote';
import { modelMirrorClient } from './mirrorClient';
import { type KeptOfProfile, keptOf, RememberedAgents, stateInMemory } from './rememberedAgents';

export type { AgentsChange, DeploymentRef } from './agentModel';
export { AgentModel } from './agentModel';

/** An agent as the views show it: marked where it was added by id and no read could confirm the id. */
export type ShownAgent = Agent & { unverified?: boolean };

const noPlatform = (): AgentsPlatform => {
  throw new Error('This model was made without the platform: it only reads.');
};

/**
 * The agents of one connection profile and, per agent, its branches, deployments, numbers, real-time configs and
 * topics, and every write the editor makes to them: trees, commands, source control, panels, the Testing view and
 * the assistant tools read and write here. A write keeps what a platform that cannot list it needs (the agents
 * created or added, branch ids, deployments) and invalidates exactly the part it changed, and every reader hears.
 */
export class AgentsModel extends Disposable {
  /** Every agent of the workspace (all pages); an assumed endpoint that some platforms lack. */
  readonly agents: Loadable<Agent[]>;
  /** The agents listed or, where they cannot be, those created or added by id here (each read where it can be). */
  readonly knownAgents: ListedOrKept<ShownAgent>;
  private readonly byId = new Map<string, AgentModel>();
  private readonly _onDidChange = this.register(new Emitter<AgentsChange>());
  readonly onDidChange: Event<AgentsChange> = this._onDidChange.event;

  constructor(
    private readonly source: AgentsSource,
    private readonly platform: () => AgentsPlatform = noPlatform,
    private readonly kept: KeptOfProfile = keptOf(new RememberedAgents(stateInMemory()), ''),
  ) {
    super();
    this.agents = this.register(new Loadable(() => source.listAgents()));
    this.register(this.agents.onDidChange(() => this._onDidChange.fire({ part: 'agents' })));
    this.knownAgents = this.register(new ListedOrKept(this.agents, () => this.keptAgents()));
  }

  /** What is known of one agent (nothing is read until a part is). */
  agent(agentId: string): AgentModel {
    let model = this.byId.get(agentId);
    if (!model) {
      model = this.register(
        new AgentModel(agentId, this.source, (change) => this._onDidChange.fire(change), this.platform, this.kept),
      );
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

  /** The agents created or added by id here, each as the platform reads it where it can, else as kept. */
  private keptAgents(): Promise<ShownAgent[]> {
    return Promise.all(
      this.kept.agents().map(async (r) => {
        const read = await this.find(r.agentId).catch(() => undefined);
        return (
          read ?? {
            agentId: r.agentId,
            name: r.name ?? r.agentId,
            description: r.description ?? '',
            ...(r.unverified ? { unverified: true } : {}),
          }
        );
      }),
    );
  }

  /** The agents created or added by id here, as kept (no read). */
  keptAgentRecords(): ReturnType<KeptOfProfile['agents']> {
    return this.kept.agents();
  }

  /** Creates an agent with its main branch; the agent and main's id are kept, for platforms that do not list them. */
  createAgent(request: CreateAgentRequest, signal?: AbortSignal): Promise<CreateAgentResponse> {
    return writeThen(
      () => this.platform().createAgent(request, signal),
      () => this.agents.invalidate(),
      async (created) => {
        await this.kept.addAgent({ agentId: created.agentId, name: created.name, description: created.description });
        if (created.defaultBranch)
          await this.kept.addBranch(created.agentId, {
            branchId: created.defaultBranch.branchId,
            name: created.defaultBranch.name,
          });
      },
    );
  }

  /**
   * Adds an agent by its id, for platforms that do not list agents: the platform is asked first, and an id that
   * names no agent (`missing`) is not kept. Every view then shows the agent.
   */
  async addAgentById(agentId: string, signal?: AbortSignal): Promise<AgentIdCheck> {
    const check = await verifyAgentId(this.platform(), agentId, signal);
    if (check.kind === 'missing') return check;
    const found = check.kind === 'found' ? check.agent : undefined;
    await this.kept.addAgent({
      agentId,
      ...(found ? { name: found.name, description: found.description } : {}),
      ...(check.kind === 'unverified' ? { unverified: true } : {}),
    });
    this.knownAgents.refresh().catch(() => undefined);
    return check;
  }

  /**
   * The platform as a checked-out folder's mirror reaches it: its reads are this model's values, and each write
   * updates (behavior) or forgets (topics, configs) what it changed.
   */
  mirrorClient(): MirrorClient {
    return modelMirrorClient(this, this.platform());
  }

  /** What was kept of deployments was forgotten (the platform's data is new): every view reads them again. */
  keptDeploymentsForgotten(): void {
    for (const model of this.byId.values()) model.deployments.invalidate();
  }

  /** Forgets everything (a full refresh). */
  invalidate(): void {
    for (const model of this.byId.values()) model.invalidate();
    this.agents.forgetFailure();
    this.agents.invalidate();
  }
}
