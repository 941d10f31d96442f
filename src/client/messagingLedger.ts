import type { IDisposable } from '../core/disposable';
import { Emitter, type Event } from '../core/event';

/**
 * Where a message the person sent stands: `queued` until written to a connection, `written` until the platform
 * shows it has it, `delivered` once it has (its echo, or an answer after it), `unconfirmed` when that did not
 * come and it may be lost, `replaced` once the person sent it again, `failed` when it could not be written.
 */
export type DeliveryState = 'queued' | 'written' | 'delivered' | 'unconfirmed' | 'replaced' | 'failed';

/** One message the person sent, as this session knows of it (told each time it changes). */
export interface Delivery {
  readonly id: string;
  readonly text: string;
  readonly custom?: Record<string, unknown>;
  readonly state: DeliveryState;
  /** Delivered: by its echo, or by an answer that came after it. */
  readonly confirmedBy?: 'echo' | 'answer';
  /** Delivered by an echo: that event's id (the echo is this message, not another line). */
  readonly echoId?: string;
  /** Unconfirmed: the connection it was written on was lost, or nothing came back on an open one. */
  readonly doubt?: 'reconnected' | 'quiet';
  /** The platform had echoed a message in this session when this state was reported: a missing echo means something. */
  readonly echoKnown: boolean;
  /** How many times the session wrote it again by itself (after a lost connection, or at the platform's word). */
  readonly rewrites: number;
  readonly error?: unknown;
}

export interface LedgerOptions {
  /** On an open connection, how long a message may wait for its echo when the platform is known to echo (5 s). */
  echoWaitMs?: number;
  /** On an open connection, how long a message may wait for an answer when the platform is not known to echo (15 s). */
  answerWaitMs?: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
interface Entry extends Mutable<Omit<Delivery, 'echoKnown'>> {
  /** The connection it was last written on. */
  writtenOn?: object;
  timer?: ReturnType<typeof setTimeout>;
}

const PENDING: ReadonlySet<DeliveryState> = new Set(['queued', 'written', 'unconfirmed']);

/**
 * The one ledger of what the person sent in a messaging session. The platform shows that it has a message only by
 * echoing it (not in the spec) or by answering after it, so a message counts as delivered on either. Nothing is
 * written again on a guess: only when the platform is known to echo (it echoed one in this session) is a message
 * missing from the history after a reconnect written again; otherwise it is marked unconfirmed, for the person to
 * send again.
 */
export class DeliveryLedger implements IDisposable {
  private readonly entries = new Map<string, Entry>();
  private readonly _onChange = new Emitter<Delivery>();
  private sequence = 0;
  private last: Entry | undefined;
  /** The platform echoed a message in this session: an echo is evidence here, and its absence too. */
  echoKnown = false;
  /** Each change of a message's state. */
  readonly onChange: Event<Delivery> = this._onChange.event;

  constructor(
    /** Whether a connection is the one open now. */
    private readonly isCurrent: (connection: object) => boolean,
    private readonly options: LedgerOptions = {},
  ) {}

  get(id: string): Delivery | undefined {
    const e = this.entries.get(id);
    return e && this.view(e);
  }

  /** A new message, waiting to be written. */
  add(text: string, custom?: Record<string, unknown>): Delivery {
    const entry: Entry = {
      id: `m${(this.sequence += 1)}`,
      text,
      ...(custom ? { custom } : {}),
      state: 'queued',
      rewrites: 0,
    };
    this.entries.set(entry.id, entry);
    this.last = entry;
    return this.change(entry);
  }

  /** Written to `connection`: from now on its echo or an answer is waited for, but not for ever. */
  written(id: string, connection: object): void {
    const e = this.entries.get(id);
    if (!e || e.state !== 'queued') return;
    e.writtenOn = connection;
    this.setState(e, 'written');
    this.arm(e);
  }

  failed(id: string, error: unknown): void {
    const e = this.entries.get(id);
    if (!e || e.state !== 'queued') return;
    e.error = error;
    this.setState(e, 'failed');
  }

  /** The platform echoed a message: the oldest waiting one with that text is delivered. */
  echoed(text: string, eventId: string): void {
    this.echoKnown = true;
    const e = this.oldest((x) => x.text === text);
    if (!e) return;
    e.confirmedBy = 'echo';
    e.echoId = eventId;
    this.setState(e, 'delivered');
  }

