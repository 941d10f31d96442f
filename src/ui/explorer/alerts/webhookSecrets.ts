import type * as vscode from 'vscode';
import type { Redactor } from '../../../core/redact';

/**
 * Signing secrets of webhook endpoints that the user chose to keep, in VS Code's SecretStorage
 * only, under a name scoped to the connection profile. Every value is taught to the redactor,
 * so it can never reach the log.
 */
export class WebhookSecrets {
  constructor(private readonly secrets: vscode.SecretStorage, private readonly redactor: Redactor) {}

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
  }

  async delete(profileId: string, endpointId: string): Promise<void> {
    await this.secrets.delete(WebhookSecrets.keyOf(profileId, endpointId));
  }
}
