import { readFileSync } from 'node:fs';
import type { CaseTarget } from '../agentTests/runner';
import type { TestCase } from '../agentTests/format';
import type { RecordReach } from '../agentTests/records/fetch';
import { recordReach } from '../agentTests/records/reach';
import { ChatClient } from '../client/chat';
import { ConversationsClient } from '../client/conversations';
import { ClientContext } from '../client/context';
import { type ConnectionProfile, type CredentialId, LOCAL_PROFILE_ID, REGION_PRESETS } from '../client/profile';
import type { Transport } from '../client/transport';
import type { LocalProjectCredentials } from '../localPlatform/seed/credentials';
import type { LocalPlatform } from '../localPlatform/server';
import type { StoredConnector } from '../localPlatform/state';

/** The environment variables the Chat API's credentials are read from: never from a file or an argument. */
export const CHAT_KEY_VARIABLE = 'AGENT_WORKBENCH_CHAT_API_KEY';
export const CHAT_TOKEN_VARIABLE = 'AGENT_WORKBENCH_CHAT_TOKEN';
/** The Conversations API key record checks read the conversations' records with (the assistant tools' too). */
export const CONVERSATIONS_KEY_VARIABLE = 'AGENT_WORKBENCH_CONVERSATIONS_API_KEY';

/** A connection profile as a file (no secrets): the project, its region or runtime address, and the agent its Chat keys reach. */
export interface ProfileFile {
  readonly profile: ConnectionProfile;
  /** The agent the Chat connector of these keys reaches, when the file says. */
  readonly agentId?: string;
}

/** Reads `--profile-file`; throws what to fix. */
export function readProfileFile(path: string): ProfileFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(
      `The profile file ${path} could not be read as JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof v[key] === 'string' && v[key] ? (v[key] as string) : undefined);
  const preset = REGION_PRESETS.find((r) => r.id === text('region'));
  const runtimeUrl = text('runtimeUrl') ?? preset?.runtimeUrl;
  const accountId = text('accountId');
  const projectId = text('projectId');
  if (!accountId || !projectId || !runtimeUrl)
    throw new Error(
      `The profile file ${path} needs "accountId", "projectId", and "region" (us, uk, eu) or "runtimeUrl". It holds no keys: those come from ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE}.`,
    );
  const agentId = text('agentId');
  return {
    profile: {
      id: text('id') ?? 'cli',
      name: text('name') ?? 'command line',
      accountId,
      projectId,
      region: preset?.id ?? 'custom',
      runtimeUrl,
      buildUrl: text('buildUrl') ?? preset?.buildUrl ?? runtimeUrl,
      messagingUrl: text('messagingUrl') ?? runtimeUrl,
    },
    ...(agentId ? { agentId } : {}),
  };
}

/** What a target needs of a case (or of a conversation the assistant tools hold): the agent and the environment it names. */
export type CaseReach = Pick<TestCase, 'agent' | 'environment'>;

/** Cases run against a profile's environment with the Chat keys of the environment variables. */
export function profileTargets(
  file: ProfileFile,
  environment: string,
  transport: Transport,
  env: NodeJS.ProcessEnv,
): (testCase: CaseReach) => CaseTarget {
  const credentials: Partial<Record<CredentialId, string>> = {
    ...(env[CHAT_KEY_VARIABLE] ? { chatApiKey: env[CHAT_KEY_VARIABLE] } : {}),
    ...(env[CHAT_TOKEN_VARIABLE] ? { chatConnectorToken: env[CHAT_TOKEN_VARIABLE] } : {}),
  };
  const chat = new ChatClient(new ClientContext(file.profile, async (id) => credentials[id], transport));
  const conversationsKey = env[CONVERSATIONS_KEY_VARIABLE];
  const records: RecordReach = conversationsKey
    ? recordsOf(file.profile, conversationsKey, environment, transport)
    : { none: `no Conversations API key is set: set ${CONVERSATIONS_KEY_VARIABLE} to read the conversations' records` };
  return (testCase) => {
    if (testCase.environment !== undefined && testCase.environment !== environment)
      return { skip: `the case runs against ${testCase.environment} only; this run is against ${environment}` };
    const note =
      testCase.agent && file.agentId && testCase.agent !== file.agentId
        ? `the profile's Chat keys reach ${file.agentId}, not ${testCase.agent}`
        : testCase.agent && !file.agentId
          ? `the profile does not say which agent its Chat keys reach; the case names ${testCase.agent}`
          : undefined;
    return { chat, records, ...(note ? { note } : {}) };
  };
}

/** The Conversations API (v3) of a profile's project with `key`, for the records of `environment`'s conversations. */
export function recordsOf(
  profile: ConnectionProfile,
  key: string,
  environment: string,
  transport: Transport,
): RecordReach {
  return recordReach(profileTraffic(profile, key, transport), environment);
}

/** The Conversations API (v3) of a profile's project with `key` (records of record checks, a replay's traffic). */
export function profileTraffic(profile: ConnectionProfile, key: string, transport: Transport): ConversationsClient {
  const credentials: Partial<Record<CredentialId, string>> = { conversationsApiKey: key };
  return new ConversationsClient(new ClientContext(profile, async (id) => credentials[id], transport));
}

/**
 * Cases run against a local platform started for the run: each reaches the agent it names through that agent's
 * own Chat connector and key, in the environment the connector serves (a case naming an agent the local platform
 * does not have is skipped, never sent to another).
 */
