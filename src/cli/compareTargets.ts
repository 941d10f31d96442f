import type { SideTarget } from '../agentTests/compare/runComparison';
import type { ConversationsClient } from '../client/conversations';
import type { Transport } from '../client/transport';
import type { Environment } from '../contract/common';
import { chatConnectorServing } from '../localPlatform/chat/environmentConnectors';
import type { LocalPlatform } from '../localPlatform/server';
import {
  CHAT_KEY_VARIABLE,
  CHAT_TOKEN_VARIABLE,
  connectorTarget,
  localPlatformProfile,
  type ProfileFile,
  profileTargets,
  profileTraffic,
} from './testTargets';

/**
 * The variables a side's Chat key and connector token are read from: the environment's own
 * (AGENT_WORKBENCH_CHAT_API_KEY_PRE_RELEASE), else the shared ones of `test`. A connector token belongs to one
 * environment, so two environments need two tokens; the key may be shared.
 */
export function sideVariables(environment: string): { key: string; token: string } {
  const suffix = environment.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return { key: `${CHAT_KEY_VARIABLE}_${suffix}`, token: `${CHAT_TOKEN_VARIABLE}_${suffix}` };
}

/** The environment variables with a side's own key and token under the names `test` reads. */
export function sideEnvironment(environment: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = sideVariables(environment);
  return {
    ...env,
    [CHAT_KEY_VARIABLE]: env[own.key] ?? env[CHAT_KEY_VARIABLE],
    [CHAT_TOKEN_VARIABLE]: env[own.token] ?? env[CHAT_TOKEN_VARIABLE],
  };
}

/** What a side lacks to reach its environment, in words that say which variables to set; undefined when nothing. */
export function missingSideKeys(environment: string, env: NodeJS.ProcessEnv): string | undefined {
  const own = sideVariables(environment);
  const key = env[own.key] ?? env[CHAT_KEY_VARIABLE];
  const token = env[own.token] ?? env[CHAT_TOKEN_VARIABLE];
  if (key && token) return undefined;
  const missing = [key ? undefined : `${own.key} (or ${CHAT_KEY_VARIABLE})`, token ? undefined : own.token]
    .filter((m) => m !== undefined)
    .join(' and ');
  return `No Chat ${key ? 'connector token' : token ? 'API key' : 'API key or connector token'} for ${environment}: set ${missing}.`;
}

/** A side against an environment of a profile, with that environment's keys. */
export function profileSide(
  file: ProfileFile,
  environment: string,
  transport: Transport,
  env: NodeJS.ProcessEnv,
): SideTarget {
  const targets = profileTargets(file, environment, transport, sideEnvironment(environment, env));
  return (testCase) => targets({ ...(testCase.agent !== undefined ? { agent: testCase.agent } : {}) });
}

/**
 * A side against an environment of a local platform the run started: each case reaches the agent it names through
 * that agent's Chat connector for the environment (added when the seed has none there).
 */
export function localSide(lp: LocalPlatform, environment: Environment, transport: Transport): SideTarget {
  const clients: Parameters<typeof connectorTarget>[3] = new Map();
  return (testCase) => {
    const connector = chatConnectorServing(lp.platform, testCase.agent, environment);
    if (!connector) return { skip: `the local platform has no Chat connector for the agent ${testCase.agent ?? ''}` };
    return connectorTarget(lp, connector, transport, clients, true);
  };
}

/**
 * The conversations a replay reads on a local platform the run started: the Conversations API of the project that
 * serves `agentId` (the first Chat connector's agent when none is named), with that project's key.
 */
export function localTraffic(
  lp: LocalPlatform,
  agentId: string | undefined,
  transport: Transport,
): ConversationsClient | { none: string } {
  const { state } = lp.platform;
  const connector = state.connectors.find((c) => c.kind === 'chat' && (agentId === undefined || c.agentId === agentId));
  if (!connector) return { none: `the local platform has no agent ${agentId ?? ''} with a Chat connector` };
  const project = state.projects.find((p) => p.id === connector.projectId);
  const account = state.accounts.find((a) => a.id === connector.accountId);
  const key = state.keys.find((k) => k.family === 'conversations' && k.projectId === connector.projectId);
  if (!project || !account || !key)
    return { none: `the local platform has no Conversations API key for the agent ${connector.agentId}` };
  return profileTraffic(localPlatformProfile(account.slug, project.slug, lp.urls), key.key, transport);
}
