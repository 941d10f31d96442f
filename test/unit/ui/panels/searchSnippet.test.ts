import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conversationRecordSchema } from '../../../../src/contract/conversations';
import { isConversationRow } from '../../../../src/protocol/transcripts';
import { snippetOf } from '../../../../src/ui/panels/transcripts/searchSnippet';
import { maskNumbersIn, rowOf } from '../../../../src/ui/panels/transcripts/transcriptView';

const LONG_BEFORE = 'Good morning, I ordered a blue kettle from your shop last week and it still has not come. ';
const record = conversationRecordSchema.parse({
  id: 'conv_7',
  started_at: '2026-01-05T08:00:00Z',
  channel: 'WEBCHAT',
  num_turns: 3,
  turns: [
    { user_input: '', agent_response: 'Hello! How can I help with your refund or order?' },
    {
      user_input: `${LONG_BEFORE}Can I get a REFUND for the late parcel? Call me on +14155550123 <b>today</b>.`,
      agent_response: 'Sure.',
    },
    { user_input: 'Thanks', agent_response: 'Your refund is on its way.' },
  ],
});
const text = (s: ReturnType<typeof snippetOf>) => s?.parts.map((p) => p.text).join('') ?? '';

describe('search results: the text that matched', () => {
  it('shows a short piece of the turn with most of the words, every word marked', () => {
    const s = snippetOf(record.turns, 'refund parcel', 'both', (t) => maskNumbersIn(t, false));
    assert.ok(s);
    assert.deepEqual([s.turn, s.who], [2, 'user']);
    assert.deepEqual(
      s.parts.filter((p) => p.match).map((p) => p.text),
      ['REFUND', 'parcel'],
    );
    assert.ok(text(s).startsWith('…'), 'cut before the match, said with an ellipsis');
    assert.ok(text(s).length < LONG_BEFORE.length + 80, text(s));
    assert.match(text(s), /\+•+23/, 'numbers masked');
    assert.match(text(s), /<b>today<\/b>/, 'markup stays text, for the page to write as text');
  });

  it('looks on the side a transcript search names, and finds nothing for a meaning the words do not carry', () => {
    assert.equal(snippetOf(record.turns, 'refund', 'agent', String)?.who, 'agent');
    assert.equal(snippetOf(record.turns, 'refund', 'agent', String)?.turn, 1);
    assert.equal(snippetOf(record.turns, 'money back', 'both', String), undefined);
    assert.equal(snippetOf(record.turns, '  ', 'both', String), undefined);
  });

  it('a row of a search carries the snippet, and the page accepts it; without a search there is none', () => {
    const row = rowOf(record, false, { search: 'refund', searchType: 'transcript', turnType: 'user' });
    assert.equal(row.snippet?.turn, 2);
    assert.ok(isConversationRow(row));
    assert.equal(rowOf(record, false).snippet, undefined);
    assert.ok(!('snippet' in rowOf(record, false, { search: '', searchType: 'transcript', turnType: 'both' })));
  });
});

describe('search results: translated turns', () => {
  it('finds the words in a turn’s translation, where the platform finds them too', () => {
    const turns = conversationRecordSchema.parse({
      id: 'conv_8',
      started_at: '2026-01-05T08:00:00Z',
      turns: [
        { user_input: 'Quiero un reembolso', translated_user_input: 'I want a refund', agent_response: 'Claro.' },
      ],
    }).turns;
    const s = snippetOf(turns, 'refund', 'user', String);
    assert.deepEqual([s?.who, text(s)], ['user', 'I want a refund']);
  });
});
