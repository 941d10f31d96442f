import {
  DEFAULT_OUTBOUND_ENCRYPTION,
  normalizeToNumber,
  OUTBOUND_CALL_PATH,
  outboundCallRequestSchema,
  type OutboundCallReply,
} from '../../contract/outbound';
import type { OutboundCallsReply } from '../adminApi';
import type { Family, FamilyContext } from '../family';
import { buildError, type RequestContext, Router, runtimeError } from '../http';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';
import { OUTBOUND_TEST_NUMBERS, OutboundCalls, type StoredCall } from './calls';
import { requireJsonContentType } from '../jsonBody';

/** Outbound Calling API (OUT-1..OUT-10) plus `/_local/outbound/...` to drive calls in tests and demos. */
export function createOutboundFamily(ctx: FamilyContext): Family {
  const { platform } = ctx;
  const calls = new OutboundCalls(platform);
  const router = new Router();

  router.post(OUTBOUND_CALL_PATH, (req) => {
    const connector = requireOutboundConnector(platform, req);
    requireJsonContentType(req.raw, (message) => runtimeError(415, message));
    const body = req.json(() => runtimeError(400, 'The request body is not valid JSON', 'body'));
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw runtimeError(400, 'The request body must be a JSON object', 'body');
    const parsed = outboundCallRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.') || 'body';
      throw runtimeError(400, `${field}: ${issue.message}`, field);
    }
    const phone = normalizeToNumber(parsed.data.to_number, parsed.data.country_code);
    if (!phone.ok) throw runtimeError(400, `${phone.field}: ${phone.message}`, phone.field);
    // The spec refuses only an unparseable number; this fake line dials only numbers known to exist.
    if (!phone.valid)
      throw runtimeError(
        400,
        `to_number: ${phone.e164} is not a number libphonenumber-js knows as valid, and the local platform calls only those (a rule of its own; the specification refuses only an unparseable number)`,
        'to_number',
      );
    if (phone.e164 === OUTBOUND_TEST_NUMBERS.placementFails) {
      throw runtimeError(
        500,
        `Call placement failed: ${phone.e164} could not be reached. Retry with exponential backoff.`,
      );
    }
    let call: StoredCall;
    try {
      call = calls.place({
        connector,
        toNumber: phone.e164,
        encryption: parsed.data.encryption ?? DEFAULT_OUTBOUND_ENCRYPTION,
        sipHeaders: parsed.data.metadata ?? {},
      });
    } catch (err) {
      throw runtimeError(500, `Call placement failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    const reply: OutboundCallReply = { call_sid: call.call_sid };
    return { status: 200, body: reply };
  });

  // OUT-10: the spec names a status endpoint without its path; this is our assumption.
  router.get(`${OUTBOUND_CALL_PATH}/:callSid`, (req) => {
    const connector = requireOutboundConnector(platform, req);
    const call = calls.get(req.param('callSid'));
    if (!call || call.connector_id !== connector.id)
      throw runtimeError(
        404,
        `Call not found: ${req.param('callSid')} (statuses are kept about 2 hours after a call ends)`,
      );
    return { body: calls.view(call) };
  });

  const adminCall = (req: RequestContext): StoredCall => {
    const call = calls.get(req.param('callSid'));
    if (!call) throw buildError(404, `Call not found: ${req.param('callSid')}`);
    return call;
  };
  ctx.admin.get('/outbound/calls', () => ({
    body: { calls: calls.list().map((c) => calls.view(c)) } satisfies OutboundCallsReply,
  }));
  ctx.admin.post('/outbound/calls/:callSid/answer', (req) => {
    const call = adminCall(req);
    if (call.status !== 'ringing') throw buildError(409, `The call is ${call.status}, not ringing`);
    calls.answer(call);
    return { body: calls.view(call) };
  });
  ctx.admin.post('/outbound/calls/:callSid/hangup', (req) => {
    const call = adminCall(req);
    calls.hangUp(call);
    return { body: calls.view(call) };
  });

  return { name: 'outbound', base: 'runtime', router };
}

/** OUT-7: the token must belong to a connector configured for outbound calling. */
function requireOutboundConnector(platform: Platform, req: RequestContext): StoredConnector {
  const token = req.header('x-service-auth-token');
  if (!token) throw runtimeError(401, 'Missing X-Service-Auth-Token header');
  const connector = platform.state.connectors.find((c) => c.token === token);
  if (!connector) throw runtimeError(401, 'Invalid auth token');
  if (!connector.outboundEnabled) throw runtimeError(401, 'This connector is not configured for outbound calling');
  return connector;
}
