import type { Platform } from '../platform';
import { emptyState, type PlatformState } from '../state';
import { LOCAL_ACCOUNT, LOCAL_AGENT_ID, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from './credentials';
import { seedDemo } from './demo';
import { defaultProjectSettings } from './projects';
import { SEED_EPOCH, SUPPORT_AGENT_CONTENT } from './supportAgent';

/** `empty`: nothing at all; `base`: the account, keys and one agent (tests); `demo`: base plus a week of data. */
export type SeedName = 'empty' | 'base' | 'demo';

export const SEED_NAMES: readonly SeedName[] = ['empty', 'base', 'demo'];

/**
 * Where the demo week ends: `fixed` at SEED_EPOCH (the platform's clock starts there; tests rely on
 * exact dates), or `now`: the same data moved so that it ends at the current hour, the clock left
 * on real time (what a person trying the product sees: "the last seven days" are really that).
 */
export type DemoAnchor = 'fixed' | 'now';

export function applySeed(platform: Platform, seed: SeedName, anchor: DemoAnchor = 'fixed'): void {
  const state = emptyState();
  if (seed !== 'empty') seedBase(state);
  platform.replaceState(state);
  if (seed === 'demo') {
    // Built around SEED_EPOCH, so in-progress demo calls are minutes old and alert windows see the traffic.
    platform.clock.set(SEED_EPOCH);
    seedDemo(platform);
    if (anchor === 'now') {
      const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
      shiftTimestamps(platform.state, hour - SEED_EPOCH);
      platform.clock.set(Date.now());
    }
  }
  platform.mutated();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** Moves every ISO 8601 instant held in the state by `deltaMs`, leaving everything else as it is. */
export function shiftTimestamps(value: unknown, deltaMs: number): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (typeof item === 'string' && ISO_INSTANT.test(item))
        value[i] = new Date(Date.parse(item) + deltaMs).toISOString();
      else shiftTimestamps(item, deltaMs);
    });
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'string' && ISO_INSTANT.test(v)) obj[k] = new Date(Date.parse(v) + deltaMs).toISOString();
      else shiftTimestamps(v, deltaMs);
    }
  }
}

