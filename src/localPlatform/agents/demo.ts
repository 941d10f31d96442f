import type { Environment } from '../../contract/common';
import type { Platform } from '../platform';
import { DEMO_PROJECTS, LOCAL_ACCOUNT, type LocalProjectCredentials } from '../seed/credentials';
import { addProject } from '../seed/projects';
import { SEED_EPOCH } from '../seed/supportAgent';
import type { AgentContent, AgentsState, StoredRealtimeConfig, StoredTopic } from './model';

/**
 * Demo data of this family, added on top of the base seed: a restaurant booking agent and a
 * bank card agent, each with branches (one merges cleanly, one has diverged from main), a
 * release history across sandbox, pre-release and live (the bank's live was rolled back),
 * telephony numbers and a real-time config. Fixed ids and times: the same on every run.
 */
export function seedDemoAgents(platform: Platform): void {
  const state = platform.state.agents;
  // Each demo agent is served by a project of its own, with its own runtime keys and connectors.
  for (const project of Object.values(DEMO_PROJECTS)) addProject(platform.state, project);
  seedRestaurant(platform, state);
  seedBank(platform, state);
}

const DAY = 24 * 60 * 60 * 1000;
const at = (daysBefore: number, hours = 0): string =>
  new Date(SEED_EPOCH - daysBefore * DAY + hours * 3_600_000).toISOString();
const OWNER = 'owner@acme.test';

function topics(
  prefix: string,
  when: string,
  by: string,
  entries: Array<[string, string, string]>,
): Record<string, StoredTopic> {
  const out: Record<string, StoredTopic> = {};
  for (const [id, name, content] of entries)
    out[`${prefix}${id}`] = {
      topicId: `${prefix}${id}`,
      name,
      content,
      createdAt: when,
      updatedAt: when,
      createdBy: by,
      updatedBy: by,
    };
  return out;
}

interface AgentSpec {
  project: LocalProjectCredentials;
  agentId: string;
  key: string;
  name: string;
  description: string;
  createdAt: string;
  main: AgentContent;
  branches: Array<{ name: string; createdAt: string; createdBy: string; base: AgentContent; content: AgentContent }>;
  /** Releases, oldest first: what each froze and where it went (publish to the first, then promote). */
  releases: Array<{ content: AgentContent; message: string; by: string; at: string; envs: Environment[] }>;
  /** A rollback after the last release: the environment goes back to an earlier release. */
  rollback?: { environment: Environment; toRelease: number; at: string; by: string; message: string };
  numbers: Array<{ number: string; env: Environment }>;
  config: Omit<StoredRealtimeConfig, 'agentId'>;
}

function addAgent(platform: Platform, state: AgentsState, spec: AgentSpec): void {
  const common = { accountId: LOCAL_ACCOUNT.id, projectId: spec.project.projectPrefixedId };
  state.agents[spec.agentId] = {
    ...common,
    agentId: spec.agentId,
    name: spec.name,
    description: spec.description,
    createdAt: spec.createdAt,
    updatedAt: spec.createdAt,
    createdBy: OWNER,
  };
  const mainId = `br_${spec.key}_main`;
  state.branches[mainId] = {
    branchId: mainId,
    agentId: spec.agentId,
    name: 'main',
    base: structuredClone(spec.main),
    content: structuredClone(spec.main),
    createdAt: spec.createdAt,
    updatedAt: at(1),
    createdBy: OWNER,
    updatedBy: OWNER,
    mergedAt: null,
  };
  for (const b of spec.branches) {
    const branchId = `br_${spec.key}_${b.name.replace(/[^A-Za-z0-9]/g, '_')}`;
    state.branches[branchId] = {
      branchId,
      agentId: spec.agentId,
      name: b.name,
      base: structuredClone(b.base),
      content: structuredClone(b.content),
      createdAt: b.createdAt,
      updatedAt: b.createdAt,
      createdBy: b.createdBy,
      updatedBy: b.createdBy,
      mergedAt: null,
    };
  }

  const active = new Map<Environment, string>();
  let n = 0;
  const deploy = (
    env: Environment,
    content: AgentContent,
    version: number,
    artifact: number,
    when: string,
    by: string,
    metadata: Record<string, unknown>,
  ): void => {
    n += 1;
    const id = `dep_${spec.key}_${n}`;
    const replaced = active.get(env);
    if (replaced) state.deployments[replaced]!.active = false;
    state.deployments[id] = {
      ...common,
      id,
      agentId: spec.agentId,
      environment: env,
      artifactVersion: `art_${spec.key}_${artifact}`,
      version: String(version),
      createdBy: by,
      createdAt: when,
      metadata: { ...metadata, branch: 'main', branchId: mainId },
      content: structuredClone(content),
      active: true,
    };
    active.set(env, id);
  };
  spec.releases.forEach((r, i) => {
    r.envs.forEach((env, step) =>
      deploy(env, r.content, i + 1, i + 1, new Date(Date.parse(r.at) + step * 3_600_000).toISOString(), r.by, {
        action: step === 0 ? 'publish' : 'promote',
        message: r.message,
      }),
    );
  });
  if (spec.rollback) {
    // Made after every release, so the history stays in the order things happened.
    const r = spec.rollback;
    deploy(r.environment, spec.releases[r.toRelease - 1]!.content, spec.releases.length + 1, r.toRelease, r.at, r.by, {
      action: 'rollback',
      message: r.message,
      restoredVersion: String(r.toRelease),
    });
  }

  for (const env of new Set(spec.numbers.map((x) => x.env))) {
    platform.state.connectors.push({
      ...common,
      id: `conn_${spec.key}_voice_${env}`,
      token: `lp_${spec.key}_voice_${env}_token`,
      kind: 'voice',
      agentId: spec.agentId,
      environment: env,
      outboundEnabled: env === 'live',
    });
  }
  for (const x of spec.numbers)
    state.phoneNumbers.push({
      ...common,
      number: x.number,
      clientEnv: x.env,
      connectorId: `conn_${spec.key}_voice_${x.env}`,
      agentId: spec.agentId,
    });
  state.realtimeConfigs.push({ agentId: spec.agentId, ...spec.config });
}

