import type { CredentialId } from '../client/profile';
import { CHAT_KEY_VARIABLE, CHAT_TOKEN_VARIABLE, CONVERSATIONS_KEY_VARIABLE } from './testTargets';

/**
 * The environment variables the command line reads credentials from, never from a file or an argument: the Chat
 * pair that `test` reads too, and one per API family the assistant tools reach.
 */
export const CREDENTIAL_VARIABLES = {
  agentsApiKey: 'AGENT_WORKBENCH_AGENTS_API_KEY',
  conversationsApiKey: CONVERSATIONS_KEY_VARIABLE,
  alertsApiKey: 'AGENT_WORKBENCH_ALERTS_API_KEY',
  chatApiKey: CHAT_KEY_VARIABLE,
  chatConnectorToken: CHAT_TOKEN_VARIABLE,
} as const satisfies Partial<Record<CredentialId, string>>;

/** The credentials the environment holds, by credential id. */
export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): Partial<Record<CredentialId, string>> {
  const out: Partial<Record<CredentialId, string>> = {};
  for (const [id, name] of Object.entries(CREDENTIAL_VARIABLES) as Array<[CredentialId, string]>) {
    const value = env[name];
    if (value) out[id] = value;
  }
  return out;
}
