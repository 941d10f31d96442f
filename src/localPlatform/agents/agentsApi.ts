import type { Family, FamilyContext } from '../family';
import { Router } from '../http';
import { AgentsAccess } from './access';
import { registerAgentsAdminRoutes } from './adminRoutes';
import { registerAgentRoutes } from './agentRoutes';
import { registerBranchRoutes } from './branchRoutes';
import { registerContentRoutes } from './contentRoutes';
import { registerDeploymentRoutes } from './deploymentRoutes';
import { registerRealtimeConfigRoutes } from './realtimeConfigRoutes';
import { registerTelephonyRoutes } from './telephonyRoutes';

/** Agents API (build and deploy) under {build_base_url}/v1/agents, with the x-api-key Agents key. */
export function createAgentsFamily(ctx: FamilyContext): Family {
  const router = new Router();
  const access = new AgentsAccess(ctx.platform);
  registerAgentRoutes(router, access);
  registerBranchRoutes(router, access);
  registerContentRoutes(router, access);
  registerDeploymentRoutes(router, access);
  registerRealtimeConfigRoutes(router, access);
  registerTelephonyRoutes(router, access);
  registerAgentsAdminRoutes(ctx.admin, access);
  return { name: 'agents', base: 'build', router };
}
