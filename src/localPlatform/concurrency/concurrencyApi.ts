import {
  CONCURRENCY_INTERVAL_MS,
  CONCURRENCY_SLICES_IMPLEMENTED,
  type ConcurrencyInterval,
  type ConcurrencyQuery,
  type ConcurrencyReply,
  ceilToInterval,
  floorToInterval,
  parseConcurrencyQuery,
} from '../../contract/concurrency';
import { isoToMs } from '../../contract/conversations';
import type { ConcurrencyQueriesReply } from '../adminApi';
import type { Family, FamilyContext } from '../family';
import { type RequestContext, Router, runtimeError } from '../http';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';
import { authorizeConversations, invalidParameters } from '../conversations/access';
import { maxConcurrentPerWindow } from './intervals';

/** Concurrent Calls API: `GET /v1/{account_id}/{project_id}/conversations/concurrency`. */
export function createConcurrencyFamily(ctx: FamilyContext): Family {
  const router = new Router();
  /** The newest query strings received, oldest first: tests check what a client asked. */
  const asked: Array<Record<string, string>> = [];
  router.get('/v1/:accountId/:projectId/conversations/concurrency', (req) => {
    asked.push(Object.fromEntries(req.query));
    if (asked.length > ASKED_KEEP) asked.splice(0, asked.length - ASKED_KEEP);
    return { body: concurrency(ctx.platform, req) };
  });
  ctx.admin.get('/concurrency/queries', () => ({ body: { queries: asked } satisfies ConcurrencyQueriesReply }));
  return { name: 'concurrency', base: 'runtime', router };
}

const ASKED_KEEP = 50;

const digits = (s: string): string => s.replace(/\D/g, '');

/** A language code matches itself and its regional forms: `en` matches `en-GB`. */
function languageMatches(conv: StoredConversation, code: string): boolean {
  if (!conv.language) return false;
  const lang = conv.language.toLowerCase();
  const want = code.toLowerCase();
  return lang === want || lang.startsWith(`${want}-`);
}

function concurrency(platform: Platform, req: RequestContext): ConcurrencyReply {
  const { key, account, project } = authorizeConversations(platform, req);
  if (key.dataPermission !== true) throw runtimeError(403, 'This API key has no Conversations data permission');
  const parsed = parseConcurrencyQuery(req.query);
  if (!parsed.ok) invalidParameters(parsed.issues);
  const q: ConcurrencyQuery = parsed.query;
  if (q.slice_by !== undefined && !CONCURRENCY_SLICES_IMPLEMENTED.includes(q.slice_by)) {
    throw runtimeError(
      501,
      `slice_by=${q.slice_by} is reserved and not implemented; use slice_by=variant or leave slice_by out`,
    );
  }
  const from = floorToInterval(isoToMs(q.start_time));
  const to = ceilToInterval(isoToMs(q.end_time));
  const phone = q.phone_number === undefined ? undefined : digits(q.phone_number);
  const convs = platform.state.conversations.filter(
    (c) =>
      c.project_id === project.id &&
      c.environment === q.client_env &&
      (q.variant_id === undefined || c.variant_id === q.variant_id) &&
      (q.variant_name === undefined || c.variant_name === q.variant_name) &&
      (q.language === undefined || languageMatches(c, q.language)) &&
      (phone === undefined ||
        (c.to_number !== null && digits(c.to_number) === phone) ||
        (c.from_number !== null && digits(c.from_number) === phone)),
  );
  const echo = {
    ...(q.language !== undefined ? { language: q.language } : {}),
    ...(q.phone_number !== undefined ? { phone_number: q.phone_number } : {}),
  };
  const now = platform.clock.now();
  const times = (n: number): string[] =>
    Array.from({ length: n }, (_, w) => new Date(from + w * CONCURRENCY_INTERVAL_MS).toISOString());

  let intervals: ConcurrencyInterval[];
  if (q.slice_by === 'variant') {
    const groups = variantGroups(platform, project.id, convs, q);
    const series = groups.map((g) => maxConcurrentPerWindow(g.convs, from, to, now));
    intervals = times(series[0]?.length ?? Math.round((to - from) / CONCURRENCY_INTERVAL_MS)).flatMap((time, w) =>
      groups.map((g, gi) => ({
        time,
        variant_id: g.id,
        variant_name: g.name,
        max_concurrent_conversations: series[gi]![w]!,
        ...echo,
      })),
    );
  } else {
    const series = maxConcurrentPerWindow(convs, from, to, now);
    intervals = times(series.length).map((time, w) => ({ time, max_concurrent_conversations: series[w]!, ...echo }));
  }
  return { account_id: account.id, project_id: project.id, intervals };
}

interface VariantGroup {
  id: string;
  name: string;
  convs: StoredConversation[];
}

/** Every variant of the project (and any seen in the data), narrowed by a variant filter, by id. */
function variantGroups(
  platform: Platform,
  projectId: string,
  convs: readonly StoredConversation[],
  q: ConcurrencyQuery,
): VariantGroup[] {
  const groups = new Map<string, VariantGroup>();
  for (const v of platform.state.variants) {
    if (v.projectId === projectId) groups.set(v.id, { id: v.id, name: v.name, convs: [] });
  }
  for (const c of convs) {
    const id = c.variant_id ?? '';
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { id, name: c.variant_name ?? '', convs: [] }));
    g.convs.push(c);
  }
  return [...groups.values()]
    .filter(
      (g) =>
        (q.variant_id === undefined || g.id === q.variant_id) &&
        (q.variant_name === undefined || g.name === q.variant_name),
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
