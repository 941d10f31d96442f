import { isUtf8 } from 'node:buffer';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { AGENT_MANIFEST } from '../workspace/agentManifest';
import type { AgentFileInput } from './agentFile';
import { DEFAULT_CONFIG, LINT_CONFIG_FILE, type LintConfig, parseLintConfig } from './config';

/** Files larger than this are not read at all. */
const MAX_FILE_BYTES = 4_000_000;
/** Folders never looked into: not the agent's, and possibly huge. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.workbench']);
const MAX_FILES = 20_000;
/**
 * Files read between two turns of the event loop. Each is read synchronously: an agent folder is many small files,
 * and a synchronous read costs a third of the processor time of a promise-based one. In batches, the editor's
 * extension host still answers between them.
 */
const READ_BATCH = 100;

/** A file's bytes as the checks take them: text, or why it is not text. */
export function decodeFile(path: string, bytes: Uint8Array): AgentFileInput {
  if (bytes.includes(0)) return { path, unreadable: 'binary data, not text' };
  if (!isUtf8(bytes)) return { path, unreadable: 'not valid UTF-8 text' };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // A byte order mark is not part of the text (as a UTF-8 decoder reads it).
  return { path, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** Most files of an agent folder fit in this: read into it, they cost one read and no size query. */
const FIRST_READ = Buffer.allocUnsafe(64 * 1024);

/**
 * One file of an agent folder, read as the checks take it. `prefix` is the folder with a separator after it: the
 * path is appended as it is (the file system takes its forward slashes everywhere), since path.join, which
 * normalizes the whole path again, cost as much as the read itself for a thousand small files.
 */
function readOne(prefix: string, path: string): AgentFileInput {
  let fd: number | undefined;
  try {
    fd = openSync(prefix + path, 'r');
    const first = readSync(fd, FIRST_READ, 0, FIRST_READ.length, 0);
    // The text is copied out of the shared buffer before the next file is read into it.
    if (first < FIRST_READ.length) return decodeFile(path, FIRST_READ.subarray(0, first));
    const { size } = fstatSync(fd);
    if (size > MAX_FILE_BYTES) return { path, unreadable: `too large to check (${size} bytes)` };
    const bytes = Buffer.allocUnsafe(Math.max(size, first));
    FIRST_READ.copy(bytes, 0, 0, first);
    let read = first;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return decodeFile(path, bytes.subarray(0, read));
  } catch (err) {
    return { path, unreadable: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The paths of the files under a folder, relative to `root` with forward slashes. */
async function walk(root: string, prefix: string, out: string[]): Promise<void> {
  const entries = await readdir(prefix === '' ? root : join(root, prefix), { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (out.length >= MAX_FILES) return;
    if (e.isDirectory()) {
      if (!SKIPPED_DIRS.has(e.name)) await walk(root, `${prefix}${e.name}/`, out);
    } else if (e.isFile()) out.push(`${prefix}${e.name}`);
  }
}

/** Every file under an agent folder, read as the checks take them (the .workbench bookkeeping left out). */
export async function readAgentFolder(folder: string): Promise<AgentFileInput[]> {
  const paths: string[] = [];
  await walk(folder, '', paths);
  paths.sort();
  const out: AgentFileInput[] = [];
  const prefix = join(folder, sep);
  for (const [i, path] of paths.entries()) {
    if (i > 0 && i % READ_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    out.push(readOne(prefix, path));
  }
  return out;
}

/** The agent folders at or below `root` (a folder with agent.json is one, and is not looked into further). */
export async function findAgentFolders(root: string, depth = 4): Promise<string[]> {
  if (existsSync(join(root, AGENT_MANIFEST))) return [root];
  if (depth === 0) return [];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const e of entries)
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
      found.push(...(await findAgentFolders(join(root, e.name), depth - 1)));
  return found.sort();
}

/**
 * The lint file nearest to a folder (in it or a folder above), read; the defaults when there is none. Read
 * synchronously: a few small reads, which in a busy editor would otherwise each wait behind other work.
 */
export async function readLintConfig(
  folder: string,
): Promise<{ config: LintConfig; problems: string[]; file?: string }> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const file = join(dir, LINT_CONFIG_FILE);
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) return { ...parseLintConfig(text), file };
    if (dirname(dir) === dir) return { config: DEFAULT_CONFIG, problems: [] };
  }
}
