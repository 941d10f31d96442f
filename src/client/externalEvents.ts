import {
  EXTERNAL_EVENTS_AUTH_HEADER,
  EXTERNAL_EVENTS_WEBHOOK_PATH,
  type ExternalEventAccepted,
  externalEventAcceptedSchema,
  externalEventQuerySchema,
  type EventIdLocation,
} from '../contract/externalEvents';
import type { ClientContext } from './context';
import { PlatformError } from './errors';
import { validateInput } from './validate';

export interface ExternalEventInput {
  eventIdLocation: EventIdLocation;
  eventIdPath: string;
  /** The result payload as it will be sent. */
  body: string;
  /** One of EXT-3's media types, or another the person typed (the platform judges it). */
  contentType: string;
  /** Extra headers (where the event id lives in a header). */
  headers?: Record<string, string>;
  /** Extra query parameters (where the event id lives in the query string). */
  query?: Record<string, string>;
}

/** External Events API: pushes a third-party result into a waiting conversation. */
export class ExternalEventsClient {
  constructor(private readonly ctx: ClientContext) {}

  async send(input: ExternalEventInput, signal?: AbortSignal): Promise<ExternalEventAccepted> {
    const operation = 'Send an external event';
    const query = validateInput(
      externalEventQuerySchema,
      {
        event_id_location: input.eventIdLocation,
        event_id_path: input.eventIdPath,
        account_id: this.ctx.profile.accountId,
        project_id: this.ctx.profile.projectId,
      },
      'externalEvents',
      operation,
    );
    if (input.contentType === 'application/json') {
      try {
        JSON.parse(input.body);
      } catch (err) {
        throw new PlatformError({
          family: 'externalEvents',
          kind: 'invalidInput',
          operation,
          fieldErrors: [{ field: 'body', message: `is not valid JSON: ${(err as Error).message}` }],
        });
      }
    }
    const key = await this.ctx.credential('externalEventsApiKey', 'externalEvents', operation);
    const res = await this.ctx.transport.request({
      family: 'externalEvents',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'POST',
      path: EXTERNAL_EVENTS_WEBHOOK_PATH,
      query: { ...input.query, ...query },
      headers: { ...input.headers, [EXTERNAL_EVENTS_AUTH_HEADER]: key },
      rawBody: { text: input.body, contentType: input.contentType },
      schema: externalEventAcceptedSchema,
      retry: 'never',
      signal,
    });
    return res.body;
  }
}
