// The custom addresses of the extension's documents, built and read back only here. A document
// provider gets a URI from anywhere (an editor tab restored from last session, a link another
// extension made), so reading one checks every field instead of trusting the query string.
// No 'vscode' here: callers pass the parts to vscode.Uri.from and hand back uri.scheme/uri.query.

/** The schemes the extension serves. Base snapshots and conflict sides of the file mirror get their own. */
export const Scheme = {
  /** Read-only documents of what the platform holds now: a branch's behavior, a topic, a real-time config. */
  remote: 'agent-workbench-remote',
  /** Read-only sides of a checked-out file: its base snapshot, the platform's side of a conflict, the local side. */
  mirror: 'agent-workbench-mirror',
  /** Read-only documents of a webhook delivery the receiver took: its verdict, signature headers and body. */
  delivery: 'agent-workbench-delivery',
  /** Read-only sides of a diverged item of a branch merge (base, main, the branch), kept in memory. */
  branchMerge: 'agent-workbench-branch-merge',
} as const;

/** The parts vscode.Uri.from takes, and the parts of a vscode.Uri the parsers read. */
export interface UriParts {
  readonly scheme: string;
  readonly path: string;
  readonly query: string;
}

/**
 * A read-only document of one platform: `profile` is the id of the connection profile it was read
 * through, so a profile switch never reads it again from another platform.
 */
export type RemoteRef = { profile: string } & (
  | { kind: 'behavior'; agentId: string; agentName: string; branchId: string; branchName: string }
  | {
      kind: 'topic';
      agentId: string;
      agentName: string;
      branchId: string;
      branchName: string;
      topicId: string;
      topicName: string;
    }
  | { kind: 'realtimeConfig'; agentId: string; agentName: string; config: string }
);

/** A path segment that reads well in a tab title and cannot change the path's shape. */
function segment(s: string): string {
  return s.replace(/[/\\?#%]/g, '-');
}

/**
 * The address of a read-only remote document; its path is what the editor shows (the file name, the tab
 * title, names the agent and branch: "behavior — Billing Bot (main).md"), its query what is read back.
 */
export function remoteDocumentUri(ref: RemoteRef): UriParts {
  const where =
    ref.kind === 'realtimeConfig' ? segment(ref.agentName) : `${segment(ref.agentName)} (${segment(ref.branchName)})`;
  const name =
    ref.kind === 'behavior'
      ? `behavior — ${where}.md`
      : ref.kind === 'topic'
        ? `${segment(ref.topicName)} — ${where}.md`
        : `${segment(ref.config)} — ${where}.json`;
  const folder =
    ref.kind === 'realtimeConfig'
      ? `/${segment(ref.agentName)}/realtime`
      : ref.kind === 'topic'
        ? `/${segment(ref.agentName)}/${segment(ref.branchName)}/knowledge`
        : `/${segment(ref.agentName)}/${segment(ref.branchName)}`;
  return {
    scheme: Scheme.remote,
    path: `/${segment(ref.profile)}${folder}/${name}`,
    query: new URLSearchParams(Object.entries(ref)).toString(),
  };
}

/** What a remote document's address stands for, or undefined when it is not one this extension made. */
export function parseRemoteDocumentUri(uri: Pick<UriParts, 'scheme' | 'query'>): RemoteRef | undefined {
  if (uri.scheme !== Scheme.remote) return undefined;
  const params = new URLSearchParams(uri.query);
  // Ids and names are never empty on the platform; a missing or empty one means the address was not made here.
  const read = <K extends string>(...names: K[]): Record<K, string> | undefined => {
    const out = {} as Record<K, string>;
    for (const name of names) {
      const value = params.get(name);
      if (!value) return undefined;
      out[name] = value;
    }
    return out;
  };
  switch (params.get('kind')) {
    case 'behavior': {
      const f = read('profile', 'agentId', 'agentName', 'branchId', 'branchName');
      return f && { kind: 'behavior', ...f };
    }
    case 'topic': {
      const f = read('profile', 'agentId', 'agentName', 'branchId', 'branchName', 'topicId', 'topicName');
      return f && { kind: 'topic', ...f };
    }
    case 'realtimeConfig': {
      const f = read('profile', 'agentId', 'agentName', 'config');
      return f && { kind: 'realtimeConfig', ...f };
    }
    default:
      return undefined;
  }
}

/** Which side of a checked-out file a mirror document shows. */
export type MirrorSide = 'base' | 'remote' | 'local';
const MIRROR_SIDES: readonly string[] = ['base', 'remote', 'local'] satisfies MirrorSide[];

/** One side of a file of a checked-out agent folder: the folder (absolute), the file (relative to it) and the side. */
export interface MirrorRef {
  side: MirrorSide;
  folder: string;
  path: string;
}

/** A file path inside an agent folder that the mirror owns: behavior.md, knowledge/<name>.md, realtime/<name>.json. */
function isMirroredPath(path: string): boolean {
  return (
    (path === 'behavior.md' || /^knowledge\/[^/\\]+\.md$/.test(path) || /^realtime\/[^/\\]+\.json$/.test(path)) &&
    !path.split('/').some((part) => part === '..' || part === '.')
  );
}

/** The address of one side of a checked-out file; the tab shows the folder's name, the file and the side. */
export function mirrorDocumentUri(ref: MirrorRef): UriParts {
  const folderName = ref.folder.split(/[/\\]/).filter(Boolean).at(-1) ?? 'agent';
  return {
    scheme: Scheme.mirror,
    path: `/${segment(folderName)}/${ref.path.split('/').map(segment).join('/')}`,
    query: new URLSearchParams({ side: ref.side, folder: ref.folder, path: ref.path }).toString(),
  };
}

/** What a mirror document's address stands for, or undefined when it is not one this extension made. */
export function parseMirrorDocumentUri(uri: Pick<UriParts, 'scheme' | 'query'>): MirrorRef | undefined {
  if (uri.scheme !== Scheme.mirror) return undefined;
  const params = new URLSearchParams(uri.query);
  const side = params.get('side');
  const folder = params.get('folder');
  const path = params.get('path');
  if (!side || !MIRROR_SIDES.includes(side) || !folder || !path) return undefined;
  // An absolute folder, and a path the mirror owns: nothing else of the disk is ever read through this scheme.
  if (!(folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder)) || !isMirroredPath(path)) return undefined;
  return { side: side as MirrorSide, folder, path };
}
