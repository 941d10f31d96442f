import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as contract from '../../../../src/contract/conversations';
import { type ConversationRecord, conversationRecordSchema } from '../../../../src/contract/conversations';
import { DEFAULT_FILTERS, isTranscriptsCommand, isTranscriptsNotification } from '../../../../src/protocol/transcripts';
import {
  detailOf,
  findTurns,
  markdownText,
  maskNumber,
  queryOf,
  rowOf,
  transcriptMarkdown,
} from '../../../../src/ui/panels/transcripts/transcriptView';
import { HOSTILE_CORPUS, joined, showsAsText } from '../../../support/hostileCorpus';
import { renderMarkdown, strayTags, textOf } from '../../../support/markdownRender';

const NOW = Date.parse('2026-01-05T09:00:00Z');

function record(over: Record<string, unknown> = {}): ConversationRecord {
  return conversationRecordSchema.parse({
    id: 'conv_000042',
    started_at: '2026-01-05T08:00:00Z',
    channel: 'VOICE-SIP',
    environment: 'live',
    variant_id: 'var_default',
    variant_name: 'Default',
    from_number: '+14155550123',
    to_number: '+442071234567',
    num_turns: 3,
    total_duration: 61.5,
    handoff: true,
    handoff_destination: 'human-support-queue',
    handoff_reason: 'The user asked to speak to a person',
    metrics: { CALL_DURATION: '61.5', CALL_TURN: ['2026-01-05T08:00:01Z'] },
    state: { from_: '+14155550123', order_number: 'A-1001' },
    turns: [
      { user_input: '', agent_response: 'Hello!', latency: 180 },
      { user_input: 'Where is my parcel?', agent_response: 'On its way.', latency: 420, intents: ['delivery'] },
      { user_input: '', is_silence: true, agent_response: 'Are you there?', latency: 120, barge_in: true },
    ],
    ...over,
  });
}

describe('transcript viewer: what the filters ask the platform', () => {
  it('sends the environment, page size and latency always, and nothing for filters left empty', () => {
    const q = queryOf(DEFAULT_FILTERS, NOW, contract);
    assert.deepEqual(q, { ok: true, query: { client_env: 'live', limit: 500, include_latency: true } });
  });

  it('turns a preset into a range ending now, and a search or sample on any time into a range from 2000', () => {
    const q = queryOf({ ...DEFAULT_FILTERS, range: 'last24Hours' }, NOW, contract);
    assert.ok(q.ok);
    assert.equal(q.query.start_time, '2026-01-04T09:00:00Z');
    assert.equal(q.query.end_time, '2026-01-05T09:00:00Z');
    const s = queryOf({ ...DEFAULT_FILTERS, sample: true }, NOW, contract);
    assert.ok(s.ok);
    assert.deepEqual(
      [s.query.start_time, s.query.end_time, s.query.sample],
      ['2000-01-01T00:00:00Z', '2026-01-05T09:00:00Z', 'random'],
    );
  });

  it('sends each filter under its parameter', () => {
    const q = queryOf(
      {
        ...DEFAULT_FILTERS,
        range: 'custom',
        start: '2026-01-01',
        end: '2026-01-02T10:00+01:00',
        environment: 'sandbox',
        channels: ['CHAT'],
        variant: 'var_friendly',
        variantBy: 'id',
        progress: 'finished',
        search: ' refund ',
        turnType: 'agent',
      },
      NOW,
      contract,
    );
    assert.deepEqual(q, {
      ok: true,
      query: {
        client_env: 'sandbox',
        limit: 500,
        include_latency: true,
        start_time: '2026-01-01T00:00:00Z',
        end_time: '2026-01-02T10:00+01:00',
        channel: ['CHAT'],
        variant_id: 'var_friendly',
        in_progress: false,
        query_type: 'transcript',
        query: 'refund',
        turn_type: 'agent',
      },
    });
    const semantic = queryOf(
      { ...DEFAULT_FILTERS, search: 'money back', searchType: 'semantic', turnType: 'user' },
      NOW,
      contract,
    );
    assert.ok(semantic.ok);
    assert.equal(semantic.query.turn_type, undefined, 'turn type is for transcript search only');
  });

  it('says what to fix instead of asking', () => {
    const bad = (f: Partial<typeof DEFAULT_FILTERS>) => {
      const q = queryOf({ ...DEFAULT_FILTERS, ...f }, NOW, contract);
      return q.ok ? '' : q.problem;
    };
    assert.match(bad({ range: 'custom', start: 'yesterday' }), /"yesterday" is not a date/);
    assert.match(bad({ range: 'custom', start: '2026-01-05', end: '2026-01-04' }), /end is before the start/);
    assert.match(bad({ search: 'x', sample: true }), /not both/);
  });
});

