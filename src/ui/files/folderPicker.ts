import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_MANIFEST, type AgentManifest, parseAgentManifest } from '../../workspace/agentManifest';
import { requireClients, UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import type { Connection } from '../connection/connection';
import { BranchNode } from '../explorer/agents/agentNodes';
import type { AgentFolders } from './agentFolders';

/**
 * What the commands on checked-out agent folders act on: a folder (its path, a Uri of it or of its
 * agent.json, or the Source Control provider whose root it is), a branch of the Agents view, or
 * nothing (the palette: the folder is found, or asked).
 */
export type FolderArg =
  string | vscode.Uri | { folder: string } | { rootUri?: vscode.Uri } | BranchRef | BranchNode | undefined;

/** A branch named by ids (another command hands one over, such as Publish after a refused branch merge). */
export interface BranchRef {
  agentId: string;
  branchId: string;
}

export function isBranchRef(arg: unknown): arg is BranchRef {
  return (
    typeof arg === 'object' &&
    arg !== null &&
    typeof (arg as BranchRef).agentId === 'string' &&
    typeof (arg as BranchRef).branchId === 'string'
  );
}

export interface PickedFolder {
  folder: string;
  manifest: AgentManifest;
}

async function readManifest(folder: string): Promise<AgentManifest | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(path.join(folder, AGENT_MANIFEST)));
    return parseAgentManifest(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function folderPathOf(arg: FolderArg): string | undefined {
  if (arg === undefined || arg instanceof BranchNode || isBranchRef(arg)) return undefined;
  if (typeof arg === 'string') return arg;
  const uri = arg instanceof vscode.Uri ? arg : 'folder' in arg ? vscode.Uri.file(arg.folder) : arg.rootUri;
  if (!uri) return undefined;
  return path.basename(uri.fsPath) === AGENT_MANIFEST ? path.dirname(uri.fsPath) : uri.fsPath;
}

/** Finds the checked-out agent folders a command acts on, for the connection profile in use. */
export class FolderPicker {
  constructor(
    private readonly connection: Connection,
    /** The one index of the workspace's agent folders (the Source Control provider and the Agents view read it too). */
    private readonly index: AgentFolders,
  ) {}

  private activeProfile(): string {
    return requireClients(this.connection).profile.id;
  }

  /** Every checked-out agent folder of the workspace for the profile in use (of one agent, if given), the active editor's first. */
  async inWorkspace(agentId?: string): Promise<PickedFolder[]> {
    const profile = this.activeProfile();
    await this.index.scan();
    const found = this.index.list().map((f) => ({ folder: f.root, manifest: f.manifest }));
    const active = vscode.window.activeTextEditor?.document.uri.fsPath;
    const inActive = (f: PickedFolder): boolean => active?.startsWith(f.folder + path.sep) ?? false;
    return found
      .filter((f) => f.manifest.profile === profile)
      .filter((f) => agentId === undefined || f.manifest.agentId === agentId)
      .sort((a, b) => Number(inActive(b)) - Number(inActive(a)) || a.folder.localeCompare(b.folder));
  }

  /** The folder a command acts on: the one given (checked to be an agent folder of this profile), or found, or asked. */
  async resolve(arg: FolderArg, placeHolder: string): Promise<PickedFolder | undefined> {
    const given = folderPathOf(arg);
    if (given !== undefined) {
      const manifest = await readManifest(given);
      if (!manifest)
        throw new UserFacingError(
          vscode.l10n.t(
            '{0} is not a checked-out agent folder: it has no readable {1}.',
            vscode.workspace.asRelativePath(given),
            AGENT_MANIFEST,
          ),
        );
      if (manifest.profile !== this.activeProfile())
        throw new UserFacingError(
          vscode.l10n.t(
            'This folder belongs to the connection profile "{0}": switch to it to work with {1}.',
            manifest.profile,
            manifest.name,
          ),
        );
      return { folder: given, manifest };
    }
    const agentId = arg instanceof BranchNode ? arg.agentNode.agent.agentId : undefined;
    const candidates = await this.inWorkspace(agentId);
    if (candidates.length === 0)
      throw new UserFacingError(
        arg instanceof BranchNode
          ? vscode.l10n.t(
              'No folder of the workspace holds {0}: check it out first (Agent Workbench: Check Out).',
              arg.agentNode.agent.name,
            )
          : vscode.l10n.t('The workspace has no checked-out agent folder: check an agent out first.'),
      );
    if (candidates.length === 1) return candidates[0];
    const pick = await prompts.pick(
      candidates.map((f) => ({
        label: vscode.workspace.asRelativePath(f.folder),
        description: `${f.manifest.name} · ${f.manifest.branch.name}`,
        f,
      })),
      { placeHolder },
    );
    return pick?.f;
  }
}
