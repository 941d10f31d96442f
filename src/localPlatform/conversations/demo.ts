import type { Environment } from '../agents/model';
import type { Platform } from '../platform';
import { SEED_EPOCH } from '../seed/supportAgent';
import { type DemoCall, demoConversation, DemoRandom } from './demoConversation';
import { demoScript } from './demoScript';

/** The demo week ends at SEED_EPOCH (a Monday morning, 09:00 UTC). */
export const DEMO_WEEK_MS = 7 * 24 * 60 * 60_000;
const DEMO_SEED = 0x5eed_c0de;

/** Share of the busiest hour per UTC hour: the callers are mostly in North America. */
const HOUR_SHAPE = [
  0.2, 0.14, 0.1, 0.07, 0.06, 0.06, 0.08, 0.12, 0.2, 0.3, 0.42, 0.55, 0.7, 0.85, 0.95, 1, 1, 0.95, 0.92, 0.88, 0.8,
  0.65, 0.45, 0.3,
];
/** Share of a usual weekday per UTC day of the week (Sunday first). */
const DAY_SHAPE = [0.45, 1, 1.05, 1, 0.95, 0.9, 0.6];
/** Conversations in the busiest hour of a usual weekday. */
const PEAK_PER_HOUR = 16;
/** New Year's Day is quiet. */
const HOLIDAY = '2026-01-01';
/** A slow, error-prone hour and a half the alert rules and charts can show. */
const INCIDENT = { from: Date.parse('2026-01-02T15:00:00Z'), to: Date.parse('2026-01-02T16:30:00Z') };
/** Started shortly before the end of the week and still talking. */
const IN_PROGRESS_AGO_MS = [35_000, 80_000, 140_000];

function callOf(rng: DemoRandom, startMs: number, inProgress: boolean): Omit<DemoCall, 'id'> {
  const channel = (['VOICE-SIP', 'WEBCHAT', 'CHAT'] as const)[rng.weighted([0.6, 0.25, 0.15])]!;
  const environment = inProgress
    ? 'live'
    : (['live', 'sandbox', 'pre-release'] as const)[rng.weighted([0.9, 0.06, 0.04])]!;
  const variant = rng.chance(0.3)
    ? { id: 'var_friendly', name: 'Friendly Tone' }
    : { id: 'var_default', name: 'Default' };
  const language = inProgress
    ? 'en-US'
    : (['en-US', 'en-GB', 'es-ES', 'fr-FR'] as const)[rng.weighted([0.72, 0.17, 0.07, 0.04])]!;
  return {
    startMs,
    channel,
    environment,
    variant,
    language,
    incident: startMs >= INCIDENT.from && startMs < INCIDENT.to,
    inProgress,
  };
}

/**
 * A deterministic week of conversations with the support agent (project support-desk): voice,
 * webchat and chat, mostly live, on two variants, shaped by hour and weekday, with handoffs,
 * out-of-domain and silent turns, latencies, a few errors and crashes, several languages, and a
 * few conversations still in progress at the end of the week.
 */
export function seedDemoConversations(platform: Platform): void {
  const rng = new DemoRandom(DEMO_SEED);
  const script = demoScript();
  const weekStart = SEED_EPOCH - DEMO_WEEK_MS;
  const calls: Array<Omit<DemoCall, 'id'>> = [];
  for (let hour = weekStart; hour < SEED_EPOCH; hour += 3_600_000) {
    const d = new Date(hour);
    const holiday = d.toISOString().startsWith(HOLIDAY) ? 0.35 : 1;
    const mean = PEAK_PER_HOUR * HOUR_SHAPE[d.getUTCHours()]! * DAY_SHAPE[d.getUTCDay()]! * holiday;
    const count = Math.floor(mean * (0.8 + rng.next() * 0.4) + rng.next());
    for (let i = 0; i < count; i++) {
      const startMs = hour + Math.floor(rng.next() * 3_600_000);
      // The last few minutes belong to the conversations still in progress.
      if (startMs < SEED_EPOCH - 5 * 60_000) calls.push(callOf(rng, startMs, false));
    }
  }
  for (const ago of IN_PROGRESS_AGO_MS) calls.push(callOf(rng, SEED_EPOCH - ago, true));
  calls.sort((a, b) => a.startMs - b.startMs);
  const conversations = calls.map((call) =>
    demoConversation(rng, script, { ...call, id: platform.nextId('conv') }, SEED_EPOCH),
  );
  platform.state.conversations.push(...conversations);
  platform.mutated();
}

/** What `generateConversations` makes: how many, over which range, in which environment, from which seed. */
export interface GeneratedConversations {
  count: number;
  startMs: number;
  endMs: number;
  environment?: Environment;
  seed?: number;
}

/**
 * `count` finished conversations like the demo week's (channels, variants, languages, handoffs, latencies), spread
 * evenly over [startMs, endMs) and stored in start order among the others: load figures seed many at once with it.
 */
export function generateConversations(platform: Platform, g: GeneratedConversations): number {
  const rng = new DemoRandom(g.seed ?? DEMO_SEED);
  const script = demoScript();
  const step = (g.endMs - g.startMs) / g.count;
  const store = platform.state.conversations;
  const last = store.at(-1);
  const newest = last ? Date.parse(last.started_at) : -Infinity;
  for (let i = 0; i < g.count; i++) {
    const startMs = Math.floor(g.startMs + (i + rng.next()) * step);
    const call = { ...callOf(rng, startMs, false), ...(g.environment ? { environment: g.environment } : {}) };
    store.push(demoConversation(rng, script, { ...call, id: platform.nextId('conv') }, Number.POSITIVE_INFINITY));
  }
  // Listings find a time window by binary search while the store is in start order.
  if (g.count > 0 && g.startMs < newest) store.sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
  return g.count;
}
