import { conversationsApiVersionSchema, parseConversationsQuery } from '../../contract/conversations';
import type { ConversationsPageV1, ConversationsPageV2, ConversationsPageV3 } from '../../contract/conversations';
import type { Family, FamilyContext } from '../family';
import { type RequestContext, Router, runtimeError } from '../http';
import type { Platform } from '../platform';
import { authorizeConversations, invalidParameters } from './access';
import { listConversations, type ListedPage } from './listing';
import { descriptionsFor, type RenderOptions, renderRecord, renderRecordV1 } from './render';

/**
 * Conversations API v1, v2 and v3: `GET /{version}/{account_id}/{project_id}/conversations`.
 * All versions take the conversations x-api-key; errors are `{error_message}` bodies.
 */
export function createConversationsFamily(ctx: FamilyContext): Family {
  const router = new Router();
  router.get('/:version/:accountId/:projectId/conversations', (req) => listHandler(ctx.platform, req));
  return { name: 'conversations', base: 'runtime', router };
}

function listHandler(platform: Platform, req: RequestContext): { body: ConversationsPageV1 | ConversationsPageV2 | ConversationsPageV3 } {
  const version = conversationsApiVersionSchema.safeParse(req.params.version);
  if (!version.success) throw runtimeError(404, `Unknown Conversations API version: ${req.params.version ?? ''}. Use v3 (recommended), v2 or v1`);
  const { key, project } = authorizeConversations(platform, req);
  const parsed = parseConversationsQuery(req.query, version.data);
  if (!parsed.ok) invalidParameters(parsed.issues);
  const q = parsed.query;
  if (q.query_type !== undefined && !project.settings.transcriptVisibility) {
    throw runtimeError(403, `query_type=${q.query_type} searches transcripts, and transcript visibility is off for this project`);
  }
  // A key without Conversations data permission sees no records.
  const page: ListedPage = key.dataPermission === true
    ? listConversations(platform.state.conversations, project.id, q)
    : { conversations: [], cursor: null };
  const opts: RenderOptions = {
    settings: project.settings,
    includeLatency: version.data === 'v3' && q.include_latency,
    nowMs: platform.clock.now(),
  };
  const descriptions = descriptionsFor(version.data, opts);
  const nextOffset = page.nextOffset === undefined ? {} : { next_offset: page.nextOffset };
  if (version.data === 'v1') {
    return { body: { conversations: page.conversations.map((c) => renderRecordV1(c, opts)), descriptions, ...nextOffset } };
  }
  const full = version.data === 'v3';
  const conversations = page.conversations.map((c) => renderRecord(c, opts, full));
  if (!full) return { body: { conversations, descriptions, ...nextOffset } };
  return { body: { conversations, descriptions, ...nextOffset, cursor: page.cursor } };
}
