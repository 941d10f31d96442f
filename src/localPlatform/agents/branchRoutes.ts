import { LOCAL_BRANCH_NAME_PATTERN, LOCAL_LIMITS, tooLong } from '../ownLimits';
import {
  createBranchRequestSchema,
  mergeRequestSchema,
  type ListBranchesResponse,
  type MergeConflictBody,
  type MergeResult,
} from '../../contract/agents';
import { buildError, HttpError, type Router } from '../http';
import { actorOf, type AgentsAccess } from './access';
import { mergeBranch } from './merge';
import type { StoredBranch } from './model';
import { toBranch } from './render';
import { branchesOf, MAIN_BRANCH_NAME, mainBranchOf } from './store';
import { parseBody, requireOwnLimits } from './validate';

/** Branches of an agent: list, get, create (a copy of main), merge into main. */
export function registerBranchRoutes(router: Router, access: AgentsAccess): void {
  const { platform } = access;

  router.get('/v1/agents/:agentId/branches', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    const body: ListBranchesResponse = { branches: branchesOf(access.state, agent.agentId).map(toBranch) };
    return { body };
  });

  router.get('/v1/agents/:agentId/branches/:branchId', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    return { body: toBranch(access.branch(ctx, agent)) };
  });

  router.post('/v1/agents/:agentId/branches', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const { name } = parseBody(ctx, createBranchRequestSchema);
    requireOwnLimits([
      ...tooLong([['name', name, LOCAL_LIMITS.branchName]]),
      ...(LOCAL_BRANCH_NAME_PATTERN.test(name)
        ? []
        : [
            {
              field: 'name',
              message:
                'the local platform takes letters, digits, ".", "_", "-" and "/" only, starting with a letter or digit (a rule of its own; the specification shows none)',
            },
          ]),
    ]);
    const taken = branchesOf(access.state, agent.agentId).some((b) => b.name.toLowerCase() === name.toLowerCase());
    if (taken)
      throw buildError(409, `A branch named ${name} already exists on this agent`, [
        { field: 'name', message: 'already used by another branch of this agent' },
      ]);
    const main = requireMain(access, agent.agentId);
    const at = platform.now();
    const actor = actorOf(key);
    const branch: StoredBranch = {
      branchId: platform.nextId('br'),
      agentId: agent.agentId,
      name,
      // The merge base is main as it is now; the branch starts as a copy of it.
      base: structuredClone(main.content),
      content: structuredClone(main.content),
      createdAt: at,
      updatedAt: at,
      createdBy: actor,
      updatedBy: actor,
      mergedAt: null,
      behaviorUpdatedAt: main.behaviorUpdatedAt ?? main.createdAt,
      behaviorUpdatedBy: main.behaviorUpdatedBy ?? main.createdBy,
    };
    access.state.branches[branch.branchId] = branch;
    return { status: 201, body: toBranch(branch) };
  });

  router.post('/v1/agents/:agentId/branches/:branchId/merge', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const branch = access.branch(ctx, agent);
    const { resolutions = [] } = parseBody(ctx, mergeRequestSchema);
    const main = requireMain(access, agent.agentId);
    if (branch.branchId === main.branchId)
      throw buildError(400, 'main cannot be merged into itself', [
        { field: 'branchId', message: 'name a branch other than main' },
      ]);
    const at = platform.now();
    const actor = actorOf(key);
    const outcome = mergeBranch({
      base: branch.base,
      ours: main.content,
      theirs: branch.content,
      resolutions,
      stamp: { at, by: actor },
    });
    if (outcome.kind === 'invalid') throw buildError(400, 'The merge resolutions are not valid', outcome.errors);
    if (outcome.kind === 'conflict') {
      const body: MergeConflictBody = {
        message: `The branch and main have diverged: ${outcome.conflicts.length} conflicting change(s). Resolve them and merge again with resolutions.`,
        errors: outcome.conflicts.map((c) => ({
          field: c.path,
          message: 'changed differently on main and on the branch',
        })),
        conflicts: outcome.conflicts,
      };
      throw new HttpError(409, body);
    }
    if (outcome.changes.length > 0) {
      const behaviorChanged = outcome.content.behavior !== main.content.behavior;
      main.content = outcome.content;
      main.base = structuredClone(outcome.content);
      main.updatedAt = at;
      main.updatedBy = actor;
      if (behaviorChanged) {
        main.behaviorUpdatedAt = at;
        main.behaviorUpdatedBy = actor;
      }
    }
    // Like git: what the branch holds now is the common ancestor of its next merge.
    branch.base = structuredClone(branch.content);
    branch.mergedAt = at;
    branch.updatedAt = at;
    const body: MergeResult = {
      merged: true,
      branchId: branch.branchId,
      mainBranchId: main.branchId,
      mergedAt: at,
      changes: outcome.changes,
      main: toBranch(main),
    };
    return { body };
  });
}

function requireMain(access: AgentsAccess, agentId: string): StoredBranch {
  const main = mainBranchOf(access.state, agentId);
  if (!main) throw buildError(500, `Agent ${agentId} has no ${MAIN_BRANCH_NAME} branch`);
  return main;
}
