import type { IDisposable } from '../../core/disposable';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';

/**
 * The JSON text of rendered records of finished conversations, per rendering (version and
 * settings), so paging through big pages does not render and serialize the same records again.
 * A conversation's entries are dropped when the platform reports it changed; conversations in
 * progress are never kept (their running duration changes with the clock).
 */
export class RecordJsonCache implements IDisposable {
  private entries = new WeakMap<StoredConversation, Map<string, string>>();
  private readonly subscriptions: IDisposable[];

  constructor(platform: Platform) {
    this.subscriptions = [
      platform.onDidChangeConversation((conv) => this.entries.delete(conv)),
      platform.onDidReset(() => {
        this.entries = new WeakMap();
      }),
    ];
  }

  /** The record's JSON for `rendering` (a key naming version and settings), rendered on a miss. */
  json(conv: StoredConversation, rendering: string, render: () => unknown): string {
    if (conv.in_progress) return JSON.stringify(render());
    // The turn count and end time guard against changes made without a change event.
    const key = `${rendering}|${conv.turns.length}|${conv.ended_at ?? ''}`;
    let byRendering = this.entries.get(conv);
    if (!byRendering) {
      byRendering = new Map();
      this.entries.set(conv, byRendering);
    }
    let text = byRendering.get(key);
    if (text === undefined) {
      text = JSON.stringify(render());
      byRendering.set(key, text);
    }
    return text;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.entries = new WeakMap();
  }
}
