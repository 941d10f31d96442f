import type * as vscode from 'vscode';
import { CREDENTIALS, type CredentialId, secretKey } from '../../client/profile';
import type { Redactor } from '../../core/redact';

/**
 * Credentials of every profile, kept only in VS Code's SecretStorage. Every value read or
 * stored is taught to the redactor, so it can never reach the log.
 */
export class SecretVault {
  constructor(private readonly secrets: vscode.SecretStorage, private readonly redactor: Redactor) {}

  async get(profileId: string, id: CredentialId): Promise<string | undefined> {
    const value = await this.secrets.get(secretKey(profileId, id));
    if (value && id !== 'messagingHost') this.redactor.add(value);
    return value || undefined;
  }

  async set(profileId: string, id: CredentialId, value: string): Promise<void> {
    if (id !== 'messagingHost') this.redactor.add(value);
    await this.secrets.store(secretKey(profileId, id), value);
  }

  async delete(profileId: string, id: CredentialId): Promise<void> {
    await this.secrets.delete(secretKey(profileId, id));
  }

  /** Which credentials a profile has (values are not returned). */
  async configured(profileId: string): Promise<Set<CredentialId>> {
    const present = new Set<CredentialId>();
    await Promise.all(CREDENTIALS.map(async (c) => {
      if (await this.secrets.get(secretKey(profileId, c.id))) present.add(c.id);
    }));
    return present;
  }

  async deleteAll(profileId: string): Promise<void> {
    await Promise.all(CREDENTIALS.map((c) => this.secrets.delete(secretKey(profileId, c.id))));
  }

  /** Teaches the redactor every stored secret (at start, before anything is logged). */
  async primeRedactor(profileIds: readonly string[]): Promise<void> {
    await Promise.all(profileIds.flatMap((p) => CREDENTIALS.filter((c) => c.id !== 'messagingHost').map((c) => this.get(p, c.id))));
  }
}
