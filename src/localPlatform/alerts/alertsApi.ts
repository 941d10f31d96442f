import type { Family, FamilyContext } from '../family';
import { Router } from '../http';
import { addAlertsAdminRoutes } from './adminRoutes';
import { queueNotification } from './deliveries';
import { addEndpointRoutes } from './endpointsRoutes';
import { evaluateRules, type EvaluationResult } from './evaluator';
import { addRuleRoutes } from './rulesRoutes';
import { WebhookSender } from './webhooks';

/**
 * Alerts API and webhook endpoints ({build_base_url}): alert rules, current alerts, webhook
 * endpoints; an evaluator that runs on a timer and on demand, and a signed webhook sender.
 */
export function createAlertsFamily(ctx: FamilyContext): Family {
  const { platform } = ctx;
  const router = new Router();
  const sender = new WebhookSender(platform);

  /** Evaluates every rule now and sends the notifications its changes raise. */
  function evaluateAndNotify(): { result: EvaluationResult; deliveriesByRule: Map<string, string[]> } {
    const result = evaluateRules(platform);
    const deliveriesByRule = new Map<string, string[]>();
    for (const n of result.notifications) {
      const deliveries = queueNotification(platform, n.accountId, n.ruleId, n.notification);
      deliveriesByRule.set(
        n.ruleId,
        deliveries.map((d) => d.id),
      );
      sender.send(deliveries);
    }
    if (result.notifications.length > 0) platform.mutated();
    return { result, deliveriesByRule };
  }

  addRuleRoutes(router, platform);
  addEndpointRoutes(router, platform);
  addAlertsAdminRoutes(ctx.admin, platform, evaluateAndNotify);
  sender.resumePending();

  const interval = platform.options.alertEvaluationIntervalMs;
  const timer = interval > 0 ? setInterval(() => evaluateAndNotify(), interval) : undefined;
  timer?.unref();

  return {
    name: 'alerts',
    base: 'build',
    router,
    dispose() {
      if (timer) clearInterval(timer);
      sender.dispose();
    },
  };
}