describe('transcript viewer: rows and detail', () => {
  it('masks numbers but their last two digits until revealed', () => {
    assert.equal(maskNumber('+1 415 555 0123'), '+• ••• ••• ••23');
    assert.equal(maskNumber(''), '');
    const masked = rowOf(record(), false);
    assert.equal(masked.from, '+•••••••••23');
    assert.equal(rowOf(record(), true).from, '+14155550123');
    assert.deepEqual(
      [masked.durationS, masked.turns, masked.channel, masked.handoffTo, masked.variant],
      [61.5, 3, 'VOICE-SIP', 'human-support-queue', 'Default'],
    );
    assert.equal(rowOf(record({ in_progress: true, total_duration: null }), false).durationS, undefined);
  });

  it('shows turns with latency, flags and intents; numbers in the state are masked too', () => {
    const d = detailOf(record(), { revealed: false, readAt: 'now' });
    assert.equal(d.maxLatencyMs, 420);
    assert.deepEqual(d.turns[2]!.silence && d.turns[2]!.bargeIn, true);
    assert.deepEqual(d.turns[1]!.intents, ['delivery']);
    assert.equal(d.state.find((s) => s.name === 'from_')!.value, '+•••••••••23');
    assert.equal(d.state.find((s) => s.name === 'order_number')!.value, 'A-1001');
    assert.deepEqual(d.handoff, { destination: 'human-support-queue', reason: 'The user asked to speak to a person' });
    assert.deepEqual(d.metrics[1], { name: 'CALL_TURN', value: '2026-01-05T08:00:01Z' });
    assert.equal(d.turnsNote, '');
    assert.equal(d.metricsNote, '');
  });

  it('says why turns or metrics are empty', () => {
    const hidden = detailOf(record({ turns: [], metrics: {} }), { revealed: false, readAt: 'now' });
    assert.match(hidden.turnsNote, /3 turns, but their transcript is not shown: transcript visibility is off/);
    assert.match(hidden.metricsNote, /no response metrics are enabled/);
    const fresh = detailOf(record({ turns: [], num_turns: 0, in_progress: true }), { revealed: false, readAt: 'now' });
    assert.match(fresh.turnsNote, /No turns yet/);
    // In progress, turns may still be arriving: not blamed on visibility yet.
    const live = detailOf(record({ turns: [], num_turns: 2, in_progress: true }), { revealed: false, readAt: 'now' });
    assert.match(live.turnsNote, /^2 turns so far, not here yet: turns can arrive while a conversation is in progress/);
  });

  it('reads entities given as a list of objects as well as a mapping', () => {
    const d = detailOf(record({ turns: [{ entities: [{ name: 'city', value: 'Leeds' }] }] }), {
      revealed: true,
      readAt: '',
    });
    assert.deepEqual(d.turns[0]!.entities, [{ name: 'city', value: 'Leeds' }]);
  });

  it('Find keeps a turn before and after each match, case-insensitively and in every text field', () => {
    const turns = detailOf(record(), { revealed: false, readAt: '' }).turns;
    assert.deepEqual(findTurns(turns, 'PARCEL'), { query: 'PARCEL', matches: [1], shown: [0, 1, 2] });
    assert.deepEqual(findTurns(turns, 'delivery')!.matches, [1], 'intents are searched');
    assert.deepEqual(findTurns(turns, 'hello')!.shown, [0, 1]);
    assert.equal(findTurns(turns, '   '), undefined);
  });
});

