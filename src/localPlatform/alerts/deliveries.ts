import type { AlertNotification } from '../../contract/alerts';
import type { Platform } from '../platform';
import { alertsOf, DELIVERY_LOG_MAX, type StoredDelivery } from './model';

/**
 * Records one pending delivery of a notification for every endpoint of the account whose
 * event_types include its event. Sending is the webhook sender's job.
 */
export function queueNotification(
  platform: Platform,
  accountId: string,
  ruleId: string,
  notification: AlertNotification,
): StoredDelivery[] {
  const section = alertsOf(platform);
  const now = platform.now();
  const created: StoredDelivery[] = [];
  for (const endpoint of section.endpoints) {
    if (endpoint.accountId !== accountId || !endpoint.event_types.includes(notification.event_type)) continue;
    const delivery: StoredDelivery = {
      id: platform.nextId('msg'),
      accountId,
      endpoint_id: endpoint.id,
      event_type: notification.event_type,
      rule_id: ruleId,
      payload: structuredClone(notification),
      status: 'pending',
      attempts: [],
      created_at: now,
      next_attempt_at: now,
      last_error: null,
    };
    section.deliveries.push(delivery);
    created.push(delivery);
  }
  trimLog(section.deliveries);
  return created;
}

/** Drops the oldest finished deliveries beyond the log's size; pending ones are kept. */
function trimLog(log: StoredDelivery[]): void {
  let excess = log.length - DELIVERY_LOG_MAX;
  for (let i = 0; i < log.length && excess > 0;) {
    if (log[i]!.status !== 'pending') {
      log.splice(i, 1);
      excess -= 1;
    } else {
      i += 1;
    }
  }
}
