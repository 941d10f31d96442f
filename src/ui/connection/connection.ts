import * as vscode from 'vscode';
import { type ConnectionProfile, type CredentialId, LOCAL_PROFILE_ID } from '../../client/profile';
import type { Transport } from '../../client/transport';
import { Disposable, MutableDisposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { newTransport, PlatformClients, type UiClients } from '../model/platformClients';
import type { LocalPlatformCredentials, LocalPlatformUrls } from '../../localPlatform/server';
import type { LocalProjectCredentials } from '../../localPlatform/seed/credentials';
import type { Log } from '../log';
import type { ProfileStore } from './profileStore';
import type { SecretVault } from './secretVault';
import { ContextKey } from '../ids';

/** How long each answer of the platform is waited for (seconds). */
const TIMEOUT_SETTING = 'agentWorkbench.requestTimeoutSeconds';

function requestTimeoutMs(): number {
  const seconds = vscode.workspace.getConfiguration().get<number>(TIMEOUT_SETTING, 30);
  return (typeof seconds === 'number' && seconds >= 1 ? Math.min(seconds, 600) : 30) * 1000;
}

/**
 * The live connection: the platform clients of the active profile (one `PlatformClients`, made again when
 * the profile or its settings change), and the built-in Local profile while the local platform runs.
 */
export class Connection extends Disposable {
  /** One transport (keep-alive pools) for every profile, created on first use. */
  private readonly transportHolder = this.register(new MutableDisposable<Transport>());
  private cached: PlatformClients | undefined;
  /** The running local platform's addresses and projects (each with the agent it serves), while attached. */
  private local: { urls: LocalPlatformUrls; credentials: LocalPlatformCredentials } | undefined;
  private readonly _onDidChange = this.register(new Emitter<void>());
  /**
   * Fires when what the active profile reaches may differ: another profile, new settings, or a credential of the
   * active profile set or removed. Its clients are then new ones, so what was read (or failed) before is not kept.
   */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidNotReach = this.register(new Emitter<string>());
  /** Fires with an origin at which a request found nothing answering (refused, reset, not resolved). */
  readonly onDidNotReach = this._onDidNotReach.event;

  constructor(
    readonly profiles: ProfileStore,
    readonly vault: SecretVault,
    private readonly log: Log,
  ) {
    super();
    this.register(
      profiles.onDidChange(() => {
        this.cached = undefined;
        void vscode.commands.executeCommand('setContext', ContextKey.connected, Boolean(profiles.active));
        this._onDidChange.fire();
      }),
    );
    this.register(
      vault.onDidChange(({ profileId }) => {
        if (profileId !== profiles.active?.id) return;
        this.cached = undefined;
        this._onDidChange.fire();
      }),
    );
    void vscode.commands.executeCommand('setContext', ContextKey.connected, Boolean(profiles.active));
    // A new timeout applies to the next request, on the same connections.
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(TIMEOUT_SETTING) && this.transportHolder.value)
          this.transportHolder.value.options.timeoutMs = requestTimeoutMs();
      }),
    );
  }

  /**
   * The platform clients of the active profile, or undefined when none is chosen. Agents and alerts are read and
   * written through the profile's models (`ProfileModels`), which `platformClients` serve.
   */
  get clients(): UiClients | undefined {
    return this.platformClients;
  }

  /** Every platform client of the active profile: what the models read and write through. */
  get platformClients(): PlatformClients | undefined {
    const profile = this.profiles.active;
    if (!profile) return undefined;
    if (this.cached?.profile.id !== profile.id) this.cached = this.allClientsFor(profile);
    return this.cached;
  }

  /** Clients of any profile (Test Connection of one that is not active), sharing the one transport. */
  clientsFor(profile: ConnectionProfile): UiClients {
    return this.allClientsFor(profile);
  }

  /**
   * Clients of a profile with some credentials given instead of its own (a side of a comparison reaching another
   * environment with that environment's Chat connector token); the others are the profile's.
   */
  clientsWith(profile: ConnectionProfile, given: Partial<Record<CredentialId, string>>): UiClients {
    return new PlatformClients(
      profile,
      (id) => (given[id] !== undefined ? Promise.resolve(given[id]) : this.vault.get(profile.id, id)),
      () => this.transport,
    );
  }

  private allClientsFor(profile: ConnectionProfile): PlatformClients {
    return new PlatformClients(
      profile,
      (id) => this.vault.get(profile.id, id),
      () => this.transport,
    );
  }

  private get transport(): Transport {
    this.transportHolder.value ??= newTransport((entry) => {
      this.log.request(entry);
      if (entry.unreachable) this._onDidNotReach.fire(entry.origin);
    }, requestTimeoutMs());
    return this.transportHolder.value;
  }

  /** Shows the Local profile for a running local platform and stores its credentials; activates it when nothing else is active. */
  async attachLocal(lp: { urls: LocalPlatformUrls; credentials: LocalPlatformCredentials }): Promise<void> {
    const profile: ConnectionProfile = {
      id: LOCAL_PROFILE_ID,
      name: vscode.l10n.t('Local platform'),
      accountId: lp.credentials.accountId,
      projectId: lp.credentials.projectId,
      region: 'local',
      runtimeUrl: lp.urls.runtime,
      buildUrl: lp.urls.build,
      messagingUrl: lp.urls.messaging,
    };
    await this.storeLocalKeys(LOCAL_PROFILE_ID, lp.credentials, lp.credentials);
    this.local = lp;
    this.profiles.setLocal(profile);
    if (!this.profiles.active) await this.profiles.setActive(LOCAL_PROFILE_ID);
    this.log.info(`Local profile points at ${lp.urls.origin}`);
  }

  /** Stores a local profile's keys: the account's Agents and Alerts keys, and its project's runtime keys. */
  private async storeLocalKeys(
    profileId: string,
    account: LocalPlatformCredentials,
    project: Pick<LocalProjectCredentials, 'keys' | 'connectors'>,
  ): Promise<void> {
    const { keys, connectors } = project;
    await Promise.all([
      this.vault.set(profileId, 'agentsApiKey', account.keys.agents),
      this.vault.set(profileId, 'alertsApiKey', account.keys.alerts),
      this.vault.set(profileId, 'conversationsApiKey', keys.conversations),
      this.vault.set(profileId, 'chatApiKey', keys.chat),
      this.vault.set(profileId, 'chatConnectorToken', connectors.chatToken),
      this.vault.set(profileId, 'messagingConnectorToken', connectors.webchatToken),
      this.vault.set(profileId, 'messagingHost', connectors.webchatHost),
      this.vault.set(profileId, 'outboundAuthToken', connectors.outboundToken),
      this.vault.set(profileId, 'externalEventsApiKey', keys.externalEvents),
      this.vault.set(profileId, 'dniApiKey', keys.dni),
    ]);
  }

  detachLocal(): void {
    this.local = undefined;
    this.profiles.setLocal(undefined);
  }

  /** Whether a local platform is attached (its Local profile shown). */
  get localAttached(): boolean {
    return this.local !== undefined;
  }

  /** The projects of the attached local platform, each with the agent it serves (empty when none is attached). */
  get localProjects(): readonly LocalProjectCredentials[] {
    return this.local?.credentials.projects ?? [];
  }

  /**
   * The profile of a project of the local platform, with that project's runtime keys (the account's Agents and
   * Alerts keys are the Local profile's): what a feature opened under the Local profile uses for an agent of that
   * project. It is never made active nor listed, so the Local profile stays the one in use; it goes when the
   * platform stops.
   */
  async localProjectProfile(project: LocalProjectCredentials): Promise<ConnectionProfile> {
    const lp = this.local;
    const main = this.profiles.get(LOCAL_PROFILE_ID);
    if (!lp || !main) throw new Error('The local platform is not running.');
    if (project.projectId === lp.credentials.projectId) return main;
    const id = `${LOCAL_PROFILE_ID}.${project.projectId}`;
    const kept = this.profiles.get(id);
    if (kept?.runtimeUrl === lp.urls.runtime) return kept;
    const profile: ConnectionProfile = {
      ...main,
      id,
      name: vscode.l10n.t('Local platform: {0}', project.name),
      projectId: project.projectId,
    };
    await this.storeLocalKeys(id, lp.credentials, project);
    this.profiles.setLocalProject(profile);
    this.log.info(`Runtime features for ${project.agentName} use the keys of project ${project.projectId}`);
    return profile;
  }

  /**
   * The connection as a runtime feature for one agent sees it: its clients are the given profile's (the project
   * whose runtime keys reach the agent), everything else is this connection's. This one when the profile is active.
   */
  through(profile: ConnectionProfile | undefined): Connection {
    if (!profile || profile.id === this.profiles.active?.id) return this;
    const clients = this.clientsFor(profile);
    return Object.create(this, { clients: { get: () => clients } }) as Connection;
  }
}
