import { type FieldProblem, LOCAL_LIMITS, tooLong } from '../ownLimits';
import {
  createTopicRequestSchema,
  updateBehaviorRequestSchema,
  updateTopicRequestSchema,
  type ListTopicsResponse,
} from '../../contract/agents';
import type { RequestContext, Router } from '../http';
import { actorOf, type AgentsAccess } from './access';
import type { StoredBranch, StoredTopic } from './model';
import { toBehavior, toTopic } from './render';
import { parseBody, requireOwnLimits } from './validate';

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The branch-scoped content: behavior and knowledge-base topics (AGENT-14). */
export function registerContentRoutes(router: Router, access: AgentsAccess): void {
  const { platform } = access;
  const branchPath = '/v1/agents/:agentId/branches/:branchId';

  /** Agent and branch of a request, after the key check. */
  const target = (ctx: RequestContext, write: boolean): { branch: StoredBranch; actor: string } => {
    const key = access.key(ctx, write);
    const agent = access.agent(ctx, key);
    return { branch: access.branch(ctx, agent), actor: actorOf(key) };
  };

  const touch = (branch: StoredBranch, actor: string): string => {
    const at = platform.now();
    branch.updatedAt = at;
    branch.updatedBy = actor;
    return at;
  };

  router.get(`${branchPath}/behavior`, (ctx) => ({ body: toBehavior(target(ctx, false).branch) }));

  router.patch(`${branchPath}/behavior`, (ctx) => {
    const { branch, actor } = target(ctx, true);
    const { behavior } = parseBody(ctx, updateBehaviorRequestSchema);
    requireOwnLimits(tooLong([['behavior', behavior, LOCAL_LIMITS.behavior]]));
    const at = touch(branch, actor);
    branch.content.behavior = behavior;
    branch.behaviorUpdatedAt = at;
    branch.behaviorUpdatedBy = actor;
    return { body: toBehavior(branch) };
  });

  router.get(`${branchPath}/knowledge-base/topics`, (ctx) => {
    const { branch } = target(ctx, false);
    const topics = Object.values(branch.content.topics).sort(
      (a, b) => byName.compare(a.name, b.name) || a.topicId.localeCompare(b.topicId),
    );
    const body: ListTopicsResponse = { topics: topics.map((t) => toTopic(t, branch.branchId)) };
    return { body };
  });

  router.get(`${branchPath}/knowledge-base/topics/:topicId`, (ctx) => {
    const { branch } = target(ctx, false);
    return { body: toTopic(access.topic(ctx, branch), branch.branchId) };
  });

  router.post(`${branchPath}/knowledge-base/topics`, (ctx) => {
    const { branch, actor } = target(ctx, true);
    const { name, content } = parseBody(ctx, createTopicRequestSchema);
    requireOwnLimits(topicLimits(name, content));
    const at = touch(branch, actor);
    const topic: StoredTopic = {
      topicId: platform.nextId('kt'),
      name,
      content,
      createdAt: at,
      updatedAt: at,
      createdBy: actor,
      updatedBy: actor,
    };
    branch.content.topics[topic.topicId] = topic;
    return { status: 201, body: toTopic(topic, branch.branchId) };
  });

  router.patch(`${branchPath}/knowledge-base/topics/:topicId`, (ctx) => {
    const { branch, actor } = target(ctx, true);
    const topic = access.topic(ctx, branch);
    const change = parseBody(ctx, updateTopicRequestSchema);
    requireOwnLimits(topicLimits(change.name, change.content));
    const at = touch(branch, actor);
    // A new record, never an edit in place: a merge result may share topic records with other content.
    const next: StoredTopic = {
      ...topic,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.content !== undefined ? { content: change.content } : {}),
      updatedAt: at,
      updatedBy: actor,
    };
    branch.content.topics[topic.topicId] = next;
    return { body: toTopic(next, branch.branchId) };
  });

  router.delete(`${branchPath}/knowledge-base/topics/:topicId`, (ctx) => {
    const { branch, actor } = target(ctx, true);
    const topic = access.topic(ctx, branch);
    touch(branch, actor);
    Reflect.deleteProperty(branch.content.topics, topic.topicId);
    return { status: 204 };
  });
}

function topicLimits(name: string | undefined, content: string | undefined): FieldProblem[] {
  return tooLong([
    ['name', name, LOCAL_LIMITS.topicName],
    ['content', content, LOCAL_LIMITS.topicContent],
  ]);
}
