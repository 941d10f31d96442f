import { conversationsApiVersionSchema, parseConversationsQuery } from '../../contract/conversations';
import type {
  ConversationsApiVersion,
  ConversationsPageV1,
  ConversationsPageV2,
  ConversationsPageV3,
} from '../../contract/conversations';
import type { Family, FamilyContext } from '../family';
import { JsonText, type RequestContext, Router, runtimeError } from '../http';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';
import { authorizeConversations, invalidParameters } from './access';
import { registerConversationAdminRoutes } from './adminRoutes';
import { listConversations, type ListedPage } from './listing';
import { RecordJsonCache } from './recordCache';
import { descriptionsFor, type RenderOptions, renderRecord, renderRecordV1 } from './render';

/**
 * Conversations API v1, v2 and v3: `GET /{version}/{account_id}/{project_id}/conversations`.
 * All versions take the conversations x-api-key; errors are `{error_message}` bodies.
 */
export function createConversationsFamily(ctx: FamilyContext): Family {
  const router = new Router();
  const cache = new RecordJsonCache(ctx.platform);
  router.get('/:version/:accountId/:projectId/conversations', (req) => ({
    body: listHandler(ctx.platform, cache, req),
  }));
  registerConversationAdminRoutes(ctx.admin, ctx.platform);
  return { name: 'conversations', base: 'runtime', router, dispose: () => cache.dispose() };
}

type Page = ConversationsPageV1 | ConversationsPageV2 | ConversationsPageV3;

function listHandler(platform: Platform, cache: RecordJsonCache, req: RequestContext): JsonText {
  const version = conversationsApiVersionSchema.safeParse(req.params.version);
  if (!version.success)
    throw runtimeError(
      404,
      `Unknown Conversations API version: ${req.params.version ?? ''}. Use v3 (recommended), v2 or v1`,
    );
  const { key, project } = authorizeConversations(platform, req);
  const parsed = parseConversationsQuery(req.query, version.data);
  if (!parsed.ok) invalidParameters(parsed.issues);
  const q = parsed.query;
  if (q.query_type !== undefined && !project.settings.transcriptVisibility) {
    throw runtimeError(
      403,
      `query_type=${q.query_type} searches transcripts, and transcript visibility is off for this project`,
    );
  }
  // A key without Conversations data permission sees no records.
  const page: ListedPage =
    key.dataPermission === true
      ? listConversations(platform.state.conversations, project.id, q)
      : { conversations: [], cursor: null };
  const opts: RenderOptions = {
    settings: project.settings,
    includeLatency: version.data === 'v3' && q.include_latency,
    nowMs: platform.clock.now(),
  };
  const envelope: Page = {
    conversations: [],
    descriptions: descriptionsFor(version.data, opts),
    ...(page.nextOffset === undefined ? {} : { next_offset: page.nextOffset }),
    ...(version.data === 'v3' ? { cursor: page.cursor } : {}),
  };
  return withRecords(envelope, recordsJson(cache, page.conversations, version.data, opts));
}

/** The records' JSON texts, each rendered for the version (or taken from the cache). */
function recordsJson(
  cache: RecordJsonCache,
  convs: readonly StoredConversation[],
  version: ConversationsApiVersion,
  opts: RenderOptions,
): string[] {
  const s = opts.settings;
  const rendering = [
    version,
    opts.includeLatency,
    s.transcriptVisibility,
    s.translation,
    s.v1FieldWhitelist,
    s.responseMetrics.join(','),
  ].join('|');
  return convs.map((conv) =>
    cache.json(conv, rendering, () =>
      version === 'v1' ? renderRecordV1(conv, opts) : renderRecord(conv, opts, version === 'v3'),
    ),
  );
}

const OPENING = '{"conversations":[';

/** The envelope's JSON with the records' JSON in its (first, empty) `conversations` list. */
function withRecords(envelope: Page, records: readonly string[]): JsonText {
  const text = JSON.stringify(envelope);
  if (!text.startsWith(`${OPENING}]`)) throw new Error('conversations must be the first key of the page');
  return new JsonText(OPENING + records.join(',') + text.slice(OPENING.length));
}
