import type { BaseSnapshot } from './baseStore';
import { docOf, type LocalDoc, parseFile, type RemoteDocs } from './documents';
import { mergeDocs } from './fileMerge';
import { type DocKey, pathForDoc, topicIdOfKey } from './layout';
import { type Doc, docText, isUnreadable } from './serializer';

/** How one side differs from the base. */
export type Change = 'none' | 'added' | 'modified' | 'deleted';

/**
 * The state of one file, as the person sees it:
 * - unchanged: file, base and (when read) platform agree
 * - modifiedLocally / added / deleted: an edit to push
 * - modifiedRemotely: the platform changed it (a pull applies it, merged with any local edit)
 * - conflict: both changed it in ways a file merge cannot combine, or a conflict not yet settled
 */
export type FileState = 'unchanged' | 'modifiedLocally' | 'modifiedRemotely' | 'conflict' | 'added' | 'deleted';

export interface FileStatus {
  key: DocKey;
  /** The file's path: where it is, was, or (for a document new on the platform) will be. */
  path: string;
  state: FileState;
  local: Change;
  /** Undefined when the platform was not read. */
  remote?: Change;
  /** Why the file cannot be pushed as it is. */
  problem?: string;
}

/** The three sides of one document in canonical text (undefined: absent on that side). */
export interface Sides {
  key: DocKey;
  base: string | undefined;
  basePath: string | undefined;
  local: LocalDoc | undefined;
  remote: Doc | undefined;
  remoteText: string | undefined;
}

/** Every document any side knows, paired up. */
export function sidesOf(base: BaseSnapshot, local: Map<DocKey, LocalDoc>, remote?: RemoteDocs): Sides[] {
  const keys = new Set<DocKey>([
    ...Object.keys(base.docs),
    ...local.keys(),
    ...(remote ? remote.keys() : []),
    ...Object.keys(base.conflicts),
  ]);
  return [...keys].map((key) => {
    const r = remote?.get(key);
    return {
      key,
      base: base.docs[key]?.text,
      basePath: base.docs[key]?.path,
      local: local.get(key),
      remote: r,
      remoteText: r ? docText(r) : undefined,
    };
  });
}

export function changeOf(base: string | undefined, side: string | undefined): Change {
  if (base === side) return 'none';
  if (base === undefined) return 'added';
  return side === undefined ? 'deleted' : 'modified';
}

/** The local side in canonical text; an unreadable file counts as modified (it cannot equal anything). */
export function localText(s: Sides): string | undefined {
  if (!s.local) return undefined;
  return s.local.canonical ?? `\u0000unreadable:${s.local.text}`;
}

/**
 * A topic file that is its topic without saying so (no id in its front matter: made locally and
 * taken as the topic a lost push answer created, or its front matter removed). Its canonical text
 * gets written, so a rename keeps the topic from then on.
 */
export function lacksTopicId(s: Sides): boolean {
  const topicId = topicIdOfKey(s.key);
  if (!topicId || !s.local || s.local.canonical === undefined || s.local.text === s.local.canonical) return false;
  const doc = parseFile(s.local.path, s.local.text);
  return doc !== undefined && !isUnreadable(doc) && doc.kind === 'topic' && doc.topicId !== topicId;
}

/** Whether the file merge of both sides' changes works out (false when it needs a person). */
export function mergesCleanly(s: Sides): boolean {
  return mergedDoc(s) !== false;
}

/** The file merge of one document's sides: the merged document (undefined: deleted), or false on conflict. */
export function mergedDoc(s: Sides): Doc | undefined | false {
  if (s.local && s.local.canonical === undefined) return false;
  const path = s.local?.path ?? s.basePath ?? '';
  const b = s.base === undefined ? undefined : docOf(s.key, s.basePath ?? path, s.base);
  const l = s.local ? docOf(s.key, s.local.path, s.local.canonical!) : undefined;
  const outcome = mergeDocs(b, l, s.remote);
  return outcome.clean ? outcome.doc : false;
}

/**
 * The status of every file. Without the platform's side, only local edits and recorded
 * conflicts show; with it, remote changes and would-be conflicts too. A recorded conflict stays
 * until it is settled (resolve) or a pull finds both sides alike.
 */
export function computeStatus(base: BaseSnapshot, local: Map<DocKey, LocalDoc>, remote?: RemoteDocs): FileStatus[] {
  const out: FileStatus[] = [];
  for (const s of sidesOf(base, local, remote)) {
    const lText = localText(s);
    const localChange = changeOf(s.base, lText);
    const remoteChange = remote ? changeOf(s.base, s.remoteText) : 'none';
    let state: FileState;
    if (base.conflicts[s.key]) state = 'conflict';
    else if (localChange !== 'none' && remoteChange !== 'none')
      state = lText === s.remoteText ? 'unchanged' : mergesCleanly(s) ? 'modifiedRemotely' : 'conflict';
    else if (remoteChange !== 'none') state = 'modifiedRemotely';
    else
      state =
        localChange === 'added'
          ? 'added'
          : localChange === 'deleted'
            ? 'deleted'
            : localChange === 'modified'
              ? 'modifiedLocally'
              : 'unchanged';
    out.push({
      key: s.key,
      path:
        s.local?.path ??
        s.basePath ??
        pathForDoc(s.key, s.remote?.kind === 'topic' ? s.remote.name : undefined, new Set()),
      state,
      local: localChange,
      ...(remote ? { remote: remoteChange } : {}),
      ...(s.local?.problem ? { problem: s.local.problem } : {}),
    });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
