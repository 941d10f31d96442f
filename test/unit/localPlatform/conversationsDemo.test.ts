import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concurrencyReplySchema } from '../../../src/contract/concurrency';
import { conversationsPageV3Schema } from '../../../src/contract/conversations';
import { seedDemoConversations } from '../../../src/localPlatform/conversations/demo';
import { Platform } from '../../../src/localPlatform/platform';
import { LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { applySeed } from '../../../src/localPlatform/seed/seeds';
import { SEED_EPOCH } from '../../../src/localPlatform/seed/supportAgent';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

function demoPlatform(): Platform {
  const p = new Platform();
  applySeed(p, 'base');
  seedDemoConversations(p);
  return p;
}

describe('Demo week of conversations (spec: Conversation record)', () => {
  it('[CONV-21][CONV-22] is the same on every run: a week of support-desk conversations ending at the seed epoch, a few still in progress', () => {
    const a = demoPlatform().state.conversations;
    const b = demoPlatform().state.conversations;
    assert.deepEqual(a, b);
    assert.ok(a.length >= 300 && a.length <= 2000, `${a.length} conversations`);
    assert.ok(a.every((c) => c.project_id === LOCAL_PROJECT.id));
    const starts = a.map((c) => Date.parse(c.started_at));
    assert.ok(Math.min(...starts) >= SEED_EPOCH - 7 * 24 * 3600_000 && Math.max(...starts) < SEED_EPOCH);
    const active = a.filter((c) => c.in_progress);
    assert.ok(active.length >= 1 && active.length <= 5);
    assert.ok(
      active.every(
        (c) =>
          c.ended_at === null &&
          c.turns.length > 0 &&
          c.turns.every((t) => Date.parse(t.user_input_datetime!) <= SEED_EPOCH),
      ),
    );
  });

  it('[CONV-21] covers channels, environments, variants, languages, handoffs, out-of-domain and silent turns, errors and crashes', () => {
    const convs = demoPlatform().state.conversations;
    const kinds = (f: (c: (typeof convs)[number]) => string | null) => new Set(convs.map(f));
    assert.deepEqual([...kinds((c) => c.channel)].sort(), ['CHAT', 'VOICE-SIP', 'WEBCHAT']);
    assert.deepEqual([...kinds((c) => c.environment)].sort(), ['live', 'pre-release', 'sandbox']);
    assert.deepEqual([...kinds((c) => c.variant_name)].sort(), ['Default', 'Friendly Tone']);
    assert.ok(kinds((c) => c.language).size >= 3);
    const live = convs.filter((c) => c.environment === 'live').length;
    assert.ok(live / convs.length > 0.8, 'mostly live');
    assert.ok(convs.some((c) => c.handoff && c.handoff_destination && c.handoff_reason));
    assert.ok(convs.some((c) => c.turns.some((t) => t.is_ood)));
    assert.ok(convs.some((c) => c.turns.some((t) => t.is_silence)));
    assert.ok(
      convs.some((c) => c.api_errors > 0) && convs.some((c) => c.function_errors > 0) && convs.some((c) => c.crashed),
    );
    assert.ok(
      convs.some((c) => c.turns.some((t) => t.translated_user_input !== null)),
      'non-English conversations carry translations',
    );
  });

  it("[CONV-21] has a daily and hourly shape: weekday afternoons (UTC) are busier than nights and New Year's Day", () => {
    const convs = demoPlatform().state.conversations;
    const at = (prefix: string) => convs.filter((c) => c.started_at.startsWith(prefix)).length;
    assert.ok(at('2025-12-30T16') > 3 * at('2025-12-30T04'));
    assert.ok(at('2025-12-30') > 2 * at('2026-01-01'));
  });
});

describe('Demo week through the APIs (spec: Conversations API, Concurrent Calls API)', () => {
  const t = useLocalPlatform({ seed: 'demo' });
  const headers = { 'x-api-key': LOCAL_KEYS.conversations };
  const week = `start_time=${new Date(SEED_EPOCH - 7 * 24 * 3600_000).toISOString()}&end_time=${new Date(SEED_EPOCH).toISOString()}`;

  it('[CONV-14][CONV-21] every live demo conversation reads as a valid v3 record, in time order', async () => {
    const res = await call(
      'GET',
      `${t.lp.urls.runtime}/v3/acme/support-desk/conversations?limit=5000&include_latency=true`,
      { headers },
    );
    assert.equal(res.status, 200);
    const page = conversationsPageV3Schema.parse(res.body);
    const live = t.lp.platform.state.conversations.filter(
      (c) => c.environment === 'live' && c.project_id === LOCAL_PROJECT.id,
    );
    assert.equal(page.conversations.length, live.length);
    const starts = page.conversations.map((c) => c.started_at);
    assert.deepEqual(starts, [...starts].sort());
    assert.ok(page.conversations.every((c) => c.turns.every((turn) => typeof turn.latency === 'number')));
  });

  it('[CONC-6] the demo week has a busy afternoon peak and quiet nights in the concurrency series', async () => {
    const res = await call('GET', `${t.lp.urls.runtime}/v1/acme/support-desk/conversations/concurrency?${week}`, {
      headers,
    });
    assert.equal(res.status, 200);
    const body = concurrencyReplySchema.parse(res.body);
    assert.equal(body.intervals.length, 7 * 24 * 12);
    const peakAt = (hours: (h: number) => boolean) =>
      Math.max(
        ...body.intervals
          .filter((i) => hours(new Date(i.time).getUTCHours()))
          .map((i) => i.max_concurrent_conversations),
      );
    const afternoon = peakAt((h) => h >= 14 && h <= 21);
    const night = peakAt((h) => h >= 1 && h <= 6);
    assert.ok(afternoon > night && afternoon >= 2, `afternoon ${afternoon}, night ${night}`);
  });
});
