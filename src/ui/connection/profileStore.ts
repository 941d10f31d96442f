import type * as vscode from 'vscode';
import type { Environment } from '../../contract/common';
import { type ConnectionProfile, LOCAL_PROFILE_ID } from '../../client/profile';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';

const PROFILES_KEY = 'agentWorkbench.profiles';
const ACTIVE_KEY = 'agentWorkbench.activeProfile';
const ENVIRONMENT_KEY = 'agentWorkbench.environment';

/**
 * The connection profiles (no secrets) in global state, the active one, and the environment
 * the user works against. The Local profile exists only while the local platform runs.
 */
export class ProfileStore extends Disposable {
  private local: ConnectionProfile | undefined;
  /**
   * Profiles of the local platform's other projects while it runs: the runtime keys a feature opened under the Local
   * profile uses for an agent of another project. Found by id (a chat keeps to its profile), never listed or active.
   */
  private localProjects: ConnectionProfile[] = [];
  private readonly _onDidChange = this.register(new Emitter<void>());
  /** Profiles or the active profile changed. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeEnvironment = this.register(new Emitter<void>());
  /** The environment worked against changed (nothing to reload: it only labels the work). */
  readonly onDidChangeEnvironment = this._onDidChangeEnvironment.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  list(): ConnectionProfile[] {
    const saved = this.state.get<ConnectionProfile[]>(PROFILES_KEY, []);
    return this.local ? [this.local, ...saved] : saved;
  }

  get(id: string): ConnectionProfile | undefined {
    return this.list().find((p) => p.id === id) ?? this.localProjects.find((p) => p.id === id);
  }

  get active(): ConnectionProfile | undefined {
    const id = this.state.get<string>(ACTIVE_KEY);
    return id ? this.list().find((p) => p.id === id) : undefined;
  }

  get environment(): Environment {
    return this.state.get<Environment>(ENVIRONMENT_KEY, 'sandbox');
  }

  async setEnvironment(env: Environment): Promise<void> {
    await this.state.update(ENVIRONMENT_KEY, env);
    this._onDidChangeEnvironment.fire();
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
    this._onDidChange.fire();
  }

  /** Adds or replaces a saved profile. */
  async save(profile: ConnectionProfile): Promise<void> {
    if (profile.id === LOCAL_PROFILE_ID) throw new Error('The Local profile is managed by the local platform.');
    const saved = this.state.get<ConnectionProfile[]>(PROFILES_KEY, []).filter((p) => p.id !== profile.id);
    await this.state.update(
      PROFILES_KEY,
      [...saved, profile].sort((a, b) => a.name.localeCompare(b.name)),
    );
    this._onDidChange.fire();
  }

  async remove(id: string): Promise<void> {
    const saved = this.state.get<ConnectionProfile[]>(PROFILES_KEY, []);
    await this.state.update(
      PROFILES_KEY,
      saved.filter((p) => p.id !== id),
    );
    if (this.state.get<string>(ACTIVE_KEY) === id) await this.state.update(ACTIVE_KEY, undefined);
    this._onDidChange.fire();
  }

  /** Shows or hides the built-in Local profile. */
  setLocal(profile: ConnectionProfile | undefined): void {
    this.local = profile;
    if (!profile) this.localProjects = [];
    this._onDidChange.fire();
  }

  /** Keeps a profile of another project of the running local platform (managed by it, like the Local profile). */
  setLocalProject(profile: ConnectionProfile): void {
    this.localProjects = [...this.localProjects.filter((p) => p.id !== profile.id), profile];
  }

  /** A profile name that is not taken yet. */
  isNameTaken(name: string, exceptId?: string): boolean {
    return this.list().some((p) => p.id !== exceptId && p.name.toLowerCase() === name.trim().toLowerCase());
  }
}

/** A short, stable id for a new profile. */
export function newProfileId(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 24) || 'profile';
  return `${slug}-${Date.now().toString(36)}`;
}

/** Whether a profile id is the local platform's: the Local profile, or the profile of one of its projects. */
function isLocalPlatformProfile(id: string): boolean {
  return id === LOCAL_PROFILE_ID || id.startsWith(`${LOCAL_PROFILE_ID}.`);
}

/**
 * Whether a folder checked out with the profile of id `checkedOut` is worked on with `active`: the same profile, or
 * both the local platform's (its projects' runtime keys go with the Local profile; the account is one).
 */
export function checkedOutWith(checkedOut: string, active: Pick<ConnectionProfile, 'id'> | undefined): boolean {
  if (!active) return false;
  return checkedOut === active.id || (isLocalPlatformProfile(checkedOut) && isLocalPlatformProfile(active.id));
}

/** The name of the profile of an id, for a message: the id itself when no such profile is there now. */
export function profileName(profiles: ProfileStore, id: string): string {
  return profiles.get(id)?.name ?? id;
}
