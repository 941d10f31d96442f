import { type ApiFamily, PlatformError } from './errors';
import { type ConnectionProfile, CREDENTIALS, type CredentialId, type CredentialSource } from './profile';
import type { Transport } from './transport';

export type BaseKind = 'runtime' | 'build' | 'messaging';

/** What every family module of the client needs: the profile, its credentials and the transport. */
export class ClientContext {
  constructor(
    readonly profile: ConnectionProfile,
    private readonly credentials: CredentialSource,
    readonly transport: Transport,
  ) {}

  base(kind: BaseKind): string {
    switch (kind) {
      case 'runtime':
        return this.profile.runtimeUrl;
      case 'build':
        return this.profile.buildUrl;
      case 'messaging':
        return this.profile.messagingUrl;
    }
  }

  /** `/{account_id}/{project_id}` with both segments encoded. */
  get projectPath(): string {
    return `/${encodeURIComponent(this.profile.accountId)}/${encodeURIComponent(this.profile.projectId)}`;
  }

  /** A credential, or a `notConfigured` error naming it (nothing is sent without it). */
  async credential(id: CredentialId, family: ApiFamily, operation: string): Promise<string> {
    const value = await this.credentials(id);
    if (value) return value;
    const label = CREDENTIALS.find((c) => c.id === id)?.label ?? id;
    throw new PlatformError({ family, kind: 'notConfigured', operation, serverMessage: label });
  }

  async hasCredential(id: CredentialId): Promise<boolean> {
    return Boolean(await this.credentials(id));
  }
}
