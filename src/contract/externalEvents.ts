import { z } from 'zod';
import { extra, extraOr } from './common';

/** External Events API ({base_url}): third-party systems push results into an active conversation. */

export const EXTERNAL_EVENTS_WEBHOOK_PATH = '/v1/external-events/webhook';
/** The credential header: a key scoped to external events only. */
export const EXTERNAL_EVENTS_AUTH_HEADER = 'X-Api-Key';

export const EVENT_ID_LOCATIONS = ['headers', 'querystring', 'payload'] as const;
export const eventIdLocationSchema = z.enum(EVENT_ID_LOCATIONS);
export type EventIdLocation = z.infer<typeof eventIdLocationSchema>;

/** Body media types the webhook accepts (EXT-3); `text/xml` is read as XML too. */
export const EXTERNAL_EVENT_CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'application/xml',
  'text/xml',
  'text/plain',
] as const;

/** The query of `POST /v1/external-events/webhook` (EXT-2). All four are required. */
export const externalEventQuerySchema = z.object({
  event_id_location: z.enum(EVENT_ID_LOCATIONS, {
    error: `is required and must be one of ${EVENT_ID_LOCATIONS.join(', ')}`,
  }),
  // "name or dotted path": no length or depth is shown, so those are the platform's to judge.
  event_id_path: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  account_id: z.string({ error: 'is required' }).trim().min(1, 'is required'),
  project_id: z.string({ error: 'is required' }).trim().min(1, 'is required'),
});
export type ExternalEventQuery = z.infer<typeof externalEventQuerySchema>;

/**
 * 201 reply: the event was accepted and queued (EXT-4). The spec shows no body: an empty or other answer
 * reads as queued; `event_id` and `received_at` are ours and read when present.
 */
export const externalEventAcceptedSchema = z.preprocess(
  (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}),
  z.looseObject({
    status: extraOr(z.string(), 'queued'),
    event_id: extra(z.string()),
    received_at: extra(z.string()),
  }),
);
export type ExternalEventAccepted = z.infer<typeof externalEventAcceptedSchema>;

/** Where a conversation keeps delivered results: `state.external_events[event_id] = payload`. */
export const EXTERNAL_EVENTS_STATE_KEY = 'external_events';