function seedRestaurant(platform: Platform, state: AgentsState): void {
  const created = at(30);
  const behaviorV1 = [
    '# Bella Tavola bookings',
    '',
    'You are Gio, the booking line of Bella Tavola, an Italian restaurant in London.',
    'Take, change and cancel table bookings: ask for the date, time, party size and a name.',
  ].join('\n');
  const behavior = `${behaviorV1}\nRead back every booking before confirming it. For parties over 12, hand off to the events team.`;
  const base = topics('kt_bt_', created, OWNER, [
    [
      'hours',
      'Opening hours',
      'Lunch is served from 12pm to 3pm and dinner from 6pm to 11pm, Tuesday to Sunday. We are closed on Mondays.',
    ],
    [
      'menu',
      'Menu and dietary needs',
      'Our menu changes with the seasons. Vegetarian, vegan and gluten-free dishes are marked; tell us about allergies when booking.',
    ],
    [
      'groups',
      'Large groups',
      'Parties of up to 12 can book online or by phone. Larger groups need the private room; the events team will call back.',
    ],
    [
      'parking',
      'Getting here',
      'We are two minutes from Borough station. There is no parking at the restaurant; the nearest car park is on Southwark Street.',
    ],
  ]);
  const main: AgentContent = {
    behavior,
    topics: {
      ...base,
      kt_bt_hours: {
        ...base.kt_bt_hours!,
        content:
          'Lunch is served from 12pm to 3pm and dinner from 5.30pm to 11pm, Tuesday to Sunday. We are closed on Mondays.',
        updatedAt: at(3),
        updatedBy: 'dana@acme.test',
      },
    },
  };
  const atBranch: AgentContent = { behavior, topics: base };
  const christmas: AgentContent = {
    behavior,
    topics: {
      ...base,
      ...topics('kt_bt_', at(6), 'lee@acme.test', [
        [
          'christmas',
          'Christmas menu',
          'From 1 to 24 December we serve a set Christmas menu at 55 pounds a head. Bookings for 8 or more need a deposit of 10 pounds per guest.',
        ],
      ]),
      kt_bt_groups: {
        ...base.kt_bt_groups!,
        content:
          'Parties of up to 12 can book online or by phone; in December the limit is 10. Larger groups need the private room.',
        updatedAt: at(6),
        updatedBy: 'lee@acme.test',
      },
    },
  };
  const greeting: AgentContent = {
    behavior: behavior.replace('You are Gio', 'You are Gio, always cheerful,'),
    topics: {
      ...base,
      kt_bt_hours: {
        ...base.kt_bt_hours!,
        content: 'Lunch 12pm to 3pm, dinner 6pm to 10.30pm, Tuesday to Sunday.',
        updatedAt: at(4),
        updatedBy: 'lee@acme.test',
      },
    },
  };
  addAgent(platform, state, {
    project: DEMO_PROJECTS.restaurant,
    agentId: 'ag_restaurant',
    key: 'restaurant',
    name: 'Bella Tavola Bookings',
    description: 'Takes, changes and cancels table bookings for an Italian restaurant.',
    createdAt: created,
    main,
    branches: [
      { name: 'christmas-menu', createdAt: at(7), createdBy: 'lee@acme.test', base: atBranch, content: christmas },
      { name: 'shorter-hours', createdAt: at(5), createdBy: 'lee@acme.test', base: atBranch, content: greeting },
    ],
    releases: [
      {
        content: { behavior: behaviorV1, topics: base },
        message: 'First release',
        by: OWNER,
        at: at(20),
        envs: ['sandbox', 'pre-release', 'live'],
      },
      {
        content: atBranch,
        message: 'Read back bookings',
        by: 'dana@acme.test',
        at: at(9),
        envs: ['sandbox', 'pre-release'],
      },
      { content: main, message: 'Dinner from 5.30pm', by: 'dana@acme.test', at: at(2), envs: ['sandbox'] },
    ],
    numbers: [
      { number: '+442071838750', env: 'live' },
      { number: '+442071838760', env: 'sandbox' },
    ],
    config: {
      name: 'booking-rules',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['maxPartySize'],
        properties: {
          maxPartySize: { type: 'integer', minimum: 1, maximum: 30 },
          walkInsOnly: { type: 'boolean' },
          closedDates: { type: 'array', items: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, maxItems: 60 },
          specialNotice: { type: 'string', maxLength: 300 },
        },
      },
      variables: { maxPartySize: 12, walkInsOnly: false, closedDates: ['2026-12-25', '2026-12-26'], specialNotice: '' },
      updatedAt: at(1),
      updatedBy: 'dana@acme.test',
    },
  });
}

