import { z } from 'zod';
import { extra, runtimeErrorBodySchema } from './common';

/** DNI API ({base_url}): reserve a temporary number that routes to an agent with attributes. */

export const DNI_RESERVATION_PATH = '/v1/conversations/dni-reservation';
/** The credential header: a key tied to one agent. */
export const DNI_AUTH_HEADER = 'x-api-key';

/** How long a reserved number routes to the agent (spec: not shown; our choice). */
export const DNI_RESERVATION_TTL_MS = 15 * 60 * 1000;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Request body (DNI-2): `attributes` is a required object of any JSON shape and size (bounds: not shown). */
export const dniReservationRequestSchema = z.object({
  attributes: z.custom<Record<string, unknown>>((v) => isPlainObject(v), {
    error: (iss) => (iss.input === undefined ? 'is required' : 'must be an object (key to value mapping)'),
  }),
});
export type DniReservationRequest = z.infer<typeof dniReservationRequestSchema>;

/** Reply (DNI-3): the reserved number, E.164. `expires_at` is ours and optional. */
export const dniReservationReplySchema = z.looseObject({
  dni: z.string().min(1),
  expires_at: extra(z.string()),
});
export type DniReservationReply = z.infer<typeof dniReservationReplySchema>;

/** Error body of the DNI API (spec: not shown): `error_message`, plus `field` when one field is at fault. */
export const dniErrorBodySchema = runtimeErrorBodySchema.extend({ field: z.string().optional() });
export type DniErrorBody = z.infer<typeof dniErrorBodySchema>;

/** Where the call's conversation keeps the reservation's attributes. */
export const DNI_ATTRIBUTES_STATE_KEY = 'dni_attributes';
