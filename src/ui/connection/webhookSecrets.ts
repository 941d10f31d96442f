import type * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { Redactor } from '../../core/redact';

/** Which endpoints of which profiles have a kept secret (ids only), so a removed profile leaves none behind. */
const INDEX_KEY = 'agentWorkbench.webhookSigningSecrets';
const LOCAL_PROFILE_ID = 'local';

interface ProfileList {
  list(): ReadonlyArray<{ id: string }>;
  readonly onDidChange: vscode.Event<void>;
}

/**
 * Signing secrets of webhook endpoints that the user chose to keep, in VS Code's SecretStorage
 * only, under a name scoped to the connection profile. Every value is taught to the redactor,
 * so it can never reach the log. Secrets of a removed profile are deleted with it.
 */
export class WebhookSecrets extends Disposable {
  private readonly _onDidChange = this.register(new Emitter<{ profileId: string; endpointId: string }>());
  /** Fires when the secret of an endpoint is kept or forgotten here (never with the secret). */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: Redactor,
    private readonly profiles: ProfileList,
  ) {
    super();
    this.register(profiles.onDidChange(() => void this.forgetRemovedProfiles()));
  }

  /** The SecretStorage name of an endpoint's secret (no secret in it). */
  static keyOf(profileId: string, endpointId: string): string {
    return `agentWorkbench.profile.${profileId}.webhookSigningSecret.${endpointId}`;
  }

  /** Teaches the redactor a new secret before it is shown or kept, so no log line can carry it. */
  protect(secret: string): void {
    this.redactor.add(secret);
  }

  async get(profileId: string, endpointId: string): Promise<string | undefined> {
    const value = await this.secrets.get(WebhookSecrets.keyOf(profileId, endpointId));
    if (value) this.redactor.add(value);
    return value || undefined;
  }

  async has(profileId: string, endpointId: string): Promise<boolean> {
    return (await this.get(profileId, endpointId)) !== undefined;
  }

  async store(profileId: string, endpointId: string, secret: string): Promise<void> {
    this.redactor.add(secret);
    await this.secrets.store(WebhookSecrets.keyOf(profileId, endpointId), secret);
    await this.updateIndex((index) => ({
      ...index,
      [profileId]: [...new Set([...(index[profileId] ?? []), endpointId])],
    }));
    this._onDidChange.fire({ profileId, endpointId });
  }

  async delete(profileId: string, endpointId: string): Promise<void> {
    await this.secrets.delete(WebhookSecrets.keyOf(profileId, endpointId));
    await this.updateIndex((index) =>
      withoutEmpty({ ...index, [profileId]: (index[profileId] ?? []).filter((id) => id !== endpointId) }),
    );
    this._onDidChange.fire({ profileId, endpointId });
  }

  /** Deletes the kept secrets of saved profiles that were removed (the Local profile only comes and goes with the local platform). */
  private async forgetRemovedProfiles(): Promise<void> {
    const present = new Set(this.profiles.list().map((p) => p.id));
    const index = await this.readIndex();
    const gone = Object.keys(index).filter((id) => id !== LOCAL_PROFILE_ID && !present.has(id));
    for (const profileId of gone) {
      await Promise.all(
        (index[profileId] ?? []).map((endpointId) => this.secrets.delete(WebhookSecrets.keyOf(profileId, endpointId))),
      );
    }
    if (gone.length)
      await this.updateIndex((i) => Object.fromEntries(Object.entries(i).filter(([id]) => !gone.includes(id))));
  }

  private async readIndex(): Promise<Record<string, string[]>> {
    try {
      const parsed: unknown = JSON.parse((await this.secrets.get(INDEX_KEY)) ?? '{}');
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string[]>) : {};
    } catch {
      return {};
    }
  }

  private async updateIndex(change: (index: Record<string, string[]>) => Record<string, string[]>): Promise<void> {
    await this.secrets.store(INDEX_KEY, JSON.stringify(change(await this.readIndex())));
  }
}

function withoutEmpty(index: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(index).filter(([, ids]) => ids.length > 0));
}