export function localTargets(lp: LocalPlatform, transport: Transport): (testCase: CaseReach) => CaseTarget {
  const { state } = lp.platform;
  const clients = new Map<string, { chat: ChatClient; records: RecordReach }>();
  return (testCase) => {
    const connectors = state.connectors.filter(
      (c) => c.kind === 'chat' && (testCase.agent === undefined || c.agentId === testCase.agent),
    );
    const connector =
      connectors.find((c) => c.token === lp.credentials.connectors.chatToken) ??
      connectors.find((c) => testCase.environment === undefined || c.environment === testCase.environment) ??
      connectors[0];
    if (!connector) return { skip: `the local platform has no Chat connector for the agent ${testCase.agent ?? ''}` };
    if (testCase.environment !== undefined && connector.environment !== testCase.environment)
      return {
        skip: `the case runs against ${testCase.environment} only; the local platform's Chat connector of ${connector.agentId} serves ${connector.environment}`,
      };
    return connectorTarget(lp, connector, transport, clients);
  };
}

/**
 * The Chat API of a local platform's Chat connector, with its project's Chat key; one client per connector.
 * `anyKeyEnvironment`: a key of any environment will do (the seeded key says sandbox, and the connectors a
 * comparison adds for other environments share it; the local platform checks no key's environment).
 */
export function connectorTarget(
  lp: LocalPlatform,
  connector: StoredConnector,
  transport: Transport,
  clients: Map<string, { chat: ChatClient; records: RecordReach }>,
  anyKeyEnvironment = false,
): CaseTarget {
  const { state } = lp.platform;
  const key = state.keys.find(
    (k) =>
      k.family === 'chat' &&
      k.projectId === connector.projectId &&
      (anyKeyEnvironment || !k.environment || k.environment === connector.environment),
  );
  const project = state.projects.find((p) => p.id === connector.projectId);
  const account = state.accounts.find((a) => a.id === connector.accountId);
  if (!key || !project || !account)
    return { skip: `the local platform has no Chat key for the agent ${connector.agentId}` };
  let reach = clients.get(connector.id);
  if (!reach) {
    const conversationsKey = state.keys.find((k) => k.family === 'conversations' && k.projectId === project.id);
    const profile = localPlatformProfile(account.slug, project.slug, lp.urls);
    reach = {
      chat: localChat(lp.urls, account.slug, project.slug, { key: key.key, token: connector.token }, transport),
      records: conversationsKey
        ? recordsOf(profile, conversationsKey.key, connector.environment, transport)
        : { none: `the local platform has no Conversations API key for the project ${project.slug}` },
    };
    clients.set(connector.id, reach);
  }
  return reach;
}

/** A local platform the run reaches over its admin API (`GET /_local/connection`), not one it runs itself. */
export interface ReachedLocalPlatform {
  readonly urls: { readonly runtime: string; readonly build: string; readonly messaging: string };
  readonly accountId: string;
  /** The account's projects, each with its runtime keys, Chat connector token and the agent it serves. */
  readonly projects: readonly LocalProjectCredentials[];
}

/**
 * Cases run against a local platform another program runs (the editor's): each reaches the agent it names through
 * the Chat key and connector of that agent's own project, as the local platform lists them; the local platform's
 * Chat connectors serve sandbox. A case naming an agent no project serves is skipped, never sent to another.
 */
export function reachedLocalTargets(
  lp: ReachedLocalPlatform,
  transport: Transport,
): (testCase: CaseReach) => CaseTarget {
  const clients = new Map<string, { chat: ChatClient; records: RecordReach }>();
  return (testCase) => {
    const project =
      testCase.agent === undefined ? lp.projects[0] : lp.projects.find((p) => p.agentId === testCase.agent);
    if (!project) return { skip: `the local platform has no Chat connector for the agent ${testCase.agent ?? ''}` };
    if (testCase.environment !== undefined && testCase.environment !== 'sandbox')
      return {
        skip: `the case runs against ${testCase.environment} only; the local platform's Chat connector of ${project.agentId} serves sandbox`,
      };
    let reach = clients.get(project.projectId);
    if (!reach) {
      const secrets = { key: project.keys.chat, token: project.connectors.chatToken };
      const profile = localPlatformProfile(lp.accountId, project.projectId, lp.urls);
      reach = {
        chat: localChat(lp.urls, lp.accountId, project.projectId, secrets, transport),
        records: recordsOf(profile, project.keys.conversations, 'sandbox', transport),
      };
      clients.set(project.projectId, reach);
    }
    return reach;
  };
}

/** The Chat API of one project of a local platform, with that project's Chat key and connector token. */
function localChat(
  urls: ReachedLocalPlatform['urls'],
  accountId: string,
  projectId: string,
  secrets: { key: string; token: string },
  transport: Transport,
): ChatClient {
  const profile = localPlatformProfile(accountId, projectId, urls);
  const credentials: Partial<Record<CredentialId, string>> = {
    chatApiKey: secrets.key,
    chatConnectorToken: secrets.token,
  };
  return new ChatClient(new ClientContext(profile, async (id) => credentials[id], transport));
}

/** The Local profile of a project of a local platform. */
export function localPlatformProfile(
  accountId: string,
  projectId: string,
  urls: ReachedLocalPlatform['urls'],
): ConnectionProfile {
  return {
    id: LOCAL_PROFILE_ID,
    name: 'Local platform',
    accountId,
    projectId,
    region: 'local',
    runtimeUrl: urls.runtime,
    buildUrl: urls.build,
    messagingUrl: urls.messaging,
  };
}
