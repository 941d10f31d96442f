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

/** A unit as last saved: its JSON text, that text parsed (to compare with), and the pass that last met it. */
interface Unit {
  text: string;
  saved: unknown;
  seen: number;
}

/** Separates the keys of a unit's path in its map key (a key of the state never holds it). */
const SEP = '\u0000';

/**
 * Finds what changed in the state since the last save, as journal changes. Every part of the state
 * is compared by its JSON text, except the conversations: there are many, they only grow, and every
 * change of one is announced (Platform.conversationChanged), so only new and announced ones are read.
 *
 * The comparison runs before every acknowledged write, so it is kept to one pass over the state that
 * builds nothing for a unit that did not change: each is compared, value by value, with its saved text
 * parsed, and only one that differs there is written out as text (and compared as text, which decides).
 * No path arrays or new maps per save; the saved units are updated in place once the changes are written.
 */
export class ChangeTracker {
  private units = new Map<string, Unit>();
  private pass = 0;
  private conversations = new Map<string, string>();
  private conversationCount = 0;
  private readonly announced = new Set<StoredConversation>();

  /** Takes the state as saved in full (loaded or just written as a snapshot). */
  rebase(state: PlatformState): void {
    this.units = new Map();
    this.pass = 0;
    walkUnits(state, (key, value) => {
      const text = JSON.stringify(value);
      this.units.set(key, { text, saved: JSON.parse(text), seen: 0 });
    });
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
    // A new mark each pass, saved or not, so a unit met by a pass whose save failed is still missed by the next.
    const pass = ++this.pass;
    const sets: Array<[string, string]> = [];
    const changes: string[] = [];
    let found = 0;
    walkUnits(state, (key, value) => {
      const unit = this.units.get(key);
      if (unit) {
        unit.seen = pass;
        found++;
        if (sameAsJson(value, unit.saved)) return;
      }
      const text = JSON.stringify(value);
      if (unit?.text === text) return;
      sets.push([key, text]);
      changes.push(`{"s":${pathText(key)},"v":${text}}`);
    });
    // Units of the last save that this pass did not meet are gone (only looked for when some are).
    const deletes: string[] = [];
    if (found < this.units.size) {
      for (const [key, unit] of this.units) if (unit.seen !== pass) deletes.push(key);
      // Removed before set: a map that became a unit of its own is deleted, then written whole.
      changes.unshift(...deletes.map((key) => `{"d":${pathText(key)}}`));
    }
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
        for (const key of deletes) this.units.delete(key);
        for (const [key, text] of sets) {
          const unit = this.units.get(key);
          if (unit) {
            unit.text = text;
            unit.saved = JSON.parse(text);
          } else {
            this.units.set(key, { text, saved: JSON.parse(text), seen: pass });
          }
        }
        for (const [id, text] of texts) this.conversations.set(id, text);
        this.conversationCount = list.length;
        this.announced.clear();
      },
    };
  }
}

function pathText(key: string): string {
  return JSON.stringify(key.split(SEP).slice(1));
}

/** Calls `visit` with each unit's key (its path joined, after a leading separator) and value. */
function walkUnits(state: PlatformState, visit: (key: string, value: unknown) => void): void {
  const walk = (value: unknown, depth: number, key: string): void => {
    if (shouldSplit(value, depth)) {
      for (const k in value) {
        if (!Object.hasOwn(value, k) || (depth === 0 && k === 'conversations')) continue;
        walk(value[k], depth + 1, key + SEP + k);
      }
      return;
    }
    if (value === undefined) return;
    visit(key, value);
  };
  walk(state, 0, '');
}

function shouldSplit(value: unknown, depth: number): value is Record<string, unknown> {
  if (!isPlainObject(value) || depth >= SPLIT_MAPS_BELOW) return false;
  let empty = true;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    empty = false;
    if (depth < SPLIT_ALWAYS_BELOW) return true;
    if (!isPlainObject(value[k])) return false;
  }
  return !empty;
}

/**
 * True when `value` is, key for key, what `saved` (parsed JSON, which never holds undefined) holds.
 * Anything JSON would write otherwise (undefined, a Date, NaN, a function) counts as different, for the
 * caller to compare as text; so true means the value's JSON text is the saved one, or differs only in the
 * order of keys. The state is plain JSON data (state.ts): no classes with toJSON of their own.
 */
function sameAsJson(value: unknown, saved: unknown): boolean {
  if (value === saved) return true;
  if (typeof value !== 'object' || value === null || typeof saved !== 'object' || saved === null) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(saved) || value.length !== saved.length) return false;
    for (let i = 0; i < value.length; i++) if (!sameAsJson(value[i], saved[i])) return false;
    return true;
  }
  if (Array.isArray(saved)) return false;
  const record = value as Record<string, unknown>;
  const savedRecord = saved as Record<string, unknown>;
  let keys = 0;
  for (const k in record) {
    keys++;
    const was = savedRecord[k];
    if (was === undefined || !sameAsJson(record[k], was)) return false;
  }
  for (const _key in savedRecord) keys--;
  return keys === 0;
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
