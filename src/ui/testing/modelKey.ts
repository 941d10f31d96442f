import type * as vscode from 'vscode';
import type { Redactor } from '../../core/redact';

/**
 * The key of an OpenAI-compatible endpoint, kept only in VS Code's SecretStorage and only for the endpoint it was
 * set for (by the base URL's origin): a base URL changed to another host is never sent the key of the first.
 * Every value read or stored is taught to the redactor, so no log line can carry it.
 */
export class ModelKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {}

  /** The SecretStorage name of an endpoint's key (no key in it). */
  static keyOf(baseUrl: string): string {
    return `agentWorkbench.tests.model.key.${originOf(baseUrl)}`;
  }

  async get(baseUrl: string): Promise<string | undefined> {
    const value = await this.secrets.get(ModelKeys.keyOf(baseUrl));
    if (value) this.redactor.add(value);
    return value || undefined;
  }

  async set(baseUrl: string, key: string): Promise<void> {
    this.redactor.add(key);
    await this.secrets.store(ModelKeys.keyOf(baseUrl), key);
  }

  async delete(baseUrl: string): Promise<void> {
    await this.secrets.delete(ModelKeys.keyOf(baseUrl));
  }
}

/** The scheme, host and port of a base URL; the text itself when it is not a URL. */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl.trim();
  }
}
