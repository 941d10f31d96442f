import {
  OUTBOUND_AUTH_HEADER,
  normalizeToNumber,
  OUTBOUND_CALL_PATH,
  type OutboundCallReply,
  outboundCallReplySchema,
  type OutboundCallRequest,
  outboundCallRequestSchema,
  type OutboundCallStatus,
  outboundCallStatusSchema,
} from '../contract/outbound';
import type { ClientContext } from './context';
import { PlatformError } from './errors';
import type { Assumption } from './errors';
import { encodePath } from './transport';
import { validateInput } from './validate';

/** The call-status endpoint is not shown by the spec (docs/api-assumptions.md, Outbound Calling API). */
const ASSUMED_CALL_STATUS: Assumption = {
  row: 'Get call status endpoint (to monitor a call): path, parameters and response not shown',
  manualPath: 'Follow the call in the studio instead.',
};

/** Outbound Calling API: places real calls, so it is never retried automatically. */
export class OutboundClient {
  constructor(private readonly ctx: ClientContext) {}

  async placeCall(request: OutboundCallRequest, signal?: AbortSignal): Promise<OutboundCallReply> {
    const operation = 'Place an outbound call';
    const checked = validateInput(outboundCallRequestSchema, request, 'outbound', operation);
    // Sent in E.164, normalised here ("+1 (415) 555-0123" → "+14155550123"), so country_code ("leave unset with E.164") never goes out.
    const phone = normalizeToNumber(checked.to_number, checked.country_code);
    if (!phone.ok)
      throw new PlatformError({
        family: 'outbound',
        kind: 'invalidInput',
        operation,
        fieldErrors: [{ field: phone.field, message: phone.message }],
      });
    const { country_code: _countryCode, ...rest } = checked;
    const body = { ...rest, to_number: phone.e164 };
    const token = await this.ctx.credential('outboundAuthToken', 'outbound', operation);
    const res = await this.ctx.transport.request({
      family: 'outbound',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'POST',
      path: OUTBOUND_CALL_PATH,
      headers: { [OUTBOUND_AUTH_HEADER]: token },
      body,
      schema: outboundCallReplySchema,
      retry: 'never',
      signal,
    });
    return res.body;
  }

  async callStatus(callSid: string, signal?: AbortSignal): Promise<OutboundCallStatus> {
    const operation = `Read the status of call ${callSid}`;
    const token = await this.ctx.credential('outboundAuthToken', 'outbound', operation);
    const res = await this.ctx.transport.request({
      family: 'outbound',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'GET',
      path: OUTBOUND_CALL_PATH + encodePath`/${callSid}`,
      headers: { [OUTBOUND_AUTH_HEADER]: token },
      schema: outboundCallStatusSchema,
      retry: 'safe',
      assumption: { ...ASSUMED_CALL_STATUS, item: true },
      signal,
    });
    return res.body;
  }
}
