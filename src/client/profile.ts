import type { ApiFamily } from './errors';

/** Where a profile's three base addresses come from. */
export type RegionId = 'us' | 'uk' | 'eu' | 'custom' | 'local';

export interface RegionPreset {
  id: Exclude<RegionId, 'custom' | 'local'>;
  label: string;
  /** {base_url}: runtime and data (regions us-1, uk-1, euw-1). */
  runtimeUrl: string;
  /** {build_base_url}: build and monitoring (regions us, uk, eu). */
  buildUrl: string;
}

/**
 * Editable presets from public material about the reference platform. The messaging cluster
 * address has no public pattern, so it is always entered by hand.
 */
export const REGION_PRESETS: readonly RegionPreset[] = [
  {
    id: 'us',
    label: 'United States (us-1 / us)',
    runtimeUrl: 'https://api.us-1.platform.polyai.app',
    buildUrl: 'https://api.us.poly.ai',
  },
  {
    id: 'uk',
    label: 'United Kingdom (uk-1 / uk)',
    runtimeUrl: 'https://api.uk-1.platform.polyai.app',
    buildUrl: 'https://api.uk.poly.ai',
  },
  {
    id: 'eu',
    label: 'Europe (euw-1 / eu)',
    runtimeUrl: 'https://api.euw-1.platform.polyai.app',
    buildUrl: 'https://api.eu.poly.ai',
  },
];

export const LOCAL_PROFILE_ID = 'local';

/** A connection to one account and project of a platform. Holds no secrets. */
export interface ConnectionProfile {
  id: string;
  name: string;
  accountId: string;
  projectId: string;
  region: RegionId;
  runtimeUrl: string;
  buildUrl: string;
  messagingUrl: string;
}

/** The credentials a profile can hold, one per family need; all are kept in SecretStorage. */
export const CREDENTIALS = [
  { id: 'agentsApiKey', family: 'agents', label: 'Agents API key', header: 'x-api-key' },
  { id: 'conversationsApiKey', family: 'conversations', label: 'Conversations v3 key', header: 'x-api-key' },
  { id: 'alertsApiKey', family: 'alerts', label: 'Alerts API key', header: 'x-api-key' },
  { id: 'chatApiKey', family: 'chat', label: 'Chat API key', header: 'X-API-KEY' },
  { id: 'chatConnectorToken', family: 'chat', label: 'Chat connector token', header: 'X-TOKEN' },
  { id: 'messagingConnectorToken', family: 'messaging', label: 'Messaging connector token', header: 'X-Token' },
  {
    id: 'messagingHost',
    family: 'messaging',
    label: 'Messaging host (registered domain or app namespace)',
    header: 'X-Host',
  },
  { id: 'outboundAuthToken', family: 'outbound', label: 'Outbound auth token', header: 'X-Service-Auth-Token' },
  { id: 'externalEventsApiKey', family: 'externalEvents', label: 'External Events key', header: 'X-Api-Key' },
  { id: 'dniApiKey', family: 'dni', label: 'DNI key', header: 'x-api-key' },
] as const satisfies ReadonlyArray<{ id: string; family: ApiFamily; label: string; header: string }>;

export type CredentialId = (typeof CREDENTIALS)[number]['id'];

/** Reads a credential of the active profile (from SecretStorage in the editor). */
export type CredentialSource = (id: CredentialId) => Promise<string | undefined>;

/** The name a credential is stored under in SecretStorage. */
export function secretKey(profileId: string, id: CredentialId): string {
  return `agentWorkbench.profile.${profileId}.${id}`;
}

const ACCOUNT_PREFIXED = /^ACCOUNT-[A-Za-z0-9]+$/;
const PROJECT_PREFIXED = /^PROJECT-[A-Za-z0-9]+$/;
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Checks an account or project id in slug or prefixed form; returns what is wrong, or undefined. */
export function checkPathId(kind: 'account' | 'project', value: string): string | undefined {
  const v = value.trim();
  if (!v) return `Enter the ${kind} id.`;
  const prefixed = kind === 'account' ? ACCOUNT_PREFIXED : PROJECT_PREFIXED;
  if (prefixed.test(v) || SLUG.test(v)) return undefined;
  return `The ${kind} id is a slug (letters, digits, - and _) or the prefixed form ${kind === 'account' ? 'ACCOUNT-xxxxxxx' : 'PROJECT-xxxxxxxx'}.`;
}

/**
 * Reads account and project ids from an authoring studio address
 * `{studio_url}/{account_id}/{project_id}/...`, slug or prefixed form.
 */
export function parseStudioUrl(text: string): { accountId: string; projectId: string } | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segs = url.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  // The ids are the first two segments; a prefixed pair anywhere is also accepted (some studio links carry a locale first).
  const prefixedAt = segs.findIndex((s, i) => ACCOUNT_PREFIXED.test(s) && PROJECT_PREFIXED.test(segs[i + 1] ?? ''));
  const [accountId, projectId] = prefixedAt >= 0 ? segs.slice(prefixedAt) : segs;
  if (accountId === undefined || projectId === undefined) return undefined;
  return prefixedAt >= 0 || (SLUG.test(accountId) && SLUG.test(projectId)) ? { accountId, projectId } : undefined;
}

/** Checks a base URL; returns what is wrong, or undefined. Plain http is allowed only on loopback. */
export function checkBaseUrl(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `The ${what} must be a full address such as https://api.example.com.`;
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return undefined;
  return `The ${what} must use https (plain http only on this machine).`;
}

/** A poly.ai build base must name a region: an address without one is an error on the platform (ADDR-2). */
export function checkBuildUrlRegion(value: string): string | undefined {
  try {
    const host = new URL(value).hostname.toLowerCase();
    // A poly.ai build address names its region as a label of the host (api.us.poly.ai); others cannot be judged here.
    if (/(^|\.)poly\.ai$/.test(host) && !host.split('.').some((label) => ['us', 'uk', 'eu'].includes(label)))
      return `The build address ${host} names no region: use api.us.poly.ai, api.uk.poly.ai or api.eu.poly.ai.`;
  } catch {
    return undefined;
  }
  return undefined;
}
