import type { L10n } from '../../common/l10n';
import type {
  ChatLine,
  ChatNotification,
  ChatSettings,
  ChatSnapshot,
  ChatStatus,
  InspectorEntry,
} from '../../../protocol/chat';

/** The inspector keeps this many events in memory; a saved conversation holds the same. */
const INSPECTOR_KEEP = 5_000;
/** The webview is sent the newest events only when it (re)loads; the rest are in the saved file. */
const INSPECTOR_IN_SNAPSHOT = 300;

/**
 * The conversation as the panel shows it: lines (in the order they happened), the inspector's
 * events, and the status. Every change is handed to `sink` as the notification the webview
 * applies; `snapshot()` is the whole of it for a webview that (re)loads, and for a saved file.
 * Knows nothing of the platform: the session adapters translate into it.
 */
export class ChatTranscript {
  private lines: ChatLine[] = [];
  private readonly index = new Map<string, number>();
  private inspector: InspectorEntry[] = [];
  private current: ChatStatus;
  private seq = 0;
  private rev = 0;
  private nextLocal = 1;
  /** When the person's last message was sent (performance.now), until the first answer to it. */
  private turnStarted: number | undefined;

  constructor(
    l10n: L10n,
    public settings: ChatSettings,
    private readonly sink: (n: ChatNotification) => void,
    restored?: ChatSnapshot,
  ) {
    this.current = { state: 'idle', text: l10n.t('Not started'), agentTyping: false, canSend: false };
    if (restored) {
      restored.lines.forEach((l) => this.put(l));
      this.inspector = restored.inspector.slice(-INSPECTOR_KEEP);
      this.seq = restored.inspector.at(-1)?.seq ?? 0;
      this.current = restored.status;
    }
  }

  get status(): ChatStatus {
    return this.current;
  }

  /** The lines so far (read-only view). */
  get all(): readonly ChatLine[] {
    return this.lines;
  }

  line(id: string): ChatLine | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.lines[i];
  }

  /** A fresh id for a line made here (notices, pending messages, Chat API turns). */
  localId(prefix = 'local'): string {
    return `${prefix}-${this.nextLocal++}`;
  }

  /** Adds a line, or replaces the line with the same id (a streamed answer growing). */
  upsert(line: ChatLine): void {
    this.put(line);
    this.sink({ type: 'line', line, rev: ++this.rev });
  }

  /** Removes nothing and reorders nothing: lines only grow or change in place, so the order is the order of arrival. */
  private put(line: ChatLine): void {
    const i = this.index.get(line.id);
    if (i === undefined) {
      this.index.set(line.id, this.lines.length);
      this.lines.push(line);
    } else {
      this.lines[i] = line;
    }
  }

  /** A note from the client itself (reconnected, joined, ended), as a line. */
  notice(text: string, extra: Partial<ChatLine> = {}): ChatLine {
    const line: ChatLine = {
      id: this.localId('notice'),
      role: 'notice',
      text,
      time: new Date().toISOString(),
      ...extra,
    };
    this.upsert(line);
    return line;
  }

  /** The person sent something: the clock of the turn's latency starts. */
  startTurn(): void {
    this.turnStarted = performance.now();
  }

  /** The first answer of a turn: how long it took, once per turn. */
  takeLatency(): number | undefined {
    if (this.turnStarted === undefined) return undefined;
    const ms = Math.round(performance.now() - this.turnStarted);
    this.turnStarted = undefined;
    return ms;
  }

  /** Adds an event to the inspector: what crossed the wire, as JSON, with the time it did. */
  inspect(
    direction: InspectorEntry['direction'],
    label: string,
    body: unknown,
    extra: { latencyMs?: number; unrecognized?: boolean } = {},
  ): void {
    const entry: InspectorEntry = {
      seq: ++this.seq,
      time: new Date().toISOString(),
      direction,
      label,
      json: toJson(body),
      ...definedOnly(extra),
    };
    this.inspector.push(entry);
    if (this.inspector.length > INSPECTOR_KEEP) this.inspector.splice(0, this.inspector.length - INSPECTOR_KEEP);
    this.sink({ type: 'inspector', entry });
  }

  setStatus(patch: Partial<ChatStatus>): void {
    this.current = { ...this.current, ...patch };
    this.sink({ type: 'status', status: this.current });
  }

  snapshot(inspectorLimit = INSPECTOR_IN_SNAPSHOT): ChatSnapshot {
    return {
      settings: this.settings,
      lines: [...this.lines],
      inspector: this.inspector.slice(-inspectorLimit),
      status: this.current,
    };
  }
}

function toJson(body: unknown): string {
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body, null, 2) ?? String(body);
  } catch {
    return String(body);
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
