// The traffic filters as one line of text and as `compare --replay-traffic`'s flags: the same words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTrafficFlags, trafficFiltersOf } from '../../../../src/agentTests/compare/trafficFlags';
import { trafficQuery } from '../../../../src/agentTests/compare/trafficSelection';

const NOW = new Date('2026-12-03T12:00:00Z');

describe('traffic flags', () => {
  it('CONV-4 CONV-10 a line of flags becomes the filters, quoted words kept together, times ago from now', () => {
    const filters = parseTrafficFlags(
      '--since 7d --channel WEBCHAT --channel CHAT --variant "Friendly Tone" --handoff --search \'refund please\' --limit 50',
      NOW,
    );
    assert.deepEqual(filters, {
      since: '2026-11-26T12:00:00.000Z',
      channels: ['WEBCHAT', 'CHAT'],
      variantName: 'Friendly Tone',
      handoff: true,
      search: 'refund please',
      count: 50,
    });
    const query = trafficQuery({ ...filters, source: 'live' }, NOW);
    assert.equal(query.query, 'refund please');
    assert.equal(query.query_type, 'transcript');
  });

  it('an empty line is every finished conversation, up to the default count', () => {
    assert.deepEqual(parseTrafficFlags('   ', NOW), {});
  });

  it('a random sample of N and a limit: the smaller count', () => {
    assert.deepEqual(parseTrafficFlags('--sample 30 --limit 10', NOW), { sample: true, count: 10 });
  });

  it('CONV-5 CONV-10 each wrong line says what to fix, before anything is sent', () => {
    const wrong = (line: string) => {
      try {
        parseTrafficFlags(line, NOW);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    assert.equal(wrong('--serch refund'), 'Unknown option --serch. Did you mean --search?');
    assert.equal(wrong('refund'), '"refund" is not a filter: write each as a flag, such as --search "refund"');
    assert.equal(wrong('--handoff --no-handoff'), 'Give --handoff or --no-handoff, not both.');
    assert.equal(
      wrong('--sample 5 --search x'),
      '--sample and --search cannot be used together (one retrieval mode per request).',
    );
    assert.match(wrong('--since yesterday'), /^--since must be an ISO 8601 date or time .* got "yesterday"$/);
    assert.equal(wrong('--limit 0'), '--limit must be a whole number of 1 or more, got "0"');
    assert.match(wrong('--since 2026-12-02 --until 2026-12-01'), /^until \(2026-12-01\S*\) is before since/);
  });

  it('the command line reads the same values', () => {
    assert.deepEqual(
      trafficFiltersOf({ channel: [], handoff: false, 'no-handoff': true, ood: true, 'no-ood': false }, NOW),
      { handoff: false, ood: true },
    );
  });
});