  /**
   * The platform answered: the oldest message written before it is delivered. Where the platform echoes, only
   * echoes count, since an answer to one message may follow the writing of the next. A message already in doubt
   * is taken only when none waits that was written since: an answer after a newer message is that one's, and
   * giving it to an older one the platform may never have had would show that one delivered and this one not.
   */
  answered(): void {
    if (this.echoKnown) return;
    const e = this.oldest((x) => x.state === 'written') ?? this.oldest((x) => x.state === 'unconfirmed');
    if (!e) return;
    e.confirmedBy = 'answer';
    this.setState(e, 'delivered');
  }

  /**
   * After a reconnect's history: the messages written on a connection that is gone and not shown to have arrived.
   * Where the platform is known to echo they are returned, queued to be written again; otherwise they are marked
   * unconfirmed and nothing is returned.
   */
  lost(): Delivery[] {
    const lost = [...this.entries.values()].filter(
      (e) => e.state === 'written' && e.writtenOn !== undefined && !this.isCurrent(e.writtenOn),
    );
    if (!this.echoKnown) {
      for (const e of lost) this.doubt(e, 'reconnected');
      return [];
    }
    return lost.map((e) => this.rewrite(e));
  }

  /**
   * The last message again, as a message of its own, at the platform's word (its error table says to re-send it):
   * the platform may have it already, and then has it twice, as the conversation will show. The last one is no
   * longer waited for. Undefined when it is still waiting to be written (it goes out once anyway).
   */
  repeatLast(): Delivery | undefined {
    const last = this.last;
    if (!last || last.state === 'queued') return undefined;
    if (PENDING.has(last.state)) this.setState(last, 'replaced');
    return this.add(last.text, last.custom);
  }

  /** The person sends a message again: the old one is no longer waited for. Returns it, or undefined when delivered. */
  replace(id: string): Delivery | undefined {
    const e = this.entries.get(id);
    if (!e || (e.state !== 'unconfirmed' && e.state !== 'failed')) return undefined;
    this.setState(e, 'replaced');
    return this.view(e);
  }

  dispose(): void {
    for (const e of this.entries.values()) clearTimeout(e.timer);
    this._onChange.dispose();
  }

  private rewrite(e: Entry): Delivery {
    e.rewrites += 1;
    delete e.doubt;
    delete e.writtenOn;
    return this.setState(e, 'queued');
  }

  private oldest(match: (e: Entry) => boolean): Entry | undefined {
    for (const e of this.entries.values()) if (PENDING.has(e.state) && match(e)) return e;
    return undefined;
  }

  /**
   * Still written and not shown to have arrived on the open connection after the echo's wait (where the platform
   * echoes; the echo may become known meanwhile) or the answer's: in doubt. On a lost connection `lost` decides.
   */
  private arm(e: Entry): void {
    const echoWait = this.options.echoWaitMs ?? 5_000;
    const answerWait = Math.max(echoWait, this.options.answerWaitMs ?? 15_000);
    const check = (waited: number): void => {
      if (e.state !== 'written' || !e.writtenOn || !this.isCurrent(e.writtenOn)) return;
      if (this.echoKnown || waited >= answerWait) return this.doubt(e, 'quiet');
      e.timer = setTimeout(() => check(answerWait), answerWait - waited);
      e.timer.unref?.();
    };
    clearTimeout(e.timer);
    e.timer = setTimeout(() => check(echoWait), echoWait);
    e.timer.unref?.();
  }

  private doubt(e: Entry, why: 'reconnected' | 'quiet'): void {
    e.doubt = why;
    this.setState(e, 'unconfirmed');
  }

  private setState(e: Entry, state: DeliveryState): Delivery {
    e.state = state;
    if (state !== 'written') clearTimeout(e.timer);
    // Settled messages are kept only as the last one (for a re-send the platform asks for); a failed one stays,
    // for the person to send again.
    if (state === 'delivered' || state === 'replaced') this.entries.delete(e.id);
    if (state === 'queued') this.entries.set(e.id, e);
    return this.change(e);
  }

  private change(e: Entry): Delivery {
    const d = this.view(e);
    this._onChange.fire(d);
    return d;
  }

  private view(e: Entry): Delivery {
    const { writtenOn: _w, timer: _t, ...rest } = e;
    return { ...rest, echoKnown: this.echoKnown };
  }
}
