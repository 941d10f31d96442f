import { Disposable, MutableDisposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import type { AgentsPlatform, AgentsSource } from './agentsSource';
import type { AlertsSource } from './alertsSource';
import { AgentsModel } from './agentsModel';
import { AlertsModel } from './alertsModel';
import { keptOf, type RememberedAgents } from './rememberedAgents';

/** Everything the editor knows of the platform through one connection profile. */
export class ProfileModel extends Disposable {
  readonly agents: AgentsModel;
  readonly alerts: AlertsModel;

  constructor(
    readonly profileId: string,
    sources: {
      agents: AgentsSource;
      alerts: AlertsSource;
      agentsPlatform?: () => AgentsPlatform;
      kept?: RememberedAgents;
    },
  ) {
    super();
    this.agents = this.register(
      new AgentsModel(sources.agents, sources.agentsPlatform, sources.kept && keptOf(sources.kept, profileId)),
    );
    this.alerts = this.register(new AlertsModel(sources.alerts));
  }
}

/** How the models reach the platform: the active profile's id and context, and the reads made from a context. */
export interface ModelSources<Ctx extends object> {
  active(): { profileId: string; ctx: Ctx } | undefined;
  readonly onDidChangeActive: Event<unknown>;
  agents(ctx: Ctx): AgentsSource;
  alerts(ctx: Ctx): AlertsSource;
  /** The agents family's writes (and the reads they need), made on first use. */
  agentsPlatform?(ctx: Ctx): () => AgentsPlatform;
  /** What is kept per profile of agents, branches and deployments, for platforms that do not list them. */
  readonly kept?: RememberedAgents;
}

/**
 * The model of the active connection profile. A new profile, or new settings of the same one (a new
 * client context), starts a new model; the old one is released, so nothing read through one profile
 * is shown for another.
 */
export class ProfileModels<Ctx extends object> extends Disposable {
  private readonly current = this.register(new MutableDisposable<ProfileModel>());
  private currentCtx: Ctx | undefined;
  private readonly _onDidChange = this.register(new Emitter<ProfileModel | undefined>());
  /** Fires when the active profile's model is replaced (a new profile or new settings). */
  readonly onDidChange: Event<ProfileModel | undefined> = this._onDidChange.event;

  constructor(private readonly sources: ModelSources<Ctx>) {
    super();
    this.register(
      sources.onDidChangeActive(() => {
        const before = this.current.value;
        if (this.active() !== before) this._onDidChange.fire(this.current.value);
      }),
    );
  }

  /** The model of the active profile, or undefined when none is chosen. */
  active(): ProfileModel | undefined {
    const now = this.sources.active();
    if (!now) {
      this.current.value = undefined;
      this.currentCtx = undefined;
      return undefined;
    }
    if (this.current.value?.profileId !== now.profileId || this.currentCtx !== now.ctx) {
      this.current.value = new ProfileModel(now.profileId, {
        agents: this.sources.agents(now.ctx),
        alerts: this.sources.alerts(now.ctx),
        ...(this.sources.agentsPlatform ? { agentsPlatform: this.sources.agentsPlatform(now.ctx) } : {}),
        ...(this.sources.kept ? { kept: this.sources.kept } : {}),
      });
      this.currentCtx = now.ctx;
    }
    return this.current.value;
  }
}