function seedBank(platform: Platform, state: AgentsState): void {
  const created = at(60);
  const behaviorV1 = [
    '# Card services',
    '',
    'You are the card services line of Northwind Bank.',
    'Help with lost or stolen cards, PIN problems, travel notices and card fees.',
    'Verify the caller with date of birth and the last four digits of the card. Never ask for the full card number or the PIN.',
  ].join('\n');
  const behavior = `${behaviorV1}\nIf the caller reports fraud, block the card first, then hand off to the fraud team.`;
  const base = topics('kt_card_', created, OWNER, [
    [
      'lost',
      'Lost or stolen card',
      'We block a lost or stolen card straight away and send a new one within 3 working days. Recurring payments move to the new card.',
    ],
    [
      'pin',
      'PIN problems',
      'A PIN locked after three wrong tries unlocks at any of our cash machines with the card. A PIN reminder arrives by post in 5 working days.',
    ],
    [
      'travel',
      'Travelling abroad',
      'No travel notice is needed. Card payments abroad are free; cash withdrawals abroad cost 2 percent.',
    ],
    ['fees', 'Card fees', 'The standard card is free. A replacement card is free once a year, then 5 pounds.'],
  ]);
  const main: AgentContent = { behavior, topics: base };
  const v2: AgentContent = {
    behavior,
    topics: {
      ...base,
      kt_card_travel: {
        ...base.kt_card_travel!,
        content: 'Please tell us before you travel so we do not block your card.',
        updatedAt: at(12),
        updatedBy: 'lee@acme.test',
      },
    },
  };
  const fraud: AgentContent = {
    behavior: `${behavior}\nUse calm, plain words with callers who report fraud; never blame them.`,
    topics: {
      ...base,
      kt_card_lost: {
        ...base.kt_card_lost!,
        content:
          'We block a lost or stolen card straight away. If you think someone used it, we refund fraudulent payments while we investigate.',
        updatedAt: at(2),
        updatedBy: 'dana@acme.test',
      },
    },
  };
  addAgent(platform, state, {
    project: DEMO_PROJECTS.bank,
    agentId: 'ag_bank_cards',
    key: 'bank',
    name: 'Northwind Card Services',
    description: 'Lost and stolen cards, PIN problems, travel and card fees for Northwind Bank.',
    createdAt: created,
    main,
    branches: [{ name: 'fraud-wording', createdAt: at(3), createdBy: 'dana@acme.test', base: main, content: fraud }],
    releases: [
      {
        content: { behavior: behaviorV1, topics: base },
        message: 'First release',
        by: OWNER,
        at: at(40),
        envs: ['sandbox', 'pre-release', 'live'],
      },
      {
        content: v2,
        message: 'Travel notices',
        by: 'lee@acme.test',
        at: at(12),
        envs: ['sandbox', 'pre-release', 'live'],
      },
      { content: main, message: 'Fraud hand-off', by: OWNER, at: at(4), envs: ['sandbox', 'pre-release'] },
    ],
    rollback: { environment: 'live', toRelease: 1, at: at(3), by: OWNER, message: 'Travel notices confused callers' },
    numbers: [
      { number: '+14155550140', env: 'live' },
      { number: '+14155550141', env: 'pre-release' },
    ],
    config: {
      name: 'service-status',
      schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          outageBanner: { type: 'string', maxLength: 200 },
          cardIssuingPaused: { type: 'boolean' },
          waitTimeMinutes: { type: 'integer', minimum: 0, maximum: 240 },
          priorityQueue: { enum: ['standard', 'premium', 'all'] },
        },
      },
      variables: { outageBanner: '', cardIssuingPaused: false, waitTimeMinutes: 4, priorityQueue: 'premium' },
      updatedAt: at(1),
      updatedBy: OWNER,
    },
  });
}
