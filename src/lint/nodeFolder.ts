import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { AGENT_MANIFEST } from '../workspace/agentManifest';
import type { AgentFileInput } from './agentFile';
import { DEFAULT_CONFIG, LINT_CONFIG_FILE, type LintConfig, parseLintConfig } from './config';

/** Files larger than this are not read at all. */
const MAX_FILE_BYTES = 4_000_000;
/** Folders never looked into: not the agent's, and possibly huge. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.workbench']);
const MAX_FILES = 20_000;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A file's bytes as the checks take them: text, or why it is not text. */
export function decodeFile(path: string, bytes: Uint8Array): AgentFileInput {
  if (bytes.includes(0)) return { path, unreadable: 'binary data, not text' };
  try {
    return { path, text: utf8.decode(bytes) };
  } catch {
    return { path, unreadable: 'not valid UTF-8 text' };
  }
}

async function walk(root: string, dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (out.length >= MAX_FILES) return;
    if (e.isDirectory()) {
      if (!SKIPPED_DIRS.has(e.name)) await walk(root, join(dir, e.name), out);
    } else if (e.isFile()) out.push(relative(root, join(dir, e.name)).split(sep).join('/'));
  }
}

/** Every file under an agent folder, read as the checks take them (the .workbench bookkeeping left out). */
export async function readAgentFolder(folder: string): Promise<AgentFileInput[]> {
  const paths: string[] = [];
  await walk(folder, folder, paths);
  paths.sort();
  return Promise.all(
    paths.map(async (path): Promise<AgentFileInput> => {
      const full = join(folder, path);
      try {
        const { size } = await stat(full);
        if (size > MAX_FILE_BYTES) return { path, unreadable: `too large to check (${size} bytes)` };
        return decodeFile(path, await readFile(full));
      } catch (err) {
        return { path, unreadable: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
      }
    }),
  );
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

/** The lint file nearest to a folder (in it or a folder above), read; the defaults when there is none. */
export async function readLintConfig(
  folder: string,
): Promise<{ config: LintConfig; problems: string[]; file?: string }> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const file = join(dir, LINT_CONFIG_FILE);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) return { ...parseLintConfig(text), file };
    if (dirname(dir) === dir) return { config: DEFAULT_CONFIG, problems: [] };
  }
}
