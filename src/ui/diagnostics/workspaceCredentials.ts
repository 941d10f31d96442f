import { CREDENTIALS } from '../../client/profile';
import type { ProfileStore } from '../connection/profileStore';
import type { SecretVault } from '../connection/secretVault';

/**
 * The values of every credential of every profile, for the `secret` rule to find pasted into a file. Only the
 * checks see them; a diagnostic never repeats one. The messaging host is an address, not a secret.
 */
export async function workspaceCredentials(profiles: ProfileStore, vault: SecretVault): Promise<string[]> {
  const values = await Promise.all(
    profiles
      .list()
      .flatMap((p) => CREDENTIALS.filter((c) => c.id !== 'messagingHost').map((c) => vault.get(p.id, c.id))),
  );
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
