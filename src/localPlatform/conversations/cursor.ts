import { createHash } from 'node:crypto';
import type { ConversationsQuery } from '../../contract/conversations';
import { isoToMs } from '../../contract/conversations';
import { runtimeError } from '../http';

/**
 * The v3 cursor: base64url of JSON. Chronological results page by key (the last started_at and
 * id), ranked results (semantic search, random sample) by position. Each cursor carries a hash of
 * the filters it was made for, so a changed filter is caught instead of giving a wrong page.
 */
export type CursorPosition = { kind: 'key'; startedAt: number; id: string } | { kind: 'position'; position: number };

interface CursorBody {
  h: string;
  k?: [number, string];
  p?: number;
}

/** The filters that define a result set: everything but limit, offset, cursor and include_latency. */
export function filterHash(q: ConversationsQuery): string {
  const filters = [
    q.start_time === undefined ? null : isoToMs(q.start_time),
    q.end_time === undefined ? null : isoToMs(q.end_time),
    q.client_env,
    [...q.channel].sort(),
    q.variant_id ?? null,
    q.variant_name ?? null,
    q.in_progress ?? null,
    q.query_type ?? null,
    q.sample ?? null,
    q.query ?? null,
    q.turn_type ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
}

export function encodeCursor(hash: string, at: CursorPosition): string {
  const body: CursorBody = at.kind === 'key' ? { h: hash, k: [at.startedAt, at.id] } : { h: hash, p: at.position };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const MALFORMED =
  'Malformed cursor: send the cursor of the previous page unchanged, or leave it out to start from the beginning';

/** 400 for a cursor that is not one of ours, or that was made for other filters. */
export function decodeCursor(cursor: string, hash: string): CursorPosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw runtimeError(400, MALFORMED);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw runtimeError(400, MALFORMED);
  }
  if (typeof body !== 'object' || body === null) throw runtimeError(400, MALFORMED);
  const { h, k, p } = body as Partial<CursorBody>;
  if (typeof h !== 'string') throw runtimeError(400, MALFORMED);
  let at: CursorPosition;
  if (Array.isArray(k) && k.length === 2 && Number.isFinite(k[0]) && typeof k[1] === 'string')
    at = { kind: 'key', startedAt: k[0], id: k[1] };
  else if (Number.isInteger(p) && (p as number) >= 0) at = { kind: 'position', position: p as number };
  else throw runtimeError(400, MALFORMED);
  if (h !== hash) {
    throw runtimeError(
      400,
      'The cursor was made for other filters: keep every other parameter identical between pages, or start again without a cursor',
    );
  }
  return at;
}