describe('transcript viewer: export', () => {
  it('writes Markdown whose transcript text cannot become markup', () => {
    assert.equal(markdownText('<b>x</b> *y* \u202Eevil'), '\\<b\\>x\\</b\\> \\*y\\* ⟦U+202E⟧evil');
    const md = transcriptMarkdown(record());
    assert.match(md, /^# Conversation conv\\_000042\n/);
    assert.match(md, /## Turn 2 \(latency 420 ms\)\n\n\*\*User\*\*.*: Where is my parcel\?/);
    assert.match(md, /## Turn 3 \(barge-in, silence, latency 120 ms\)/);
    assert.match(md, /\| Duration \| .+ \|/);
    assert.match(md, /- Call duration: 1 min 2 s\n/, 'metrics in words, as the viewer shows them');
    const utc = transcriptMarkdown(record(), false, { locale: 'en-GB', timeZone: 'UTC' });
    assert.match(utc, /_Times of day in UTC\._\n\n/);
    assert.match(utc, /\| Started \| 5 Jan 2026, 08:00:00 \|/);
    const timed = record();
    timed.turns[1]!.user_input_datetime = '2026-01-05T08:00:03Z';
    assert.match(
      transcriptMarkdown(timed, false, { locale: 'en-GB', timeZone: 'UTC' }),
      /\*\*User\*\* 08:00:03: Where/,
    );
    assert.match(utc, /- Turn times: 5 Jan 2026, 08:00:01\n/);
    assert.doesNotMatch(utc, /CALL\\_TURN|2026-01-05T08/, 'no raw metric names or instants');
    assert.match(transcriptMarkdown(record({ turns: [] })), /Transcript visibility is off/);
  });

  it('masks phone numbers wherever the viewer masks them, unless the person revealed them', () => {
    const r = record({
      handoff_destination: 'sip:+442071234599',
      metrics: { HANDOFF_TO: '+442071234599', CALL_TURN: ['2026-01-05T08:00:01Z'] },
      state: { from_: '+14155550123', callback: 'call back on +14155550188 today' },
    });
    const masked = detailOf(r, { revealed: false, readAt: '' });
    assert.equal(masked.handoff!.destination, 'sip:+••••••••••99');
    assert.equal(masked.row.handoffTo, 'sip:+••••••••••99');
    assert.equal(masked.metrics.find((x) => x.name === 'HANDOFF_TO')!.value, '+••••••••••99');
    assert.equal(masked.metrics.find((x) => x.name === 'CALL_TURN')!.value, '2026-01-05T08:00:01Z', 'times stay');
    assert.equal(masked.state.find((x) => x.name === 'callback')!.value, 'call back on +•••••••••88 today');
    const shown = detailOf(r, { revealed: true, readAt: '' });
    assert.equal(shown.handoff!.destination, 'sip:+442071234599');
    const md = transcriptMarkdown(r);
    assert.doesNotMatch(md, /442071234599|14155550123|14155550188/, 'no number in a file to share');
    assert.match(transcriptMarkdown(r, true), /\+14155550188/);
  });
});

describe('transcript viewer: messages are checked before use', () => {
  it('accepts well-formed commands and notifications and refuses others', () => {
    assert.ok(isTranscriptsCommand({ type: 'filters', filters: DEFAULT_FILTERS }));
    assert.ok(!isTranscriptsCommand({ type: 'filters', filters: { ...DEFAULT_FILTERS, environment: 'prod' } }));
    assert.ok(!isTranscriptsCommand({ type: 'find', text: 'x'.repeat(5000) }));
    assert.ok(isTranscriptsNotification({ type: 'found', find: { query: 'a', matches: [1], shown: [0, 1, 2] } }));
    assert.ok(!isTranscriptsNotification({ type: 'rows', rows: [{ id: 1 }], seq: 1 }));
  });
});

describe('transcript viewer: an export of hostile content', () => {
  it('[hostile content] every entry in every text stays text in the Markdown, with no line separator, control character or lone surrogate left', () => {
    const t = joined();
    const md = transcriptMarkdown(
      record({
        channel: t,
        variant_name: t,
        handoff_reason: t,
        handoff_destination: t,
        state: Object.fromEntries(HOSTILE_CORPUS.map((e) => [e.text, e.text])),
        metrics: Object.fromEntries(HOSTILE_CORPUS.map((e, i) => [`HOSTILE_${i}`, e.text])),
        turns: HOSTILE_CORPUS.map((e) => ({ user_input: e.text, agent_response: e.text, intents: [e.text] })),
      }),
      true,
    );
    assert.doesNotMatch(md, /[\u2028\u2029\u0000-\u0008\u000B\u000C\u000E-\u001F\u202E]/u);
    assert.doesNotMatch(md, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const html = renderMarkdown(md);
    const own = new Set([
      'h1',
      'h2',
      'p',
      'br',
      'strong',
      'em',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'ul',
      'li',
    ]);
    assert.deepEqual(strayTags(html, [...own]), []);
    for (const e of HOSTILE_CORPUS) assert.ok(showsAsText(textOf(html), e.text), e.name);
  });
});
