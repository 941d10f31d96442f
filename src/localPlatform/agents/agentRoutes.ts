import { LOCAL_LIMITS, tooLong } from '../ownLimits';
import {
  createAgentRequestSchema,
  listAgentsQuerySchema,
  type CreateAgentResponse,
  type ListAgentsResponse,
} from '../../contract/agents';
import { buildError, type Router } from '../http';
import { actorOf, type AgentsAccess } from './access';
import type { AgentsState, StoredAgent, StoredBranch } from './model';
import { toAgent, toBranch } from './render';
import { MAIN_BRANCH_NAME, mainBranchOf } from './store';
import { parseBody, parseQuery, requireOwnLimits } from './validate';

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** GET/POST /v1/agents and GET /v1/agents/{agentId}. */
export function registerAgentRoutes(router: Router, access: AgentsAccess): void {
  const { platform } = access;
  // Every agent in the listing's order, kept until the next change: a listing of 10,000 agents is ten pages, and
  // sorting them by name for each page took most of its time.
  let sorted: { agents: AgentsState['agents']; list: StoredAgent[] } | undefined;
  platform.onDidMutate(() => (sorted = undefined));
  const sortedAgents = (): StoredAgent[] => {
    // Also made again when agents were added or removed behind the API's back (tests write the state directly).
    if (sorted?.agents !== access.state.agents || sorted.list.length !== Object.keys(access.state.agents).length) {
      const list = Object.values(access.state.agents);
      list.sort((a, b) => byName.compare(a.name, b.name) || a.agentId.localeCompare(b.agentId));
      sorted = { agents: access.state.agents, list };
    }
    return sorted.list;
  };

  router.get('/v1/agents', (ctx) => {
    const key = access.key(ctx, false);
    const query = parseQuery(ctx, listAgentsQuerySchema);
    const needle = query.name?.toLowerCase();
    const agents = sortedAgents().filter(
      (a) => a.accountId === key.accountId && (!needle || a.name.toLowerCase().includes(needle)),
    );
    const page = agents.slice(query.offset, query.offset + query.limit);
    const end = query.offset + page.length;
    const body: ListAgentsResponse = {
      agents: page.map((a) => toAgent(a, mainBranchOf(access.state, a.agentId)?.branchId)),
      total: agents.length,
      nextOffset: end < agents.length ? end : null,
    };
    return { body };
  });

  router.get('/v1/agents/:agentId', (ctx) => {
    const key = access.key(ctx, false);
    const agent = access.agent(ctx, key);
    return { body: toAgent(agent, mainBranchOf(access.state, agent.agentId)?.branchId) };
  });

  router.post('/v1/agents', (ctx) => {
    const key = access.key(ctx, true);
    const body = parseBody(ctx, createAgentRequestSchema);
    requireOwnLimits(tooLong([['description', body.description, LOCAL_LIMITS.agentDescription]]));
    const account = platform.findAccount(key.accountId);
    const project =
      account &&
      (body.projectId
        ? platform.findProject(account, body.projectId)
        : platform.state.projects.find((p) => p.accountId === account.id));
    if (!project) {
      throw buildError(400, 'The project to serve the agent under was not found', [
        {
          field: 'projectId',
          message: body.projectId ? `no such project in this account: ${body.projectId}` : 'the account has no project',
        },
      ]);
    }
    const { agent, main } = addAgent(access, {
      name: body.name,
      description: body.description,
      accountId: key.accountId,
      projectId: project.id,
      actor: actorOf(key),
    });
    const reply: CreateAgentResponse = { ...toAgent(agent, main.branchId), defaultBranch: toBranch(main) };
    return { status: 201, body: reply };
  });
}

/** A new agent with its empty main branch, stored: what POST /v1/agents makes (and the admin API, many at once). */
export function addAgent(
  access: AgentsAccess,
  a: { name: string; description: StoredAgent['description']; accountId: string; projectId: string; actor: string },
): { agent: StoredAgent; main: StoredBranch } {
  const at = access.platform.now();
  const agent: StoredAgent = {
    agentId: access.platform.nextId('ag'),
    name: a.name,
    description: a.description,
    accountId: a.accountId,
    projectId: a.projectId,
    createdAt: at,
    updatedAt: at,
    createdBy: a.actor,
  };
  const main: StoredBranch = {
    branchId: access.platform.nextId('br'),
    agentId: agent.agentId,
    name: MAIN_BRANCH_NAME,
    base: { behavior: '', topics: {} },
    content: { behavior: '', topics: {} },
    createdAt: at,
    updatedAt: at,
    createdBy: a.actor,
    updatedBy: a.actor,
    mergedAt: null,
  };
  access.state.agents[agent.agentId] = agent;
  access.state.branches[main.branchId] = main;
  return { agent, main };
}
