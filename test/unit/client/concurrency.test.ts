import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConcurrencyClient } from '../../../src/client/concurrency';
import { PlatformError } from '../../../src/client/errors';
import type { RequestLog } from '../../../src/client/transport';
import type { ConcurrencyQueryInput } from '../../../src/contract/concurrency';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { isError, localContext } from '../../support/localClient';
import { buildConversation, insertConversations } from '../../support/conversations';
import { useLocalPlatform } from '../../support/localPlatform';

/** A conversation on 2026-01-05 from `from` lasting `minutes`. */
const span = (from: string, minutes: number, over: Parameters<typeof buildConversation>[1] = {}) =>
  buildConversation(`2026-01-05T${from}Z`, { total_duration: minutes * 60, ...over });
const range = (from: string, to: string) => ({ start_time: `2026-01-05T${from}Z`, end_time: `2026-01-05T${to}Z` });

describe('client: Concurrent Calls API', () => {
  const t = useLocalPlatform();
  const client = (opts: Parameters<typeof localContext>[1] = {}): ConcurrencyClient =>
    new ConcurrencyClient(localContext(t.lp, opts));

  it('[CONC-1][CONC-2][CONC-6] answers ascending 5-minute intervals with the maximum of simultaneous conversations', async () => {
    insertConversations(t.lp, span('10:01:00', 3), span('10:02:00', 5), span('10:11:00', 1));
    const reply = await client().query(range('10:02:30', '10:14:00'));
    assert.deepEqual([reply.account_id, reply.project_id], [LOCAL_ACCOUNT.id, LOCAL_PROJECT.id]);
    assert.deepEqual(
      reply.intervals.map((i) => [i.time, i.max_concurrent_conversations]),
      [
        ['2026-01-05T10:00:00.000Z', 2],
        ['2026-01-05T10:05:00.000Z', 1],
        ['2026-01-05T10:10:00.000Z', 1],
      ],
    );
  });

  it('[CONC-5] slice_by variant gives one interval per variant with its id and name', async () => {
    insertConversations(
      t.lp,
      span('10:01:00', 3),
      span('10:01:00', 3, { variant_id: 'var_trial', variant_name: 'Trial' }),
    );
    const reply = await client().query({ ...range('10:00:00', '10:05:00'), slice_by: 'variant' });
    const byVariant = Object.fromEntries(
      reply.intervals.map((i) => [i.variant_id, [i.variant_name, i.max_concurrent_conversations]]),
    );
    assert.deepEqual(byVariant.var_trial, ['Trial', 1]);
    assert.deepEqual(byVariant.var_default, ['Default', 1]);
  });

  it('[CONC-4] client_env and variant filters are sent as given', async () => {
    insertConversations(
      t.lp,
      span('10:01:00', 3),
      span('10:01:00', 3, { environment: 'sandbox' }),
      span('10:02:00', 3, { environment: 'sandbox', variant_id: 'var_trial', variant_name: 'Trial' }),
    );
    const max = async (q: Partial<ConcurrencyQueryInput>): Promise<number | undefined> =>
      (await client().query({ ...range('10:00:00', '10:05:00'), ...q })).intervals[0]?.max_concurrent_conversations;
    assert.equal(await max({}), 1, 'live by default');
    assert.equal(await max({ client_env: 'sandbox' }), 2);
    assert.equal(await max({ client_env: 'sandbox', variant_name: 'Trial' }), 1);
  });

  describe('the query is checked before sending', () => {
    const cases: Array<{ ids: string; title: string; query: ConcurrencyQueryInput; field: string }> = [
      {
        ids: '[CONC-3]',
        title: 'a range longer than one week',
        query: { start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-08T00:00:01Z' },
        field: 'end_time',
      },
      {
        ids: '[CONC-2]',
        title: 'a missing start_time',
        query: { end_time: '2026-01-05T10:00:00Z' } as ConcurrencyQueryInput,
        field: 'start_time',
      },
      {
        ids: '[CONC-2]',
        title: 'a start_time that is not ISO 8601',
        query: { start_time: 'yesterday', end_time: '2026-01-05T10:00:00Z' },
        field: 'start_time',
      },
      {
        ids: '[CONC-4]',
        title: 'variant_id with variant_name',
        query: { ...range('10:00:00', '11:00:00'), variant_id: 'var_default', variant_name: 'Default' },
        field: 'variant_name',
      },
      {
        ids: '[CONC-5]',
        title: 'an unknown slice_by',
        query: { ...range('10:00:00', '11:00:00'), slice_by: 'country' as 'variant' },
        field: 'slice_by',
      },
    ];
    for (const c of cases) {
      it(`${c.ids} ${c.title} is refused, naming ${c.field}, and nothing is sent`, async () => {
        const logs: RequestLog[] = [];
        await assert.rejects(client({ logs }).query(c.query), (err: unknown) => {
          assert.ok(err instanceof PlatformError);
          assert.equal(err.kind, 'invalidInput');
          assert.ok(
            err.fieldErrors.some((e) => e.field === c.field),
            err.message,
          );
          return true;
        });
        assert.deepEqual(logs, []);
      });
    }

    it('[CONC-3] exactly one week is accepted', async () => {
      const reply = await client().query({ start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-08T00:00:00Z' });
      assert.equal(reply.intervals.length, 7 * 24 * 12);
    });
  });

  it('[CONC-5][CONC-7] slice_by language or phone_number is sent and its 501 says to slice by variant instead', async () => {
    for (const slice of ['language', 'phone_number'] as const) {
      await assert.rejects(client().query({ ...range('10:00:00', '11:00:00'), slice_by: slice }), (err: unknown) => {
        assert.ok(err instanceof PlatformError);
        assert.equal(err.kind, 'notImplemented');
        assert.equal(err.status, 501);
        assert.match(
          err.message,
          new RegExp(
            `does not slice concurrent calls by ${slice.replace('_', ' ')} yet\\. Slice by variant, or leave slicing off and filter with ${slice} instead`,
          ),
        );
        return true;
      });
    }
  });

  it('[CONC-7][AUTH-1] a rejected key is a 401 naming the credential; an unknown project a 404', async () => {
    await assert.rejects(
      client({ overrides: { conversationsApiKey: LOCAL_KEYS.agents } }).query(range('10:00:00', '11:00:00')),
      isError('unauthorized', /Conversations API key/),
    );
    await assert.rejects(
      client({ ids: { projectId: 'no-such-project' } }).query(range('10:00:00', '11:00:00')),
      isError('notFound', /the account or project was not found \(Concurrent Calls API, HTTP 404\)/),
    );
  });

  it('[CONC-7] a 500 is retried, being a read', async () => {
    const logs: RequestLog[] = [];
    await t.admin.addFault({
      family: 'runtime',
      path: '/conversations/concurrency',
      method: 'GET',
      status: 500,
      times: 2,
    });
    const reply = await client({ logs }).query(range('10:00:00', '10:10:00'));
    assert.equal(reply.intervals.length, 2);
    assert.equal(logs.at(-1)?.retries, 2);
  });
});
