import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { ConnectionProfile } from './profile';

/**
 * How programs on this machine find the local platform an editor uses (docs/assistants.md): each editor window
 * that uses one writes `<runtime folder>/local-platforms/editor-<pid>.json` with its origin, and removes it when it
 * stops using it. A reader keeps only files whose writer still runs, prefers the window whose workspace holds its
 * folder, and uses a platform only once it answers `GET /_local/connection` (the local platform's admin API, ours).
 *
 * The runtime folder: AGENT_WORKBENCH_RUNTIME_DIR, else $XDG_RUNTIME_DIR/agent-workbench, else
 * %LOCALAPPDATA%\agent-workbench on Windows, ~/Library/Caches/agent-workbench on macOS, ~/.cache/agent-workbench.
 */
export interface LocalPlatformAnnouncement {
  /** The platform's origin, e.g. http://127.0.0.1:4780. */
  readonly origin: string;
  /** The process of the editor window that uses it. */
  readonly pid: number;
  /** The workspace folders of that window. */
  readonly workspaceFolders: readonly string[];
  /** When the file was written (ISO 8601). */
  readonly writtenAt: string;
}

/** What `GET /_local/connection` answers (src/localPlatform/adminApi.ts, ConnectionReply), as a reader checks it. */
export interface LocalConnectionReply {
  readonly bases: { readonly runtime: string; readonly build: string; readonly messaging: string };
  readonly accountId: string;
  readonly projectId: string;
  readonly keys: Record<string, string>;
  readonly connectors: Record<string, string>;
  readonly projects?: readonly unknown[];
  readonly dataId?: string;
}

export function runtimeFolder(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.AGENT_WORKBENCH_RUNTIME_DIR) return env.AGENT_WORKBENCH_RUNTIME_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'agent-workbench');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'agent-workbench');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'agent-workbench');
  return join(homedir(), '.cache', 'agent-workbench');
}

const announcementsFolder = (env?: NodeJS.ProcessEnv): string => join(runtimeFolder(env), 'local-platforms');
const announcementFile = (pid: number, env?: NodeJS.ProcessEnv): string =>
  join(announcementsFolder(env), `editor-${pid}.json`);

/** Says (or, with `origin` undefined, stops saying) which local platform this editor window uses. */
export async function announceLocalPlatform(
  origin: string | undefined,
  workspaceFolders: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  const file = announcementFile(process.pid, env);
  if (origin === undefined) {
    await rm(file, { force: true });
    return;
  }
  const announcement: LocalPlatformAnnouncement = {
    origin,
    pid: process.pid,
    workspaceFolders,
    writtenAt: new Date().toISOString(),
  };
  await mkdir(announcementsFolder(env), { recursive: true, mode: 0o700 });
  // Written whole, then moved into place: a reader never sees half a file.
  const partial = `${file}.${Date.now()}.partial`;
  await writeFile(partial, JSON.stringify(announcement), { mode: 0o600 });
  await rename(partial, file);
}

/** Removes this window's announcement at once (the editor going away cannot wait for a promise). */
export function withdrawLocalPlatformSync(env?: NodeJS.ProcessEnv): void {
  rmSync(announcementFile(process.pid, env), { force: true });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const within = (folder: string, root: string): boolean => {
  const rel = relative(root, folder);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The local platforms editor windows use now, best first for a program working in `folder`: the windows whose
 * workspace holds it (or lies inside it), then the others, the most recently written first. Files of windows that no
 * longer run are left out.
 */
export async function announcedLocalPlatforms(
  folder: string,
  env?: NodeJS.ProcessEnv,
): Promise<LocalPlatformAnnouncement[]> {
  const dir = announcementsFolder(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: LocalPlatformAnnouncement[] = [];
  for (const name of names.filter((n) => /^editor-\d+\.json$/.test(n))) {
    const value = await readFile(join(dir, name), 'utf8')
      .then((text) => JSON.parse(text) as Partial<LocalPlatformAnnouncement>)
      .catch(() => undefined);
    if (
      typeof value?.origin !== 'string' ||
      typeof value.pid !== 'number' ||
      !Array.isArray(value.workspaceFolders) ||
      !running(value.pid)
    )
      continue;
    found.push({
      origin: value.origin,
      pid: value.pid,
      workspaceFolders: value.workspaceFolders.filter((f): f is string => typeof f === 'string'),
      writtenAt: typeof value.writtenAt === 'string' ? value.writtenAt : '',
    });
  }
  const holds = (a: LocalPlatformAnnouncement): number =>
    a.workspaceFolders.some((w) => within(folder, w) || within(w, folder)) ? 0 : 1;
  return found.sort((a, b) => holds(a) - holds(b) || b.writtenAt.localeCompare(a.writtenAt));
}

/** Whether an origin is on this machine: the local platform's admin API answers on loopback only. */
export function isLoopback(origin: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** `GET <origin>/_local/connection`, or undefined when nothing that answers as a local platform is there. */
export async function readLocalConnection(
  origin: string,
  signal: AbortSignal = AbortSignal.timeout(3000),
): Promise<LocalConnectionReply | undefined> {
  if (!isLoopback(origin)) return undefined;
  const res = await fetch(`${origin.replace(/\/+$/, '')}/_local/connection`, { signal }).catch(() => undefined);
  if (!res?.ok) return undefined;
  const body: unknown = await res.json().catch(() => undefined);
  return isLocalConnectionReply(body) ? body : undefined;
}

/** Whether an answer of `GET /_local/connection` has what connecting needs: the bases and the account's credentials. */
export function isLocalConnectionReply(value: unknown): value is LocalConnectionReply {
  const body = value as Partial<LocalConnectionReply> | undefined;
  return Boolean(
    body?.bases?.runtime &&
    body.bases.build &&
    body.bases.messaging &&
    body.keys &&
    body.connectors &&
    body.accountId &&
    body.projectId,
  );
}

/**
 * The data a profile's platform holds now, as the file mirror records it (AgentMirror's platform data): the local
 * platform's data id for a profile of the local platform, undefined for any other (no request is made to it).
 */
export async function profilePlatformData(
  profile: Pick<ConnectionProfile, 'region' | 'buildUrl'>,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (profile.region !== 'local') return undefined;
  const origin = new URL(profile.buildUrl).origin;
  const reply = await readLocalConnection(origin, signal ?? AbortSignal.timeout(5000));
  if (!reply)
    throw new Error(
      `The local platform at ${origin} did not say which data it holds (GET /_local/connection): nothing was pulled or pushed.`,
    );
  return typeof reply.dataId === 'string' ? reply.dataId : undefined;
}
