import {
  type ExternalEventAccepted,
  EXTERNAL_EVENTS_WEBHOOK_PATH,
  externalEventQuerySchema,
} from '../../contract/externalEvents';
import type { ExternalEventsReply, PendingEventReply } from '../adminApi';
import type { Family, FamilyContext } from '../family';
import { buildError, type RequestContext, Router, runtimeError } from '../http';
import type { Platform } from '../platform';
import { LOCAL_LIMITS, overLocalLimit } from '../ownLimits';
import type { StoredApiKey } from '../state';
import { findEventId, parsePayload, PayloadError } from './payload';
import {
  awaitExternalEvent,
  conversationWaitingOn,
  deliverExternalEvent,
  ExternalEventError,
  listExternalEvents,
} from './pending';

/** External Events API (EXT-1..EXT-5) plus `/_local/external-events/...` to make conversations wait on ids. */
export function createExternalEventsFamily(ctx: FamilyContext): Family {
  const { platform } = ctx;
  const router = new Router();

  router.post(EXTERNAL_EVENTS_WEBHOOK_PATH, (req) => {
    const key = platform.requireRuntimeKey('externalEvents', req.header('x-api-key'));
    const query = readQuery(req);
    checkProject(platform, key, query.account_id, query.project_id);
    const payload = guard(() => parsePayload(req.raw));
    const eventId = guard(() => findEventId(req, payload, query.event_id_location, query.event_id_path));
    const conv = guard(() => conversationWaitingOn(platform, eventId, key.projectId));
    const delivered = deliverExternalEvent(platform, conv, eventId, payload.value, req.raw.contentType);
    const body: ExternalEventAccepted = { status: 'queued', event_id: eventId, received_at: delivered.received_at };
    return { status: 201, body };
  });

  ctx.admin.get('/external-events', () => ({ body: listExternalEvents(platform) satisfies ExternalEventsReply }));
  ctx.admin.post('/external-events/pending', (req) => {
    const body = req.json() as { conversation_id?: unknown; event_id?: unknown } | undefined;
    if (typeof body?.conversation_id !== 'string')
      throw buildError(400, 'conversation_id is required', [{ field: 'conversation_id', message: 'must be a string' }]);
    const eventId = body.event_id;
    if (
      eventId !== undefined &&
      (typeof eventId !== 'string' || !eventId.trim() || eventId.length > LOCAL_LIMITS.eventId)
    ) {
      throw buildError(400, 'event_id must be a non-empty string', [
        { field: 'event_id', message: `1 to ${LOCAL_LIMITS.eventId} characters (a limit of the local platform's own)` },
      ]);
    }
    try {
      return {
        status: 201,
        body: awaitExternalEvent(platform, body.conversation_id, eventId?.trim()) satisfies PendingEventReply,
      };
    } catch (err) {
      if (err instanceof ExternalEventError)
        throw buildError(platform.findConversation(body.conversation_id) ? 409 : 404, err.message);
      throw err;
    }
  });

  return { name: 'externalEvents', base: 'runtime', router };
}

function readQuery(req: RequestContext): ReturnType<typeof externalEventQuerySchema.parse> {
  const parsed = externalEventQuerySchema.safeParse(Object.fromEntries(req.query));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw runtimeError(400, `Query parameter ${issue.path.map(String).join('.')}: ${issue.message}`);
  }
  const problem = ownPathProblem(parsed.data.event_id_path);
  if (problem) throw runtimeError(400, `Query parameter event_id_path: ${problem}`);
  return parsed.data;
}

/** The local platform's own limits on `event_id_path` (the spec shows "name or dotted path" only). */
function ownPathProblem(path: string): string | undefined {
  const parts = path.split('.');
  if (path.length > LOCAL_LIMITS.eventIdPath) return overLocalLimit(LOCAL_LIMITS.eventIdPath, 'characters');
  if (parts.length > LOCAL_LIMITS.eventIdPathParts)
    return overLocalLimit(LOCAL_LIMITS.eventIdPathParts, 'dotted parts');
  return parts.includes('')
    ? 'the local platform takes a name or a dotted path without empty parts (a rule of its own)'
    : undefined;
}

/** `account_id`/`project_id` (slug or prefixed) must name the project the key is scoped to. */
function checkProject(platform: Platform, key: StoredApiKey, accountParam: string, projectParam: string): void {
  const account = platform.findAccount(accountParam);
  if (!account) throw runtimeError(400, `Query parameter account_id: unknown account ${accountParam}`);
  const project = platform.findProject(account, projectParam);
  if (!project) throw runtimeError(400, `Query parameter project_id: unknown project ${projectParam}`);
  if (key.accountId !== account.id || (key.projectId !== undefined && key.projectId !== project.id)) {
    throw runtimeError(401, 'This External Events key is not valid for the given account and project');
  }
}

/** Payload and event id problems are the caller's: 400 with `error_message` (EXT-5). */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PayloadError || err instanceof ExternalEventError) throw runtimeError(400, err.message);
    throw err;
  }
}
