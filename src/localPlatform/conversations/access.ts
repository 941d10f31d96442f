import type { RequestContext } from '../http';
import { runtimeError } from '../http';
import type { Platform } from '../platform';
import type { StoredAccount, StoredApiKey, StoredProject } from '../state';

export interface ConversationsAccess {
  key: StoredApiKey;
  account: StoredAccount;
  project: StoredProject;
}

/**
 * The x-api-key of the conversations family (Conversations v1/v2/v3 and Concurrent Calls) and the
 * `{account_id}/{project_id}` it may read: 401 without a valid key, 404 for an unknown account or
 * project, 403 for a key of another account or project.
 */
export function authorizeConversations(platform: Platform, ctx: RequestContext): ConversationsAccess {
  const key = platform.requireRuntimeKey('conversations', ctx.header('x-api-key'));
  const { account, project } = platform.resolveProjectPath(ctx.param('accountId'), ctx.param('projectId'), key);
  return { key, account, project };
}

/** A 400 naming each parameter that is wrong and what it accepts. */
export function invalidParameters(issues: ReadonlyArray<{ message: string }>): never {
  throw runtimeError(400, `Invalid parameters: ${issues.map((i) => i.message).join('; ')}`);
}
