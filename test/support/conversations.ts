import { LOCAL_ACCOUNT, LOCAL_AGENT_ID, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import type { LocalPlatform } from '../../src/localPlatform/server';
import type { StoredConversation, StoredTurn } from '../../src/localPlatform/state';

/** A turn at `at` (ISO) answered after `latency` ms; fields can be overridden. */
export function buildTurn(at: string, over: Partial<StoredTurn> = {}): StoredTurn {
  const latency = over.latency ?? 700;
  return {
    user_input: 'When are you open on Sunday?',
    user_input_dtmf: null,
    user_input_datetime: at,
    barge_in: false,
    agent_response: 'On Sunday we are open from 10am to 4pm.',
    agent_response_datetime: new Date(Date.parse(at) + latency).toISOString(),
    latency,
    translated_user_input: null,
    english_agent_response: null,
    intents: ['opening_hours'],
    entities: {},
    is_ood: false,
    is_silence: false,
    ...over,
  };
}

let counter = 0;

/**
 * A finished live VOICE-SIP conversation of the support project on variant var_default, one
 * minute long, with one turn; pass `startedAt` and override anything.
 */
export function buildConversation(startedAt: string, over: Partial<StoredConversation> = {}): StoredConversation {
  counter += 1;
  const start = Date.parse(startedAt);
  const inProgress = over.in_progress ?? false;
  const durationSecs = over.total_duration ?? 60;
  return {
    id: `conv_test_${String(counter).padStart(5, '0')}`,
    account_id: LOCAL_ACCOUNT.id,
    project_id: LOCAL_PROJECT.id,
    agent_id: LOCAL_AGENT_ID,
    variant_id: 'var_default',
    variant_name: 'Default',
    environment: 'live',
    started_at: new Date(start).toISOString(),
    ended_at: inProgress ? null : new Date(start + durationSecs * 1000).toISOString(),
    channel: 'VOICE-SIP',
    from_number: '+14155559876',
    to_number: '+14155550123',
    in_progress: inProgress,
    total_duration: inProgress ? 0 : durationSecs,
    polyai_duration: inProgress ? 0 : durationSecs,
    handoff: false,
    handoff_reason: null,
    handoff_destination: null,
    language: 'en-US',
    metrics: {},
    state: { from_: '+14155559876', to: '+14155550123', call_sid: `CA${counter}` },
    turns: [buildTurn(new Date(start + 2000).toISOString())],
    api_errors: 0,
    function_errors: 0,
    crashed: false,
    source: 'test',
    integration_attributes: null,
    ...over,
  };
}

/** Puts conversations straight into the running platform's store. */
export function insertConversations(lp: LocalPlatform, ...convs: StoredConversation[]): StoredConversation[] {
  lp.platform.state.conversations.push(...convs);
  return convs;
}

/** `count` conversations `stepMinutes` apart from `from`, each built with `over(i)`. */
export function conversationSeries(
  from: string,
  count: number,
  stepMinutes: number,
  over: (i: number) => Partial<StoredConversation> = () => ({}),
): StoredConversation[] {
  const start = Date.parse(from);
  return Array.from({ length: count }, (_, i) =>
    buildConversation(new Date(start + i * stepMinutes * 60_000).toISOString(), over(i)),
  );
}
