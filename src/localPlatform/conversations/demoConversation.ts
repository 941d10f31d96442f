import type { Environment } from '../agents/model';
import { latencyOf } from '../engine/agentEngine';
import { HANDOFF_REASON_USER } from '../engine/persona';
import { LOCAL_ACCOUNT, LOCAL_AGENT_ID, LOCAL_PROJECT } from '../seed/credentials';
import type { StoredConversation, StoredTurn } from '../state';
import {
  type DemoScript,
  type ForeignLanguage,
  GOODBYE_ASKS,
  GOODBYE_LINE,
  HANDOFF_ASKS,
  HANDOFF_LINE,
  HANDOFF_REASON_REPEATED_OOD,
  OOD_ASKS,
  SILENCE_LINE,
  TOPIC_WEIGHTS,
} from './demoScript';

/** A small seeded generator (mulberry32), so the demo week is the same on every run. */
export class DemoRandom {
  constructor(private seed: number) {}

  next(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let r = Math.imul(this.seed ^ (this.seed >>> 15), 1 | this.seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An index chosen by weight. */
  weighted(weights: readonly number[]): number {
    let r = this.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
}

/** Who calls, when, and how: decided by the week's timeline before the conversation is written. */
export interface DemoCall {
  id: string;
  startMs: number;
  channel: 'VOICE-SIP' | 'WEBCHAT' | 'CHAT';
  environment: Environment;
  variant: { id: string; name: string };
  language: 'en-US' | 'en-GB' | ForeignLanguage;
  /** During the demo incident answers are slow and API calls fail more often. */
  incident: boolean;
  /** Still talking at the end of the week. */
  inProgress: boolean;
}

const AREA_CODES = ['212', '312', '415', '617', '646', '702', '718', '773', '917'];
const LIVE_NUMBER = '+14155550123';
const SANDBOX_NUMBER = '+14155550124';
const VOICE_HANDOFF = '+14155550100';
const CHAT_HANDOFF = 'human-support-queue';

function callerNumber(rng: DemoRandom, language: DemoCall['language']): string {
  const digits = (n: number): string => Array.from({ length: n }, () => String(rng.int(0, 9))).join('');
  return language === 'en-GB' ? `+447700900${digits(3)}` : `+1${rng.pick(AREA_CODES)}${rng.int(2, 9)}${digits(6)}`;
}

interface Line {
  kind: Parameters<typeof latencyOf>[0];
  user: string | null;
  agent: string;
  intents: string[];
  entities?: Record<string, string>;
  ood?: boolean;
  silence?: boolean;
  dtmf?: string;
  translatedUser?: string;
  englishAgent?: string;
}

/** What is said, in order, and how the conversation ends. */
function plan(rng: DemoRandom, script: DemoScript, call: DemoCall): { lines: Line[]; handoff?: string } {
  const voice = call.channel === 'VOICE-SIP';
  const friendly = call.variant.id === 'var_friendly';
  if (call.language === 'es-ES' || call.language === 'fr-FR') {
    const f = script.foreign[call.language];
    const lines: Line[] = [
      { kind: 'greeting', user: null, agent: f.greeting.text, englishAgent: f.greeting.english, intents: ['greeting'] },
    ];
    for (let i = 0, n = rng.int(1, 2); i < n; i++) {
      const ti = rng.weighted(TOPIC_WEIGHTS);
      const t = f.topics[ti]!;
      lines.push({
        kind: 'faq',
        user: t.ask.text,
        translatedUser: t.ask.english,
        agent: t.answer.text,
        englishAgent: t.answer.english,
        intents: [script.topics[ti]!.intent],
      });
    }
    lines.push({
      kind: 'goodbye',
      user: f.goodbye.ask.text,
      translatedUser: f.goodbye.ask.english,
      agent: f.goodbye.answer.text,
      englishAgent: f.goodbye.answer.english,
      intents: ['goodbye'],
    });
    return { lines };
  }
  const lines: Line[] = [
    {
      kind: 'greeting',
      user: null,
      agent: friendly ? script.friendlyGreeting : script.greeting,
      intents: ['greeting'],
    },
  ];
  let ood = 0;
  const exchanges = call.inProgress ? 5 : 1 + (rng.chance(0.45) ? 1 : 0) + (rng.chance(0.15) ? 1 : 0);
  for (let i = 0; i < exchanges; i++) {
    if (voice && rng.chance(0.07))
      lines.push({ kind: 'silence', user: '', agent: SILENCE_LINE, intents: ['silence'], silence: true });
    if (rng.chance(0.1)) {
      ood += 1;
      lines.push({ kind: 'ood', user: rng.pick(OOD_ASKS), agent: script.fallback, intents: ['ood'], ood: true });
      if (ood >= 2 && rng.chance(0.6)) {
        lines.push({
          kind: 'handoff',
          user: rng.pick(OOD_ASKS),
          agent: HANDOFF_LINE,
          intents: ['ood', 'handoff'],
          ood: true,
        });
        return { lines, handoff: HANDOFF_REASON_REPEATED_OOD };
      }
      continue;
    }
    const topic = script.topics[rng.weighted(TOPIC_WEIGHTS)]!;
    const ask = rng.pick(topic.asks);
    const order = String(rng.int(40000, 59999));
    const mentionsOrder = ask.includes('{order}');
    lines.push({
      kind: 'faq',
      user: ask.replace('{order}', order),
      agent: friendly ? script.friendlyPrefix + topic.answer : topic.answer,
      intents: [topic.intent],
      ...(mentionsOrder ? { entities: { number: order } } : {}),
      ...(mentionsOrder && voice && rng.chance(0.3) ? { dtmf: order } : {}),
    });
  }
  if (rng.chance(0.1)) {
    lines.push({ kind: 'handoff', user: rng.pick(HANDOFF_ASKS), agent: HANDOFF_LINE, intents: ['handoff'] });
    return { lines, handoff: HANDOFF_REASON_USER };
  }
  if (rng.chance(0.75))
    lines.push({ kind: 'goodbye', user: rng.pick(GOODBYE_ASKS), agent: GOODBYE_LINE, intents: ['goodbye'] });
  return { lines };
}

const iso = (ms: number): string => new Date(ms).toISOString();
const tenths = (ms: number): number => Math.round(ms / 100) / 10;

/** One demo conversation; turns after `cutoffMs` (the end of the week) are not recorded yet. */
export function demoConversation(
  rng: DemoRandom,
  script: DemoScript,
  call: DemoCall,
  cutoffMs: number,
): StoredConversation {
  const voice = call.channel === 'VOICE-SIP';
  const { lines, handoff } = plan(rng, script, call);
  const crashed = !call.inProgress && rng.chance(0.006);
  const keep = crashed ? rng.int(1, lines.length) : lines.length;
  const turns: StoredTurn[] = [];
  let at = call.startMs + (voice ? 900 : 300);
  for (const line of lines.slice(0, keep)) {
    if (at > cutoffMs) break;
    let latency = latencyOf(line.kind, line.agent) * (0.75 + rng.next() * 0.6);
    if (call.incident) latency *= 2.2;
    if (rng.chance(0.025)) latency *= 3 + rng.next() * 3;
    latency = Math.round(latency);
    turns.push({
      user_input: line.user,
      user_input_dtmf: line.dtmf ?? null,
      user_input_datetime: iso(at),
      barge_in: voice && line.user !== null && rng.chance(0.05),
      agent_response: line.agent,
      agent_response_datetime: iso(at + latency),
      latency,
      translated_user_input: line.translatedUser ?? null,
      english_agent_response: line.englishAgent ?? null,
      intents: line.intents,
      entities: line.entities ?? {},
      is_ood: line.ood ?? false,
      is_silence: line.silence ?? false,
    });
    // Speaking or reading the answer, then the caller's next words.
    const speak = voice ? line.agent.length * 55 : rng.int(2000, 6000);
    at += latency + speak + (voice ? rng.int(1500, 5000) : rng.int(6000, 30000));
  }
  const inProgress = call.inProgress || at > cutoffMs;
  const agentEnd = Math.min(at, cutoffMs);
  const humanMs = handoff ? rng.int(voice ? 120 : 300, voice ? 900 : 1500) * 1000 : 0;
  const endMs = agentEnd + humanMs;
  const fromNumber = voice ? callerNumber(rng, call.language) : null;
  const toNumber = voice ? (call.environment === 'live' ? LIVE_NUMBER : SANDBOX_NUMBER) : null;
  const destination = handoff ? (voice ? VOICE_HANDOFF : CHAT_HANDOFF) : null;
  const order = turns.find((t) => t.entities.number)?.entities.number;
  const incidentApi = call.incident ? (rng.chance(0.35) ? rng.int(1, 3) : 0) : rng.chance(0.03) ? 1 : 0;

  const metrics: Record<string, string | string[]> = {
    CALL_IN_PROGRESS: String(inProgress),
    CALL_COMPLETED: String(!inProgress),
    CALL_TURN: turns.map((t) => t.user_input_datetime!),
  };
  if (!inProgress) metrics.CALL_DURATION = String(tenths(endMs - call.startMs));
  if (handoff && destination && !inProgress)
    Object.assign(metrics, { HANDOFF_TO: destination, HANDOFF_REASON: handoff });
  if (!inProgress && call.channel === 'WEBCHAT' && rng.chance(0.3)) metrics.CSAT = String(rng.int(handoff ? 2 : 3, 5));

  return {
    id: call.id,
    account_id: LOCAL_ACCOUNT.id,
    project_id: LOCAL_PROJECT.id,
    agent_id: LOCAL_AGENT_ID,
    variant_id: call.variant.id,
    variant_name: call.variant.name,
    environment: call.environment,
    started_at: iso(call.startMs),
    ended_at: inProgress ? null : iso(endMs),
    channel: call.channel,
    from_number: fromNumber,
    to_number: toNumber,
    in_progress: inProgress,
    total_duration: inProgress ? 0 : tenths(endMs - call.startMs),
    polyai_duration: inProgress ? 0 : tenths(agentEnd - call.startMs),
    handoff: handoff !== undefined && !inProgress,
    handoff_reason: inProgress ? null : (handoff ?? null),
    handoff_destination: inProgress ? null : destination,
    language: call.language,
    metrics,
    state: {
      ...(voice
        ? { from_: fromNumber, to: toNumber, call_sid: `CA${call.id.replace(/\D/g, '').padStart(32, '0')}` }
        : { platform: rng.pick(['web', 'web', 'ios', 'android']) }),
      ...(order ? { order_number: order } : {}),
    },
    turns,
    api_errors: incidentApi,
    function_errors: rng.chance(0.02) ? 1 : 0,
    crashed,
    source: 'demo',
    integration_attributes: null,
  };
}
