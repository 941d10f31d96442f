import { buildError, type Router } from '../http';
import type { Platform } from '../platform';
import type { DeliveriesReply, EvaluationReply } from '../adminApi';
import type { EvaluationResult } from './evaluator';
import { alertsOf, type AlertsSwitches } from './model';

/**
 * `/_local/alerts/...` and `/_local/webhook-deliveries`: run an evaluation now, read the
 * delivery log, and switch the family's failure paths (502 sync failure, failed evaluation).
 */
export function addAlertsAdminRoutes(
  admin: Router,
  platform: Platform,
  evaluate: () => { result: EvaluationResult; deliveriesByRule: Map<string, string[]> },
): void {
  admin.post('/alerts/evaluate', () => {
    const { result, deliveriesByRule } = evaluate();
    const body: EvaluationReply = {
      evaluated_at: result.evaluated_at,
      evaluated: result.evaluated,
      changes: result.changes.map((c) => ({ ...c, deliveries: deliveriesByRule.get(c.rule_id) ?? [] })),
    };
    return { body };
  });

  admin.get('/webhook-deliveries', (ctx) => {
    const endpointId = ctx.query.get('endpoint_id');
    const status = ctx.query.get('status');
    const deliveries = alertsOf(platform).deliveries.filter(
      (d) => (endpointId === null || d.endpoint_id === endpointId) && (status === null || d.status === status),
    );
    return { body: { deliveries } satisfies DeliveriesReply };
  });

  admin.get('/alerts/switches', () => ({ body: alertsOf(platform).switches }));
  admin.patch('/alerts/switches', (ctx) => {
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    const switches = alertsOf(platform).switches;
    for (const [k, v] of Object.entries(body)) {
      if (!(k in switches) || typeof v !== 'boolean') {
        throw buildError(400, `Unknown or non-boolean switch: ${k}`, [
          { field: k, message: `must be one of ${Object.keys(switches).join(', ')} with a boolean value` },
        ]);
      }
      switches[k as keyof AlertsSwitches] = v;
    }
    platform.mutated();
    return { body: switches };
  });
}
