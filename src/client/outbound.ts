import {
  OUTBOUND_AUTH_HEADER,
  OUTBOUND_CALL_PATH,
  type OutboundCallReply,
  outboundCallReplySchema,
  type OutboundCallRequest,
  outboundCallRequestSchema,
  type OutboundCallStatus,
  outboundCallStatusSchema,
} from '../contract/outbound';
import type { ClientContext } from './context';
import { encodePath } from './transport';
import { validateInput } from './validate';

/** Outbound Calling API: places real calls, so it is never retried automatically. */
export class OutboundClient {
  constructor(private readonly ctx: ClientContext) {}

  async placeCall(request: OutboundCallRequest, signal?: AbortSignal): Promise<OutboundCallReply> {
    const operation = 'Place an outbound call';
    const body = validateInput(outboundCallRequestSchema, request, 'outbound', operation);
    const token = await this.ctx.credential('outboundAuthToken', 'outbound', operation);
    const res = await this.ctx.transport.request({
      family: 'outbound', operation, baseUrl: this.ctx.base('runtime'), method: 'POST', path: OUTBOUND_CALL_PATH,
      headers: { [OUTBOUND_AUTH_HEADER]: token }, body, schema: outboundCallReplySchema, retry: 'never', signal,
    });
    return res.body;
  }

  async callStatus(callSid: string, signal?: AbortSignal): Promise<OutboundCallStatus> {
    const operation = `Read the status of call ${callSid}`;
    const token = await this.ctx.credential('outboundAuthToken', 'outbound', operation);
    const res = await this.ctx.transport.request({
      family: 'outbound', operation, baseUrl: this.ctx.base('runtime'), method: 'GET', path: OUTBOUND_CALL_PATH + encodePath`/${callSid}`,
      headers: { [OUTBOUND_AUTH_HEADER]: token }, schema: outboundCallStatusSchema, retry: 'safe', signal,
    });
    return res.body;
  }
}
