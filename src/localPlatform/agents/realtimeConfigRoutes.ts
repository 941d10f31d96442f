import {
  REALTIME_CONFIG_NAME_PATTERN,
  updateVariablesRequestSchema,
  type ListRealtimeConfigsResponse,
  type UpdatedVariables,
} from '../../contract/agents';
import { buildError, type RequestContext, type Router } from '../http';
import { actorOf, type AgentsAccess } from './access';
import { checkJsonSchema } from '../../core/jsonSchema';
import type { StoredAgent, StoredRealtimeConfig } from './model';
import { toRealtimeConfig } from './render';
import { parseBody, requireId } from './validate';

/**
 * Real-time configs: runtime values of an agent, checked against the config's JSON Schema and
 * in effect at once, without publishing (AGENT-10). PATCH merges: the named variables are set,
 * a null removes one, the others stay.
 */
export function registerRealtimeConfigRoutes(router: Router, access: AgentsAccess): void {
  const configOf = (ctx: RequestContext, agent: StoredAgent): StoredRealtimeConfig => {
    const name = requireId(ctx.params.config, REALTIME_CONFIG_NAME_PATTERN, 'config');
    const config = access.state.realtimeConfigs.find((c) => c.agentId === agent.agentId && c.name === name);
    if (!config)
      throw buildError(404, `Real-time config not found: ${name}`, [
        { field: 'config', message: 'no such real-time config on this agent' },
      ]);
    return config;
  };

  router.get('/v1/agents/:agentId/real-time-configs', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    const configs = access.state.realtimeConfigs
      .filter((c) => c.agentId === agent.agentId)
      .sort((a, b) => a.name.localeCompare(b.name));
    const body: ListRealtimeConfigsResponse = { configs: configs.map(toRealtimeConfig) };
    return { body };
  });

  router.get('/v1/agents/:agentId/real-time-configs/:config', (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    return { body: toRealtimeConfig(configOf(ctx, agent)) };
  });

  router.patch('/v1/agents/:agentId/real-time-configs/:config/variables', (ctx) => {
    const key = access.key(ctx, true);
    const agent = access.agent(ctx, key);
    const config = configOf(ctx, agent);
    const { variables } = parseBody(ctx, updateVariablesRequestSchema);
    const next: Record<string, unknown> = { ...config.variables };
    for (const [name, value] of Object.entries(variables)) {
      if (value === null) Reflect.deleteProperty(next, name);
      else next[name] = value;
    }
    const violations = checkJsonSchema(config.schema, next);
    if (violations.length > 0) {
      throw buildError(
        422,
        `The variables do not match the JSON Schema of ${config.name}`,
        violations.map((v) => ({ field: v.path ? `variables.${v.path}` : 'variables', message: v.message })),
      );
    }
    config.variables = next;
    config.updatedAt = access.platform.now();
    config.updatedBy = actorOf(key);
    const body: UpdatedVariables = {
      name: config.name,
      variables: config.variables,
      updatedAt: config.updatedAt,
      updatedBy: config.updatedBy,
    };
    return { body };
  });
}
