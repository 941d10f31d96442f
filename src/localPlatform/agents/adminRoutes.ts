import { z } from 'zod';
import { LOCAL_LIMITS } from '../ownLimits';
import { buildError, type Router } from '../http';
import type { AgentsAccess } from './access';
import type { StoredTopic } from './model';
import { toBehavior, toBranch, toTopic } from './render';
import { MAIN_BRANCH_NAME } from './store';
import { parseBody } from './validate';

/** Someone else's edit of a branch: what a teammate in the studio would do. */
export const adminEditSchema = z.object({
  /** Recorded as updatedBy (and createdBy of new topics). */
  user: z.string().min(1).default('teammate@acme.test'),
  /**
   * A new name for the branch, as another platform or its studio may name one: the pattern the create endpoint keeps
   * (no spaces, like a git branch) is the local platform's own rule, so any text within the length limit is taken.
   */
  name: z.string().min(1).max(LOCAL_LIMITS.branchName).optional(),
  behavior: z.string().max(LOCAL_LIMITS.behavior).optional(),
  /** Topics to add (no topicId, or an unknown one) or change (a topicId of the branch). */
  upsertTopics: z
    .array(
      z.object({
        topicId: z
          .string()
          .regex(/^kt_[A-Za-z0-9_]+$/)
          .optional(),
        name: z.string().min(1).max(LOCAL_LIMITS.topicName),
        content: z.string().max(LOCAL_LIMITS.topicContent),
      }),
    )
    .default([]),
  deleteTopics: z.array(z.string()).default([]),
});

/**
 * `/_local/agents/...`: change agents behind the API's back, as another user would, so tests
 * and demos can make remote changes (pull and push conflicts, diverged merges).
 */
export function registerAgentsAdminRoutes(admin: Router, access: AgentsAccess): void {
  const { platform } = access;

  admin.post('/agents/:agentId/branches/:branchId/edit', (ctx) => {
    const agent = access.state.agents[ctx.param('agentId')];
    if (!agent) throw buildError(404, `Agent not found: ${ctx.params.agentId}`);
    const branch = access.state.branches[ctx.param('branchId')];
    if (!branch || branch.agentId !== agent.agentId) throw buildError(404, `Branch not found: ${ctx.params.branchId}`);
    const edit = parseBody(ctx, adminEditSchema);
    const at = platform.now();
    if (edit.name !== undefined) {
      // main is the default branch by its name: it keeps it, and no other branch takes it.
      if (branch.name === MAIN_BRANCH_NAME || edit.name === MAIN_BRANCH_NAME)
        throw buildError(400, 'The main branch keeps its name, and no other branch takes it', [
          { field: 'name', message: `not ${MAIN_BRANCH_NAME}, and not the main branch` },
        ]);
      branch.name = edit.name;
    }
    if (edit.behavior !== undefined) {
      branch.content.behavior = edit.behavior;
      branch.behaviorUpdatedAt = at;
      branch.behaviorUpdatedBy = edit.user;
    }
    for (const t of edit.upsertTopics) {
      const current = t.topicId ? branch.content.topics[t.topicId] : undefined;
      const topic: StoredTopic = current
        ? { ...current, name: t.name, content: t.content, updatedAt: at, updatedBy: edit.user }
        : {
            topicId: t.topicId ?? platform.nextId('kt'),
            name: t.name,
            content: t.content,
            createdAt: at,
            updatedAt: at,
            createdBy: edit.user,
            updatedBy: edit.user,
          };
      branch.content.topics[topic.topicId] = topic;
    }
    for (const topicId of edit.deleteTopics) {
      if (!branch.content.topics[topicId]) throw buildError(404, `Topic not found on this branch: ${topicId}`);
      Reflect.deleteProperty(branch.content.topics, topicId);
    }
    branch.updatedAt = at;
    branch.updatedBy = edit.user;
    return {
      body: {
        branch: toBranch(branch),
        behavior: toBehavior(branch),
        topics: Object.values(branch.content.topics).map((t) => toTopic(t, branch.branchId)),
      },
    };
  });
}
