import type { WebSocket } from 'ws';
import { DemoRandom } from '../conversations/demoConversation';
import type { MessagingChaos } from '../faults';
import type { Platform } from '../platform';
import type { SocketHub } from './socketHub';

/** How many drops and delays a session's chaos has made so far. */
export interface ChaosTally {
  drops: number;
  delays: number;
}

const DEFAULT_RATE = 0.3;
const DEFAULT_DROP_SHARE = 0.5;
const DEFAULT_MAX_DELAY_MS = 400;

/**
 * The `chaos` faults of the messaging family: before each piece of a streamed answer, and for each message of the
 * client's that arrives while one streams, a seeded draw decides whether the session's sockets are dropped, held for
 * a while, or left alone. Each fault draws from a generator of its own
 * seed, so a run that makes the same calls makes the same choices; only a session with an open socket is drawn for.
 */
export class StreamChaos {
  private readonly randoms = new WeakMap<MessagingChaos, DemoRandom>();
  private readonly tallies = new Map<string, ChaosTally>();
  /** Sessions whose answer streams now, with how many answers. */
  private readonly streaming = new Map<string, number>();

  constructor(
    private readonly platform: Platform,
    private readonly hub: SocketHub,
  ) {}

  /** Called before a piece of a streamed answer goes out to the session's sockets. */
  beforePiece(sessionId: string): void {
    const choice = this.draw(sessionId);
    if (choice === 'drop') this.hub.terminate(sessionId);
    else if (choice) this.hub.hold(sessionId, choice.delayMs);
  }

  /**
   * Called for a message of the client's that arrives while an answer of its session streams: true when the chaos
   * took it, lost with a dropped socket, or held with the socket until the delay ends (then handled as it comes).
   */
  onClientMessage(sessionId: string, ws: WebSocket, text: string): boolean {
    if (!this.streaming.has(sessionId)) return false;
    const choice = this.draw(sessionId);
    if (!choice) return false;
    if (choice === 'drop') this.hub.terminate(sessionId);
    else {
      this.hub.hold(sessionId, choice.delayMs);
      this.hub.holdIncoming(ws, text);
    }
    return true;
  }

  /** An answer of the session starts or stops streaming (several may overlap). */
  streams(sessionId: string, on: boolean): void {
    const n = (this.streaming.get(sessionId) ?? 0) + (on ? 1 : -1);
    if (n > 0) this.streaming.set(sessionId, n);
    else this.streaming.delete(sessionId);
  }

  /** A drop, a delay, or nothing, as the session's chaos faults draw it; only a session with an open socket draws. */
  private draw(sessionId: string): 'drop' | { delayMs: number } | undefined {
    if (!this.hub.sessionIds().includes(sessionId)) return undefined;
    let drop = false;
    let delayMs = 0;
    const fault = this.platform.faults.take('messaging', 'WS', `/ws/${sessionId}`, (f) => {
      if (!f.chaos) return false;
      const random = this.randomOf(f.chaos);
      if (!random.chance(f.chaos.rate ?? DEFAULT_RATE)) return false;
      drop = random.chance(f.chaos.dropShare ?? DEFAULT_DROP_SHARE);
      delayMs = random.int(1, Math.max(1, f.chaos.maxDelayMs ?? DEFAULT_MAX_DELAY_MS));
      return true;
    });
    if (!fault) return undefined;
    let tally = this.tallies.get(sessionId);
    if (!tally) this.tallies.set(sessionId, (tally = { drops: 0, delays: 0 }));
    if (drop) tally.drops += 1;
    else tally.delays += 1;
    return drop ? 'drop' : { delayMs };
  }

  /** The drops and delays made in a session so far (zero for a session no chaos has touched). */
  tallyOf(sessionId: string): ChaosTally {
    return { ...(this.tallies.get(sessionId) ?? { drops: 0, delays: 0 }) };
  }

  clear(): void {
    this.tallies.clear();
    this.streaming.clear();
  }

  /** The generator of one fault, kept with its chaos object (the fault's own, for as long as it is listed). */
  private randomOf(chaos: MessagingChaos): DemoRandom {
    let random = this.randoms.get(chaos);
    if (!random) {
      random = new DemoRandom(chaos.seed);
      this.randoms.set(chaos, random);
    }
    return random;
  }
}
