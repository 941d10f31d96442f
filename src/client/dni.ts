import {
  DNI_AUTH_HEADER,
  DNI_RESERVATION_PATH,
  type DniReservationReply,
  dniReservationReplySchema,
  dniReservationRequestSchema,
} from '../contract/dni';
import type { ClientContext } from './context';
import { validateInput } from './validate';

/** DNI API: reserves a temporary number that routes to the key's agent with attributes. */
export class DniClient {
  constructor(private readonly ctx: ClientContext) {}

  async reserve(attributes: Record<string, unknown>, signal?: AbortSignal): Promise<DniReservationReply> {
    const operation = 'Reserve a number';
    const body = validateInput(dniReservationRequestSchema, { attributes }, 'dni', operation);
    const key = await this.ctx.credential('dniApiKey', 'dni', operation);
    const res = await this.ctx.transport.request({
      family: 'dni',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'POST',
      path: DNI_RESERVATION_PATH,
      headers: { [DNI_AUTH_HEADER]: key },
      body,
      schema: dniReservationReplySchema,
      retry: 'never',
      signal,
    });
    return res.body;
  }
}
