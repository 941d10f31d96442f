import type * as vscode from 'vscode';
import { CREDENTIALS, type CredentialId, secretKey } from '../../client/profile';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { Redactor } from '../../core/redact';

/**
 * Credentials of every profile, kept only in VS Code's SecretStorage. Every value read or
 * stored is taught to the redactor, so it can never reach the log.
 */
export class SecretVault extends Disposable {
  /** Values read this session: every platform call needs its key, and SecretStorage is a round trip away. */
  private readonly cache = new Map<string, Promise<string | undefined>>();
  private readonly _onDidChange = this.register(new Emitter<{ profileId: string; id: CredentialId }>());
  /** Fires after a credential of a profile was stored or removed here (never with its value). */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {
    super();
    // Another window may change a secret: forget it, so the next call reads the new value.
    this.register(secrets.onDidChange((e) => this.cache.delete(e.key)));
  }

  get(profileId: string, id: CredentialId): Promise<string | undefined> {
    const key = secretKey(profileId, id);
    let value = this.cache.get(key);
    if (!value) {
      value = Promise.resolve(this.secrets.get(key)).then((v) => {
        if (v && id !== 'messagingHost') this.redactor.add(v);
        return v || undefined;
      });
      this.cache.set(key, value);
      value.catch(() => this.cache.delete(key));
    }
    return value;
  }

  async set(profileId: string, id: CredentialId, value: string): Promise<void> {
    if (id !== 'messagingHost') this.redactor.add(value);
    const key = secretKey(profileId, id);
    this.cache.delete(key);
    await this.secrets.store(key, value);
    this.cache.set(key, Promise.resolve(value));
    this._onDidChange.fire({ profileId, id });
  }

  async delete(profileId: string, id: CredentialId): Promise<void> {
    const key = secretKey(profileId, id);
    this.cache.delete(key);
    await this.secrets.delete(key);
    this.cache.delete(key);
    this._onDidChange.fire({ profileId, id });
  }

  override dispose(): void {
    super.dispose();
    this.cache.clear();
  }

  /** Which credentials a profile has (values are not returned). */
  async configured(profileId: string): Promise<Set<CredentialId>> {
    const present = new Set<CredentialId>();
    await Promise.all(
      CREDENTIALS.map(async (c) => {
        if (await this.secrets.get(secretKey(profileId, c.id))) present.add(c.id);
      }),
    );
    return present;
  }

  async deleteAll(profileId: string): Promise<void> {
    await Promise.all(CREDENTIALS.map((c) => this.delete(profileId, c.id)));
  }

  /** Teaches the redactor every stored secret (at start, before anything is logged). */
  async primeRedactor(profileIds: readonly string[]): Promise<void> {
    await Promise.all(
      profileIds.flatMap((p) => CREDENTIALS.filter((c) => c.id !== 'messagingHost').map((c) => this.get(p, c.id))),
    );
  }
}
