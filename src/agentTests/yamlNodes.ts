import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';

/**
 * A test file's YAML as the checks of parse.ts read it: mappings, lists and scalars with their places
 * (`start` and `end` offsets, the end as the `yaml` library's composer sets it). quickYaml.ts builds these directly for
 * the plain YAML test files are written in; anything else is read by the `yaml` library and brought here by
 * `fromYaml`, so both ways report the same values at the same places.
 */
export type YNode = YScalar | YMap | YSeq | YOther;

interface Placed {
  readonly start: number;
  readonly end: number;
}

export interface YScalar extends Placed {
  readonly kind: 'scalar';
  readonly value: unknown;
}

export interface YPair {
  readonly key: YNode | null;
  readonly value: YNode | null;
}

export interface YMap extends Placed {
  readonly kind: 'map';
  readonly items: readonly YPair[];
  /** The `yaml` library's node, when the library read the file: its `toJSON` makes the plain values. */
  readonly source?: YAMLMap;
}

export interface YSeq extends Placed {
  readonly kind: 'seq';
  readonly items: readonly (YNode | null)[];
}

/** An alias or anything else that is neither a scalar, a mapping nor a list. */
export interface YOther extends Placed {
  readonly kind: 'other';
}

/** The value of the first pair whose key is the scalar `key`, as `YAMLMap.get(key, true)` finds it. */
export function valueOf(map: YMap, key: string): YNode | undefined {
  for (const pair of map.items)
    if (pair.key !== null && pair.key.kind === 'scalar' && pair.key.value === key) return pair.value ?? undefined;
  return undefined;
}

/** A node of the `yaml` library's document as a YNode; mappings keep the library's node for `toJSON`. */
export function fromYaml(node: unknown): YNode | null {
  if (node === null || node === undefined) return null;
  const [start, end] = (node as Node).range ?? [0, 0];
  if (isScalar(node)) return { kind: 'scalar', value: node.value, start, end };
  if (isSeq(node)) return { kind: 'seq', items: node.items.map(fromYaml), start, end };
  if (isMap(node))
    return {
      kind: 'map',
      items: node.items.map((pair) => ({ key: fromYaml(pair.key), value: fromYaml(pair.value) })),
      start,
      end,
      source: node,
    };
  return { kind: 'other', start, end };
}

/** A mapping as plain values, keyed as the `yaml` library's `toJSON` keys them. */
export function mapToJS(map: YMap): Record<string, unknown> {
  if (map.source) return map.source.toJSON() as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const pair of map.items) {
    const key = pair.key === null ? null : jsOf(pair.key);
    const name = key === null ? '' : typeof key === 'object' ? JSON.stringify(key) : String(key);
    const value = pair.value === null ? null : jsOf(pair.value);
    // As the library does: `__proto__` and the like become own keys, not the object's prototype.
    if (name in out) Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
    else out[name] = value;
  }
  return out;
}

function jsOf(node: YNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map((item) => (item === null ? null : jsOf(item)));
  if (node.kind === 'map') return mapToJS(node);
  return undefined;
}
