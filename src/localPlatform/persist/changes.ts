import type { PlatformState, StoredConversation } from '../state';

/** A path into the state, such as `['agents', 'branches', 'ag_000001']`. */
export type StatePath = readonly string[];

/** One change in the journal: set a value, delete one, or put a conversation (by id, in order). */
export type Change = { s: StatePath; v: unknown } | { d: StatePath } | { c: StoredConversation };

/**
 * Which objects are split into their entries, so a change rewrites one agent, branch, session or
 * counter rather than a whole section: the top two levels (sections and their parts), and below
 * them maps of records (every value an object), down to `families.messaging.sessions.<id>`.
 */
const SPLIT_ALWAYS_BELOW = 3;
const SPLIT_MAPS_BELOW = 4;

interface Unit {
  readonly path: StatePath;
  readonly text: string;
}

/**
 * Finds what changed in the state since the last save, as journal changes. Every part of the state
 * is compared by its JSON text, except the conversations: there are many, they only grow, and every
 * change of one is announced (Platform.conversationChanged), so only new and announced ones are read.
 */
export class ChangeTracker {
  private units = new Map<string, Unit>();
  private conversations = new Map<string, string>();
  private conversationCount = 0;
  private readonly announced = new Set<StoredConversation>();

  /** Takes the state as saved in full (loaded or just written as a snapshot). */
  rebase(state: PlatformState): void {
    this.units = collectUnits(state);
    this.conversations = new Map(state.conversations.map((c) => [c.id, JSON.stringify(c)]));
    this.conversationCount = state.conversations.length;
    this.announced.clear();
  }

  announce(conversation: StoredConversation): void {
    this.announced.add(conversation);
  }

  /**
   * The changes since the last save, each as JSON text (a {@link Change}), and a function that
   * records them as saved. Undefined when only a full snapshot can express them (conversations
   * were removed).
   */
  changes(state: PlatformState): { changes: string[]; saved(): void } | undefined {
    const list = state.conversations;
    if (list.length < this.conversationCount) return undefined;
    const units = collectUnits(state);
    const changes: string[] = [];
    for (const [key, unit] of this.units) if (!units.has(key)) changes.push(`{"d":${JSON.stringify(unit.path)}}`);
    for (const [key, unit] of units)
      if (this.units.get(key)?.text !== unit.text) changes.push(`{"s":${JSON.stringify(unit.path)},"v":${unit.text}}`);
    const texts = new Map<string, string>();
    const consider = (c: StoredConversation): void => {
      if (texts.has(c.id)) return;
      const text = JSON.stringify(c);
      if (this.conversations.get(c.id) === text) return;
      texts.set(c.id, text);
      changes.push(`{"c":${text}}`);
    };
    for (let i = this.conversationCount; i < list.length; i++) consider(list[i]!);
    for (const c of this.announced) consider(c);
    return {
      changes,
      saved: () => {
        this.units = units;
        for (const [id, text] of texts) this.conversations.set(id, text);
        this.conversationCount = list.length;
        this.announced.clear();
      },
    };
  }
}

function collectUnits(state: PlatformState): Map<string, Unit> {
  const out = new Map<string, Unit>();
  const visit = (value: unknown, path: string[], key: string): void => {
    if (shouldSplit(value, path.length)) {
      for (const [k, v] of Object.entries(value)) {
        if (path.length === 0 && k === 'conversations') continue;
        visit(v, [...path, k], `${key}\u0000${k}`);
      }
      return;
    }
    if (value === undefined) return;
    out.set(key, { path, text: JSON.stringify(value) });
  };
  visit(state, [], '');
  return out;
}

function shouldSplit(value: unknown, depth: number): value is Record<string, unknown> {
  if (!isPlainObject(value) || depth >= SPLIT_MAPS_BELOW) return false;
  const values = Object.values(value);
  if (values.length === 0) return false;
  return depth < SPLIT_ALWAYS_BELOW || values.every(isPlainObject);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies journal changes to a loaded state, in order. */
export function applyChanges(state: PlatformState, changes: readonly Change[]): void {
  let index: Map<string, number> | undefined;
  for (const change of changes) {
    if ('c' in change) {
      index ??= new Map(state.conversations.map((c, i) => [c.id, i]));
      const at = index.get(change.c.id);
      if (at === undefined) {
        index.set(change.c.id, state.conversations.length);
        state.conversations.push(change.c);
      } else {
        state.conversations[at] = change.c;
      }
    } else if ('s' in change) {
      const parent = parentOf(state, change.s, true)!;
      // defineProperty, so a key such as `__proto__` stays a plain key.
      Object.defineProperty(parent, change.s[change.s.length - 1]!, {
        value: change.v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      const parent = parentOf(state, change.d, false);
      if (parent) Reflect.deleteProperty(parent, change.d[change.d.length - 1]!);
    }
  }
}

function parentOf(state: PlatformState, path: StatePath, create: boolean): Record<string, unknown> | undefined {
  let cur = state as unknown as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    let next = Object.hasOwn(cur, key) ? cur[key] : undefined;
    if (!isPlainObject(next)) {
      if (!create) return undefined;
      next = {};
      Object.defineProperty(cur, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    cur = next as Record<string, unknown>;
  }
  return cur;
}
