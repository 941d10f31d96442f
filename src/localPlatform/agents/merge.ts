import type { MergeChange, MergeConflict, MergeResolution, MergeValue } from '../../contract/agents';
import type { AgentContent, StoredTopic } from './model';

/**
 * Three-way merge of a branch into main, item by item against the merge base: the behavior,
 * and each knowledge topic by id (added, changed, deleted). A topic changed on both sides
 * merges field by field (name, content). What both sides changed differently is a conflict
 * unless a resolution names its path. Pure: the caller stores the result.
 */

export const BEHAVIOR_PATH = 'behavior';
export const topicPath = (topicId: string): string => `knowledge-base/topics/${topicId}`;

type TopicValue = { name: string; content: string } | null;

export interface MergeInput {
  base: AgentContent;
  /** main, the parent */
  ours: AgentContent;
  /** the branch */
  theirs: AgentContent;
  resolutions: readonly MergeResolution[];
  /** Stamps topics whose fields were combined or resolved. */
  stamp: { at: string; by: string };
}

export type MergeOutcome =
  | { kind: 'merged'; content: AgentContent; changes: MergeChange[] }
  | { kind: 'conflict'; conflicts: MergeConflict[] }
  | { kind: 'invalid'; errors: Array<{ field: string; message: string }> };

const valueOf = (t: StoredTopic | undefined): TopicValue => (t ? { name: t.name, content: t.content } : null);
const sameTopic = (a: TopicValue, b: TopicValue): boolean =>
  a === null || b === null ? a === b : a.name === b.name && a.content === b.content;

export function mergeBranch(input: MergeInput): MergeOutcome {
  const { base, ours, theirs, stamp } = input;
  const conflicts: MergeConflict[] = [];
  const changes: MergeChange[] = [];
  const byPath = new Map(input.resolutions.map((r) => [r.path, r]));
  const used = new Set<string>();
  const errors: Array<{ field: string; message: string }> = [];
  const result: AgentContent = { behavior: ours.behavior, topics: { ...ours.topics } };

  /** A conflict at `path`: the resolved value, or undefined (recorded as a conflict) when unresolved. */
  function resolve(
    path: string,
    b: MergeValue,
    o: MergeValue,
    t: MergeValue,
    expect: 'string' | 'topic',
  ): MergeValue | undefined {
    const resolution = byPath.get(path);
    if (!resolution) {
      conflicts.push({ path, base: b, ours: o, theirs: t });
      return undefined;
    }
    used.add(path);
    const chosen =
      resolution.value !== undefined ? resolution.value : { ours: o, theirs: t, base: b }[resolution.strategy];
    const index = input.resolutions.indexOf(resolution);
    const fits =
      expect === 'string'
        ? typeof chosen === 'string'
        : chosen === null ||
          (typeof chosen === 'object' && typeof chosen.name === 'string' && typeof chosen.content === 'string');
    if (!fits) {
      errors.push({
        field: `resolutions[${index}].value`,
        message:
          expect === 'string'
            ? 'must be a string for this path'
            : 'must be a topic {name, content} or null for this path',
      });
      return undefined;
    }
    return chosen;
  }

  // behavior
  if (theirs.behavior !== base.behavior && ours.behavior !== theirs.behavior) {
    if (ours.behavior === base.behavior) {
      result.behavior = theirs.behavior;
      changes.push({ path: BEHAVIOR_PATH, change: 'changed', source: 'branch' });
    } else {
      const chosen = resolve(BEHAVIOR_PATH, base.behavior, ours.behavior, theirs.behavior, 'string');
      if (typeof chosen === 'string' && chosen !== ours.behavior) {
        result.behavior = chosen;
        changes.push({ path: BEHAVIOR_PATH, change: 'changed', source: 'resolution' });
      }
    }
  }

  // topics, by id
  const ids = new Set([...Object.keys(base.topics), ...Object.keys(ours.topics), ...Object.keys(theirs.topics)]);
  for (const id of ids) {
    const b = valueOf(base.topics[id]);
    const o = valueOf(ours.topics[id]);
    const t = valueOf(theirs.topics[id]);
    if (sameTopic(t, b) || sameTopic(o, t)) continue;
    const path = topicPath(id);
    if (sameTopic(o, b)) {
      setTopic(id, t, theirs.topics[id], 'branch');
      continue;
    }
    if (b && o && t) {
      // Both changed the topic: combine name and content separately.
      const name = mergeField(`${path}/name`, b.name, o.name, t.name);
      const content = mergeField(`${path}/content`, b.content, o.content, t.content);
      if (name !== undefined && content !== undefined) {
        const fromResolution = used.has(`${path}/name`) || used.has(`${path}/content`);
        setTopic(id, { name, content }, undefined, fromResolution ? 'resolution' : 'branch');
      }
      continue;
    }
    const chosen = resolve(path, b, o, t, 'topic');
    if (chosen !== undefined) setTopic(id, chosen as TopicValue, undefined, 'resolution');
  }

  function mergeField(path: string, b: string, o: string, t: string): string | undefined {
    if (t === b || o === t) return o;
    if (o === b) return t;
    const chosen = resolve(path, b, o, t, 'string');
    return typeof chosen === 'string' ? chosen : undefined;
  }

  function setTopic(
    id: string,
    value: TopicValue,
    record: StoredTopic | undefined,
    source: 'branch' | 'resolution',
  ): void {
    const current = ours.topics[id];
    if (sameTopic(value, valueOf(current))) return;
    if (value === null) {
      Reflect.deleteProperty(result.topics, id);
      changes.push({ path: topicPath(id), change: 'deleted', source });
      return;
    }
    const template = current ?? theirs.topics[id] ?? base.topics[id];
    result.topics[id] = record
      ? { ...record }
      : {
          topicId: id,
          createdAt: template?.createdAt ?? stamp.at,
          ...(template?.createdBy ? { createdBy: template.createdBy } : {}),
          name: value.name,
          content: value.content,
          updatedAt: stamp.at,
          updatedBy: stamp.by,
        };
    changes.push({ path: topicPath(id), change: current ? 'changed' : 'added', source });
  }

  input.resolutions.forEach((r, i) => {
    if (!used.has(r.path) && !errors.some((e) => e.field.startsWith(`resolutions[${i}]`))) {
      errors.push({ field: `resolutions[${i}].path`, message: `not a conflicting path of this merge: ${r.path}` });
    }
  });
  if (errors.length > 0) return { kind: 'invalid', errors };
  if (conflicts.length > 0) return { kind: 'conflict', conflicts };
  return { kind: 'merged', content: result, changes };
}
