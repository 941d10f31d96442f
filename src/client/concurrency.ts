import {
  type ConcurrencyQueryInput,
  concurrencyQuerySchema,
  type ConcurrencyReply,
  concurrencyReplySchema,
} from '../contract/concurrency';
import type { ClientContext } from './context';
import { PlatformError } from './errors';
import type { QueryValue } from './transport';
import { validateInput } from './validate';

const CONCURRENCY_AUTH_HEADER = 'x-api-key';

/**
 * Concurrent Calls API: the maximum number of simultaneous conversations per 5-minute window.
 * The range (at most one week), the variant id or name and slice_by are checked before sending.
 * `slice_by` language and phone_number are sent as asked, since the platform reserves them:
 * its 501 becomes an error that says to slice by variant instead.
 */
export class ConcurrencyClient {
  constructor(private readonly ctx: ClientContext) {}

  async query(query: ConcurrencyQueryInput, signal?: AbortSignal): Promise<ConcurrencyReply> {
    const operation = query.slice_by
      ? `Read concurrent calls by ${query.slice_by.replace('_', ' ')}`
      : 'Read concurrent calls';
    validateInput(concurrencyQuerySchema, query, 'concurrency', operation);
    const key = await this.ctx.credential('conversationsApiKey', 'concurrency', operation);
    try {
      const res = await this.ctx.transport.request({
        family: 'concurrency',
        operation,
        baseUrl: this.ctx.base('runtime'),
        method: 'GET',
        path: `/v1${this.ctx.projectPath}/conversations/concurrency`,
        query: toQuery(query),
        headers: { [CONCURRENCY_AUTH_HEADER]: key },
        schema: concurrencyReplySchema,
        retry: 'safe',
        signal,
      });
      return res.body;
    } catch (err) {
      if (
        err instanceof PlatformError &&
        err.kind === 'notImplemented' &&
        query.slice_by !== undefined &&
        query.slice_by !== 'variant'
      ) {
        throw new PlatformError({
          family: 'concurrency',
          kind: 'notImplemented',
          operation,
          status: err.status,
          body: err.body,
          cause: err,
          serverMessage: `The platform does not slice concurrent calls by ${query.slice_by.replace('_', ' ')} yet. Slice by variant, or leave slicing off and filter with ${query.slice_by} instead`,
        });
      }
      throw err;
    }
  }
}

function toQuery(query: ConcurrencyQueryInput): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(query) as Array<[string, unknown]>) if (typeof v === 'string') out[k] = v;
  return out;
}
