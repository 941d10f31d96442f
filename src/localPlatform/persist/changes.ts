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

/**
 * The state as last saved, in its shape: a split object has a child per key, a unit its JSON text and
 * that text parsed (to compare with). `seen` is the last pass that met the node.
 */
interface Node {
  unit?: { text: string; saved: unknown };
  children?: Map<string, Node>;
  seen: number;
}

/** What one pass over the state found: journal changes, and what to record once they are written. */
interface Found {
  readonly changes: string[];
  readonly deletes: string[];
  readonly record: Array<() => void>;
}

/**
 * Finds what changed in the state since the last save, as journal changes. Every part of the state
 * is compared with what was saved, except the conversations: there are many, they only grow, and every
 * change of one is announced (Platform.conversationChanged), so only new and announced ones are read.
 *
 * The comparison runs before every acknowledged write, so a pass builds nothing for what did not
 * change: it walks the state and the saved tree side by side, compares each unit value by value with
 * its saved copy, and writes out as text only a unit that differs there (the text decides).
 */
export class ChangeTracker {
  private root: Node = { seen: 0 };
  private pass = 0;
  private conversations = new Map<string, string>();
  private conversationCount = 0;
  private readonly announced = new Set<StoredConversation>();

  /** Takes the state as saved in full (loaded or just written as a snapshot). */
  rebase(state: PlatformState): void {
    this.root = { seen: 0 };
    for (const record of this.diff(state).record) record();
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
    const found = this.diff(state);
    // Removed before set: a map that became a single value is deleted, then written whole.
    const changes = [...found.deletes.map((path) => `{"d":${path}}`), ...found.changes];
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
        for (const record of found.record) record();
        for (const [id, text] of texts) this.conversations.set(id, text);
        this.conversationCount = list.length;
        this.announced.clear();
      },
    };
  }

  /** One pass over the state beside the saved tree; the tree changes only when `record` is called. */
  private diff(state: PlatformState): Found {
    // A new mark each pass, saved or not, so a node met by a pass whose save failed is still missed by the next.
    const pass = ++this.pass;
    const found: Found = { changes: [], deletes: [], record: [] };
    const path: string[] = [];
    const visit = (value: unknown, depth: number, node: Node | undefined): void => {
      if (value === undefined) return;
      if (node) node.seen = pass;
      if (shouldSplit(value, depth)) {
        if (node?.unit) {
          found.deletes.push(JSON.stringify(path));
          found.record.push(() => (node.unit = undefined));
        }
        const children = node?.children;
        let met = 0;
        for (const k in value) {
          if (!Object.hasOwn(value, k) || (depth === 0 && k === 'conversations')) continue;
          const child = children?.get(k);
          path.push(k);
          visit(value[k], depth + 1, child);
          path.pop();
          if (child?.seen === pass) met++;
        }
        if (children && met < children.size) this.gone(children, pass, path, found);
        return;
      }
      if (node?.children) {
        this.gone(node.children, pass, path, found);
        found.record.push(() => (node.children = undefined));
      }
      if (node?.unit && sameAsJson(value, node.unit.saved)) return;
      const text = JSON.stringify(value);
      if (node?.unit?.text === text) return;
      found.changes.push(`{"s":${JSON.stringify(path)},"v":${text}}`);
      const at = [...path];
      found.record.push(() => (this.nodeAt(at, pass).unit = { text, saved: JSON.parse(text) as unknown }));
    };
    visit(state, 0, this.root);
    return found;
  }

  /** The children not met by this pass are gone: each unit below them is deleted. */
  private gone(children: Map<string, Node>, pass: number, path: string[], found: Found): void {
    const units = (node: Node): void => {
      if (node.unit) found.deletes.push(JSON.stringify(path));
      for (const [k, child] of node.children ?? []) {
        path.push(k);
        units(child);
        path.pop();
      }
    };
    for (const [k, child] of children) {
      if (child.seen === pass) continue;
      path.push(k);
      units(child);
      path.pop();
      found.record.push(() => children.delete(k));
    }
  }

  /** The saved tree's node at `path`, made (as met by `pass`) where missing. */
  private nodeAt(path: readonly string[], pass: number): Node {
    let node = this.root;
    for (const k of path) {
      node.children ??= new Map();
      let child = node.children.get(k);
      if (!child) {
        child = { seen: pass };
        node.children.set(k, child);
      }
      node = child;
    }
    return node;
  }
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
