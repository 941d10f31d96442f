import { DNI_RESERVATION_TTL_MS } from '../../contract/dni';
import type { Platform } from '../platform';

/** The local platform's DNI pool: +1 415 555 0200 to +1 415 555 0299 (fictional 555-02xx numbers). */
export const DNI_POOL: readonly string[] = Array.from(
  { length: 100 },
  (_, n) => `+141555502${String(n).padStart(2, '0')}`,
);

export interface DniReservation {
  dni: string;
  agent_id: string;
  account_id: string;
  project_id: string | null;
  attributes: Record<string, unknown>;
  reserved_at: string;
  expires_at: string;
}

interface DniSection {
  reservations: DniReservation[];
}

/** Reservations live in `state.families.dni`; expiry follows the platform clock. */
export class DniPool {
  constructor(private readonly platform: Platform) {}

  private get section(): DniSection {
    return this.platform.section<DniSection>('dni', () => ({ reservations: [] }));
  }

  /** Active reservations, after dropping those past their time. */
  active(): DniReservation[] {
    const now = this.platform.clock.now();
    const s = this.section;
    s.reservations = s.reservations.filter((r) => Date.parse(r.expires_at) > now);
    return s.reservations;
  }

  /** Reserves the lowest free number, or says when the next one frees up. */
  reserve(
    req: Omit<DniReservation, 'dni' | 'reserved_at' | 'expires_at'>,
  ): { reservation: DniReservation } | { retryAfterMs: number } {
    const active = this.active();
    const taken = new Set(active.map((r) => r.dni));
    const dni = DNI_POOL.find((n) => !taken.has(n));
    const now = this.platform.clock.now();
    if (!dni) {
      const soonest = Math.min(...active.map((r) => Date.parse(r.expires_at)));
      return { retryAfterMs: Math.max(0, soonest - now) };
    }
    const reservation: DniReservation = {
      ...req,
      dni,
      reserved_at: new Date(now).toISOString(),
      expires_at: new Date(now + DNI_RESERVATION_TTL_MS).toISOString(),
    };
    active.push(reservation);
    return { reservation };
  }

  /** The reservation a call to this number routes by; the number returns to the pool. */
  takeForCall(dni: string): DniReservation | undefined {
    const active = this.active();
    const i = active.findIndex((r) => r.dni === dni);
    if (i < 0) return undefined;
    return active.splice(i, 1)[0];
  }

  /** Puts back a reservation whose call could not start. */
  restore(reservation: DniReservation): void {
    if (!this.active().some((r) => r.dni === reservation.dni)) this.section.reservations.push(reservation);
  }
}