/** The account, its keys and connectors, and the support agent with a main branch and deployments. */
export function seedBase(state: PlatformState): void {
  const at = new Date(SEED_EPOCH).toISOString();
  const acc = LOCAL_ACCOUNT.id;
  const proj = LOCAL_PROJECT.id;
  state.accounts.push({ ...LOCAL_ACCOUNT });
  state.projects.push({ ...LOCAL_PROJECT, accountId: acc, settings: defaultProjectSettings() });
  state.variants.push(
    { id: 'var_default', name: 'Default', projectId: proj },
    { id: 'var_friendly', name: 'Friendly Tone', projectId: proj },
  );
  state.keys.push(
    { key: LOCAL_KEYS.agents, family: 'agents', accountId: acc, label: 'Agents API key' },
    {
      key: LOCAL_KEYS.agentsReadOnly,
      family: 'agents',
      accountId: acc,
      readOnly: true,
      label: 'Agents API key (read only)',
    },
    { key: LOCAL_KEYS.alerts, family: 'alerts', accountId: acc, label: 'Alerts API key' },
    {
      key: LOCAL_KEYS.conversations,
      family: 'conversations',
      accountId: acc,
      projectId: proj,
      dataPermission: true,
      label: 'Conversations v3 key',
    },
    {
      key: LOCAL_KEYS.chat,
      family: 'chat',
      accountId: acc,
      projectId: proj,
      environment: 'sandbox',
      label: 'Chat API key',
    },
    {
      key: LOCAL_KEYS.externalEvents,
      family: 'externalEvents',
      accountId: acc,
      projectId: proj,
      label: 'External Events key',
    },
    { key: LOCAL_KEYS.dni, family: 'dni', accountId: acc, projectId: proj, agentId: LOCAL_AGENT_ID, label: 'DNI key' },
  );
  const common = { accountId: acc, projectId: proj, agentId: LOCAL_AGENT_ID };
  state.connectors.push(
    {
      ...common,
      id: 'conn_chat',
      token: LOCAL_CONNECTORS.chatToken,
      kind: 'chat',
      environment: 'sandbox',
      outboundEnabled: false,
      handoffDestination: 'human-support-queue',
    },
    {
      ...common,
      id: 'conn_webchat',
      token: LOCAL_CONNECTORS.webchatToken,
      kind: 'webchat',
      environment: 'sandbox',
      hostDomain: LOCAL_CONNECTORS.webchatHost,
      appNamespace: 'com.example.app',
      outboundEnabled: false,
      handoffDestination: 'human-support-queue',
      handoffMode: 'ok',
    },
    {
      ...common,
      id: 'conn_webchat_nohost',
      token: LOCAL_CONNECTORS.webchatNoHostToken,
      kind: 'webchat',
      environment: 'sandbox',
      hostDomain: null,
      appNamespace: null,
      outboundEnabled: false,
    },
    {
      ...common,
      id: 'conn_voice_out',
      token: LOCAL_CONNECTORS.outboundToken,
      kind: 'voice',
      environment: 'live',
      outboundEnabled: true,
      handoffDestination: '+14155550100',
    },
    {
      ...common,
      id: 'conn_voice_in',
      token: LOCAL_CONNECTORS.voiceNoOutboundToken,
      kind: 'voice',
      environment: 'live',
      outboundEnabled: false,
    },
  );
  state.agents.agents[LOCAL_AGENT_ID] = {
    agentId: LOCAL_AGENT_ID,
    name: 'Support Desk',
    description: 'Answers questions about orders, returns, delivery and opening hours.',
    accountId: acc,
    projectId: proj,
    createdAt: at,
    updatedAt: at,
    createdBy: 'owner@acme.test',
  };
  const content = structuredClone(SUPPORT_AGENT_CONTENT);
  state.agents.branches.br_support_main = {
    branchId: 'br_support_main',
    agentId: LOCAL_AGENT_ID,
    name: 'main',
    base: structuredClone(content),
    content,
    createdAt: at,
    updatedAt: at,
    createdBy: 'owner@acme.test',
    mergedAt: null,
  };
  let v = 0;
  for (const env of ['sandbox', 'pre-release', 'live'] as const) {
    v += 1;
    const id = `dep_support_${v}`;
    state.agents.deployments[id] = {
      id,
      accountId: acc,
      agentId: LOCAL_AGENT_ID,
      environment: env,
      artifactVersion: `art_support_1`,
      version: '1',
      createdBy: 'owner@acme.test',
      createdAt: at,
      metadata: { message: 'Initial release', branch: 'main' },
      content: structuredClone(SUPPORT_AGENT_CONTENT),
      active: true,
    };
  }
  state.agents.phoneNumbers.push(
    {
      number: '+14155550123',
      projectId: proj,
      accountId: acc,
      clientEnv: 'live',
      connectorId: 'conn_voice_out',
      agentId: LOCAL_AGENT_ID,
    },
    {
      number: '+14155550124',
      projectId: proj,
      accountId: acc,
      clientEnv: 'sandbox',
      connectorId: 'conn_voice_in',
      agentId: LOCAL_AGENT_ID,
    },
  );
  state.agents.realtimeConfigs.push({
    agentId: LOCAL_AGENT_ID,
    name: 'store-settings',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        holidayMode: { type: 'boolean' },
        maxWaitMinutes: { type: 'integer', minimum: 0, maximum: 120 },
        greetingOverride: { type: 'string', maxLength: 500 },
      },
    },
    variables: { holidayMode: false, maxWaitMinutes: 15, greetingOverride: '' },
    updatedAt: at,
  });
}
