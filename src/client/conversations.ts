import {
  type ConversationsApiVersion,
  type ConversationsPageV1,
  conversationsPageV1Schema,
  type ConversationsPageV2,
  conversationsPageV2Schema,
  type ConversationsPageV3,
  conversationsPageV3Schema,
  type ConversationsQueryInput,
  conversationsQuerySchema,
} from '../contract/conversations';
import type { ClientContext } from './context';
import { PlatformError } from './errors';
import { items, pagesByCursor, pagesByOffset } from './paging';
import type { QueryValue } from './transport';
import { validateInput } from './validate';

const CONVERSATIONS_AUTH_HEADER = 'x-api-key';

interface PageByVersion {
  v1: ConversationsPageV1;
  v2: ConversationsPageV2;
  v3: ConversationsPageV3;
}

/** One page of the version's reply: v3 has `cursor`, v1 records may carry only four fields. */
export type ConversationsPage<V extends ConversationsApiVersion> = PageByVersion[V];
export type ConversationOf<V extends ConversationsApiVersion> = PageByVersion[V]['conversations'][number];

const PAGE_SCHEMAS = {
  v1: conversationsPageV1Schema,
  v2: conversationsPageV2Schema,
  v3: conversationsPageV3Schema,
} as const;

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after this many pages. */
  maxPages?: number;
}

/**
 * Conversations API, v3 by default (v2 and v1 for existing integrations). Queries are checked
 * against the contract before sending (one retrieval mode, start and end with a search or a
 * sample, limit 1 to 5000, variant id or name). Reads only, so failures are retried.
 */
export class ConversationsClient<V extends ConversationsApiVersion = 'v3'> {
  constructor(
    private readonly ctx: ClientContext,
    readonly version: V = 'v3' as V,
  ) {}

  /** One page, with every parameter of the spec. */
  async page(query: ConversationsQueryInput = {}, signal?: AbortSignal): Promise<ConversationsPage<V>> {
    const operation = describe(query, this.version);
    validateInput(conversationsQuerySchema, query, 'conversations', operation);
    if (this.version !== 'v3' && query.cursor !== undefined) {
      throw new PlatformError({
        family: 'conversations',
        kind: 'invalidInput',
        operation,
        fieldErrors: [
          { field: 'cursor', message: `cursor is available on v3 only; ${this.version} pages with offset` },
        ],
      });
    }
    const key = await this.ctx.credential('conversationsApiKey', 'conversations', operation);
    try {
      const res = await this.ctx.transport.request({
        family: 'conversations',
        operation,
        baseUrl: this.ctx.base('runtime'),
        method: 'GET',
        path: `/${encodeURIComponent(this.version)}${this.ctx.projectPath}/conversations`,
        query: toQuery(query),
        headers: { [CONVERSATIONS_AUTH_HEADER]: key },
        schema: PAGE_SCHEMAS[this.version],
        retry: 'safe',
        signal,
      });
      return res.body as ConversationsPage<V>;
    } catch (err) {
      throw this.version !== 'v3' ? legacyAuthNote(err) : err;
    }
  }

  /**
   * Every page of a query: v3 follows the cursor (sending the same filters each time and the
   * cursor unchanged, never read), v1 and v2 follow `next_offset`.
   */
  pages(
    query: ConversationsQueryInput = {},
    opts: WalkOptions = {},
  ): AsyncGenerator<Array<ConversationOf<V>>, void, void> {
    if (this.version === 'v3') {
      const { offset: _offset, ...filters } = query;
      return pagesByCursor(async (cursor) => {
        // The first request is the query as given (it may start at an offset or a cursor).
        const page = (await this.page(
          cursor === undefined ? query : { ...filters, cursor },
          opts.signal,
        )) as ConversationsPageV3;
        return { items: page.conversations as Array<ConversationOf<V>>, cursor: page.cursor };
      }, opts);
    }
    return pagesByOffset(
      async (offset) => {
        const page = await this.page({ ...query, offset }, opts.signal);
        return { items: page.conversations as Array<ConversationOf<V>>, nextOffset: page.next_offset };
      },
      { ...opts, start: query.offset ?? 0 },
    );
  }

  /** Every conversation of a query, in the order of the pages. */
  conversations(
    query: ConversationsQueryInput = {},
    opts: WalkOptions = {},
  ): AsyncGenerator<ConversationOf<V>, void, void> {
    return items(this.pages(query, opts));
  }
}

/**
 * "Conversations API v2 and v1 authentication methods (legacy model): not shown". The client sends the
 * v3 key in x-api-key there too (an assumption); a refusal says so, so the person knows what to change.
 */
function legacyAuthNote(err: unknown): unknown {
  if (!(err instanceof PlatformError) || (err.kind !== 'unauthorized' && err.kind !== 'forbidden')) return err;
  const note =
    'The spec does not show how v1 and v2 authenticate; this client sends the Conversations API key in x-api-key as for v3 (see docs/api-assumptions.md). Use v3, or ask the operator how legacy keys are sent';
  return new PlatformError({
    family: err.family,
    kind: err.kind,
    operation: err.operation,
    ...(err.status !== undefined ? { status: err.status } : {}),
    serverMessage: err.serverMessage ? `${err.serverMessage}. ${note}` : note,
    fieldErrors: [...err.fieldErrors],
    body: err.body,
    cause: err,
  });
}

/** The query as sent: parameters the caller left out stay out, so the platform's defaults apply. */
function toQuery(query: ConversationsQueryInput): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(query) as Array<[string, unknown]>) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.map(String);
  }
  return out;
}

function describe(query: ConversationsQueryInput, version: ConversationsApiVersion): string {
  const suffix = version === 'v3' ? '' : ` (${version})`;
  if (query.query_type !== undefined && query.query !== undefined)
    return `Search conversations for "${query.query}"${suffix}`;
  if (query.sample !== undefined) return `Sample conversations${suffix}`;
  return `List conversations${suffix}`;
}
