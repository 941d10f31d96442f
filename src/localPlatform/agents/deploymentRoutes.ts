import { type FieldProblem, LOCAL_LIMITS, tooLong } from '../ownLimits';
import { environmentSchema } from '../../contract/common';
import {
  promoteRequestSchema,
  publishRequestSchema,
  rollbackRequestSchema,
  type DeploymentActionResult,
  type ListDeploymentsResponse,
} from '../../contract/agents';
import { buildError, type Router } from '../http';
import { actorOf, type AgentsAccess } from './access';
import { Deployer, type DeploymentAction } from './deployments';
import { toDeployment } from './render';
import { deploymentsOf, mainBranchOf } from './store';
import { parseBody, requireOwnLimits } from './validate';

/** Deployments of an agent: list, get, publish, promote, rollback. */
export function registerDeploymentRoutes(router: Router, access: AgentsAccess): void {
  const deployer = new Deployer(access.platform);
  const result = (action: DeploymentAction): { body: DeploymentActionResult } => ({
    body: { deployment: toDeployment(action.deployment), testRunIds: action.testRunIds },
  });

  router.get('/v1/agents/:agentId/deployments', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    const env = ctx.query.get('environment');
    const parsed = env === null ? undefined : environmentSchema.safeParse(env);
    if (parsed && !parsed.success)
      throw buildError(400, 'The query is not valid', [
        { field: 'environment', message: 'must be one of sandbox, pre-release, live' },
      ]);
    const body: ListDeploymentsResponse = {
      deployments: deploymentsOf(access.state, agent.agentId, parsed?.data).map(toDeployment),
    };
    return { body };
  });

  router.get('/v1/agents/:agentId/deployments/:deploymentId', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    return { body: toDeployment(access.deployment(ctx, agent)) };
  });

  router.post('/v1/agents/:agentId/deployments/publish', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const body = parseBody(ctx, publishRequestSchema);
    requireOwnLimits(messageLimit(body.deploymentMessage));
    if (body.environment !== 'sandbox') {
      throw buildError(400, `A draft is published to sandbox; promote a deployment to reach ${body.environment}`, [
        { field: 'environment', message: 'publish takes sandbox; use promote for pre-release and live' },
      ]);
    }
    const main = mainBranchOf(access.state, agent.agentId);
    if (!main) throw buildError(500, `Agent ${agent.agentId} has no main branch`);
    return result(deployer.publish(agent, main.content, main.branchId, body.deploymentMessage ?? '', actorOf(key)));
  });

  router.post('/v1/agents/:agentId/deployments/:deploymentId/promote', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const from = access.deployment(ctx, agent);
    const body = parseBody(ctx, promoteRequestSchema);
    requireOwnLimits(messageLimit(body.deploymentMessage));
    return result(deployer.promote(agent, from, body.deploymentMessage ?? '', actorOf(key)));
  });

  router.post('/v1/agents/:agentId/deployments/:deploymentId/rollback', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const current = access.deployment(ctx, agent);
    const body = parseBody(ctx, rollbackRequestSchema);
    requireOwnLimits(messageLimit(body.deploymentMessage));
    return result(deployer.rollback(agent, current, body.deploymentMessage, actorOf(key)));
  });
}

function messageLimit(message: string | undefined): FieldProblem[] {
  return tooLong([['deploymentMessage', message, LOCAL_LIMITS.deploymentMessage]]);
}
