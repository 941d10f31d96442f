import type * as Diff3 from 'node-diff3' with { 'resolution-mode': 'import' };
import { type Doc, docText, sameJson } from './serializer';

/**
 * The file merge: three-way, per document, of what the base held, what the file holds and what
 * the platform holds. Markdown merges by lines (diff3), a topic's name as one value, real-time
 * variables field by field. A merge that cannot decide returns undefined: a conflict for the
 * person to settle, never markers written into a file.
 */

// node-diff3 ships CommonJS for require() but only ES module typings: take the types from those.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { diff3Merge } = require('node-diff3') as typeof Diff3;

/** Line-based three-way merge; undefined when both sides changed the same lines differently. */
export function mergeLines(base: string, local: string, remote: string): string | undefined {
  if (local === remote || remote === base) return local;
  if (local === base) return remote;
  const regions = diff3Merge(local.split('\n'), base.split('\n'), remote.split('\n'));
  const out: string[] = [];
  for (const region of regions) {
    if (region.conflict) return undefined;
    out.push(...(region.ok ?? []));
  }
  return out.join('\n');
}

/** One value changed on at most one side (or alike on both); undefined otherwise. */
function mergeValue<T>(
  base: T | undefined,
  local: T | undefined,
  remote: T | undefined,
  same: (a: T | undefined, b: T | undefined) => boolean,
): { value: T | undefined } | undefined {
  if (same(local, remote) || same(remote, base)) return { value: local };
  if (same(local, base)) return { value: remote };
  return undefined;
}

const sameJsonValue = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : sameJson(a, b);

/** Field-wise merge of JSON objects (real-time variables): each top-level variable merges on its own. */
export function mergeFields(
  base: Record<string, unknown>,
  local: Record<string, unknown>,
  remote: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(base), ...Object.keys(local), ...Object.keys(remote)])) {
    const merged = mergeValue(base[name], local[name], remote[name], sameJsonValue);
    if (!merged) return undefined;
    if (merged.value !== undefined) out[name] = merged.value;
  }
  return out;
}

export type MergeOutcome = { clean: true; doc: Doc | undefined } | { clean: false };

const same = (a: Doc | undefined, b: Doc | undefined): boolean =>
  a === undefined || b === undefined ? a === b : docText(a) === docText(b);

/**
 * Merges one document; undefined stands for "absent" on a side (not yet made, or deleted). A
 * deletion on one side against a change on the other is a conflict, like two different additions.
 */
export function mergeDocs(base: Doc | undefined, local: Doc | undefined, remote: Doc | undefined): MergeOutcome {
  const simple = mergeValue(base, local, remote, same);
  if (simple) return { clean: true, doc: simple.value };
  if (!base || !local || !remote) return { clean: false };
  if (base.kind === 'behavior' && local.kind === 'behavior' && remote.kind === 'behavior') {
    const behavior = mergeLines(base.behavior, local.behavior, remote.behavior);
    return behavior === undefined ? { clean: false } : { clean: true, doc: { kind: 'behavior', behavior } };
  }
  if (base.kind === 'topic' && local.kind === 'topic' && remote.kind === 'topic') {
    const name = mergeValue(base.name, local.name, remote.name, (a, b) => a === b);
    const content = mergeLines(base.content, local.content, remote.content);
    if (!name || name.value === undefined || content === undefined) return { clean: false };
    return {
      clean: true,
      doc: { kind: 'topic', name: name.value, content, ...(local.topicId ? { topicId: local.topicId } : {}) },
    };
  }
  if (base.kind === 'realtime' && local.kind === 'realtime' && remote.kind === 'realtime') {
    const variables = mergeFields(base.variables, local.variables, remote.variables);
    return variables === undefined
      ? { clean: false }
      : { clean: true, doc: { kind: 'realtime', config: local.config, variables } };
  }
  return { clean: false };
}
