import type { BaseSnapshot } from './baseStore';
import type { LocalDoc, RemoteDocs } from './documents';
import { type DocKey, pathForDoc } from './layout';
import { docText } from './serializer';
import { lacksTopicId, localText, mergedDoc, sidesOf } from './status';

/** A change a pull makes to one file. */
export type PullAction =
  | { kind: 'write'; key: DocKey; path: string; text: string; why: 'remote' | 'merged' }
  | { kind: 'remove'; key: DocKey; path: string };

/** A document both sides changed beyond what a file merge can combine: the three texts for the person. */
export interface PullConflict {
  key: DocKey;
  path: string;
  base: string | undefined;
  local: string | undefined;
  remote: string | undefined;
}

/**
 * What a pull will do, as plain data: the file writes and removals, the conflicts to show, and
 * the base to store once the files are written. Executing it is writing `actions` in order, then
 * `nextBase`; a pull stopped half way is finished by the next one (a file already holding the
 * platform's text is simply in step).
 */
export interface PullPlan {
  actions: PullAction[];
  conflicts: PullConflict[];
  nextBase: BaseSnapshot;
}

export function planPull(base: BaseSnapshot, local: Map<DocKey, LocalDoc>, remote: RemoteDocs): PullPlan {
  const nextBase: BaseSnapshot = { ...base, docs: { ...base.docs }, conflicts: {} };
  const actions: PullAction[] = [];
  const conflicts: PullConflict[] = [];
  const taken = new Set<string>([...local.values()].map((l) => l.path));
  const setBase = (key: DocKey, path: string, text: string | undefined): void => {
    if (text === undefined) Reflect.deleteProperty(nextBase.docs, key);
    else nextBase.docs[key] = { path, text };
  };

  for (const s of sidesOf(base, local, remote)) {
    const l = localText(s);
    const path =
      s.local?.path ?? s.basePath ?? pathForDoc(s.key, s.remote?.kind === 'topic' ? s.remote.name : undefined, taken);
    taken.add(path);
    if (l === s.remoteText) {
      // In step (perhaps a pull or push stopped before its base was stored).
      setBase(s.key, path, s.remoteText);
      if (s.remoteText !== undefined && lacksTopicId(s))
        actions.push({ kind: 'write', key: s.key, path, text: s.remoteText, why: 'remote' });
    } else if (s.remoteText === s.base) {
      // Only the local side changed (a conflict whose remote side went back to the base is one no more).
      if (s.base !== undefined) setBase(s.key, path, s.base);
    } else if (l === s.base) {
      actions.push(
        s.remoteText === undefined
          ? { kind: 'remove', key: s.key, path }
          : { kind: 'write', key: s.key, path, text: s.remoteText, why: 'remote' },
      );
      setBase(s.key, path, s.remoteText);
    } else {
      const merged = mergedDoc(s);
      if (merged === false) {
        conflicts.push({ key: s.key, path, base: s.base, local: s.local?.text, remote: s.remoteText });
        // A merge under way keeps the snapshot of the file it began from (the file now holds its result).
        const yours = base.conflicts[s.key]?.local ?? s.local?.text;
        nextBase.conflicts[s.key] = { remote: s.remoteText ?? null, ...(yours !== undefined ? { local: yours } : {}) };
      } else {
        actions.push(
          merged === undefined
            ? { kind: 'remove', key: s.key, path }
            : { kind: 'write', key: s.key, path, text: docText(merged), why: 'merged' },
        );
        setBase(s.key, path, s.remoteText);
      }
    }
  }
  // A file whose text is already what the pull would write needs no write.
  const needed = actions.filter((a) => (a.kind === 'write' ? local.get(a.key)?.text !== a.text : local.has(a.key)));
  return { actions: needed, conflicts, nextBase };
}
