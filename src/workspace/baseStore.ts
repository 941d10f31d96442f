import type { MirrorFileSystem } from './fileSystem';
import { BASE_FILE, type DocKey, WORKBENCH_GITIGNORE, WORKBENCH_GITIGNORE_TEXT } from './layout';

/** One document as the platform held it at the last pull or push: its file and canonical text. */
export interface BaseEntry {
  path: string;
  text: string;
}

/** A file merge a person still has to settle: the platform's text when it was found (null: deleted there). */
export interface ConflictRecord {
  remote: string | null;
  /**
   * The file as it was when the conflict was found or its merge began: the merge editor's fixed "Yours" side,
   * kept while the file itself takes the result.
   */
  local?: string;
}

/**
 * `.workbench/base.json`: the last content seen on the platform, per document key. One file,
 * written atomically, so the base is always one consistent snapshot. Conflicts live here too,
 * so they survive a restart, and so does an unfinished branch switch.
 */
export interface BaseSnapshot {
  version: 1;
  agentId: string;
  branchId: string;
  docs: Record<DocKey, BaseEntry>;
  conflicts: Record<DocKey, ConflictRecord>;
  /** Set while the files are being rewritten for another branch: the base of the branch left. */
  switching?: { from: Record<DocKey, BaseEntry> };
  /**
   * Which data the base was read from: the local platform's data id (`GET /_local/connection`), which changes when
   * that platform starts afresh or is reset. Absent for a platform that has none (a real one) and for bases written
   * before it was kept.
   */
  dataId?: string;
}

export function emptyBase(agentId: string, branchId: string): BaseSnapshot {
  return { version: 1, agentId, branchId, docs: {}, conflicts: {} };
}

/** The stored base, or undefined when the folder has none (not checked out). A damaged one is an error. */
export async function readBase(fs: MirrorFileSystem): Promise<BaseSnapshot | undefined> {
  const text = await fs.read(BASE_FILE);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(
      `${BASE_FILE} is damaged. Check the agent out again into an empty folder; your files here are not changed.`,
    );
  }
  const v = value as Partial<BaseSnapshot> | null;
  if (
    !v ||
    v.version !== 1 ||
    typeof v.agentId !== 'string' ||
    typeof v.branchId !== 'string' ||
    typeof v.docs !== 'object' ||
    v.docs === null
  ) {
    throw new Error(
      `${BASE_FILE} was written by another version of Agent Workbench. Check the agent out again into an empty folder.`,
    );
  }
  return {
    version: 1,
    agentId: v.agentId,
    branchId: v.branchId,
    docs: v.docs,
    conflicts: v.conflicts ?? {},
    ...(v.switching ? { switching: v.switching } : {}),
    ...(typeof v.dataId === 'string' ? { dataId: v.dataId } : {}),
  };
}

/**
 * Writes the base in one atomic step (and the .gitignore that keeps it out of git, once).
 * `docsJson`, when given, is `JSON.stringify(base.docs)` already made: a branch switch writes the
 * same documents twice, and for 1,000 topics that is a megabyte.
 */
export async function writeBase(
  fs: MirrorFileSystem,
  base: BaseSnapshot,
  docsJson = JSON.stringify(base.docs),
): Promise<void> {
  if ((await fs.read(WORKBENCH_GITIGNORE)) === undefined) await fs.write(WORKBENCH_GITIGNORE, WORKBENCH_GITIGNORE_TEXT);
  const { docs: _docs, ...rest } = base;
  const head = JSON.stringify(rest);
  await fs.write(BASE_FILE, `${head.slice(0, -1)},"docs":${docsJson}}`);
}
