import { jsonBytes, LOCAL_LIMITS, overLocalLimit } from '../ownLimits';
import {
  DNI_ATTRIBUTES_STATE_KEY,
  DNI_RESERVATION_PATH,
  type DniErrorBody,
  dniReservationRequestSchema,
  type DniReservationReply,
} from '../../contract/dni';
import type { DniCallReply, DniReservationsReply } from '../adminApi';
import { engineOf } from '../engine/agentEngine';
import type { Family, FamilyContext } from '../family';
import { buildError, HttpError, Router, runtimeError } from '../http';
import { DniPool } from './pool';
import { requireJsonContentType } from '../jsonBody';

/** DNI API (DNI-1..DNI-3) plus `/_local/dni/...`: a simulated call on a reserved number. */
export function createDniFamily(ctx: FamilyContext): Family {
  const { platform } = ctx;
  const pool = new DniPool(platform);
  const router = new Router();

  router.post(DNI_RESERVATION_PATH, (req) => {
    const value = req.header('x-api-key');
    const key = platform.findKey('dni', value);
    if (!key) throw runtimeError(401, value ? 'Invalid API key' : 'Missing API key: send it in the x-api-key header');
    if (!key.agentId) throw runtimeError(401, 'This key is not tied to an agent');
    const agent = platform.state.agents.agents[key.agentId];
    if (!agent) throw runtimeError(404, `The agent of this key no longer exists: ${key.agentId}`);
    requireJsonContentType(req.raw, (message) => runtimeError(415, message));
    const body = req.json(() => runtimeError(400, 'The request body is not valid JSON', 'body'));
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw runtimeError(400, 'The request body must be a JSON object', 'body');
    const parsed = dniReservationRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.') || 'attributes';
      throw runtimeError(400, `${field}: ${issue.message}`, field);
    }
    if (jsonBytes(parsed.data.attributes) > LOCAL_LIMITS.dniAttributesBytes) {
      const max = overLocalLimit(LOCAL_LIMITS.dniAttributesBytes, 'bytes of JSON');
      throw runtimeError(400, `attributes: ${max}`, 'attributes');
    }
    const result = pool.reserve({
      agent_id: agent.agentId,
      account_id: key.accountId,
      project_id: key.projectId ?? null,
      attributes: parsed.data.attributes,
    });
    if ('retryAfterMs' in result) {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new HttpError(
        503,
        { error_message: `No DNI number is free; the next frees up in ${seconds} s` } satisfies DniErrorBody,
        { 'retry-after': String(seconds) },
      );
    }
    const reply: DniReservationReply = { dni: result.reservation.dni, expires_at: result.reservation.expires_at };
    return { status: 200, body: reply };
  });

  ctx.admin.get('/dni/reservations', () => ({ body: { reservations: pool.active() } satisfies DniReservationsReply }));
  // A call arriving on a reserved number (DNI-3): the agent starts with the reservation's attributes.
  ctx.admin.post('/dni/:number/call', (req) => {
    const number = req
      .param('number')
      .trim()
      .replace(/^(?!\+)/, '+');
    const body = (req.json() ?? {}) as { from_number?: unknown };
    const from = typeof body.from_number === 'string' ? body.from_number : null;
    const reservation = pool.takeForCall(number);
    if (!reservation) throw buildError(404, `No active DNI reservation for ${number}`);
    try {
      const { conversation, greeting } = engineOf(platform).start({
        agentId: reservation.agent_id,
        accountId: reservation.account_id,
        projectId: reservation.project_id ?? undefined,
        environment: 'live',
        channel: 'VOICE-SIP',
        source: 'dni',
        fromNumber: from,
        toNumber: reservation.dni,
        state: {
          from_: from,
          to: reservation.dni,
          dni: reservation.dni,
          [DNI_ATTRIBUTES_STATE_KEY]: structuredClone(reservation.attributes),
        },
      });
      return {
        status: 201,
        body: {
          conversation_id: conversation.id,
          agent_id: reservation.agent_id,
          greeting,
          attributes: reservation.attributes,
        } satisfies DniCallReply,
      };
    } catch (err) {
      pool.restore(reservation);
      throw err;
    }
  });

  return { name: 'dni', base: 'runtime', router };
}
