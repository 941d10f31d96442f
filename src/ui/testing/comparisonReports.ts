import * as vscode from 'vscode';
import { ENVIRONMENTS, type Environment } from '../../contract/common';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { prompts } from '../common/prompts';
import { Command } from '../ids';

/** The environment a promotion from `from` goes to, if any. */
export function environmentAfter(from: string): Environment | undefined {
  const at = (ENVIRONMENTS as readonly string[]).indexOf(from);
  return at >= 0 ? ENVIRONMENTS[at + 1] : undefined;
}

/** Asks the two environments of a comparison: the candidate (the one in use first), then the base it is compared with. */
export async function askEnvironments(
  inUse: string,
): Promise<{ candidate: Environment; base: Environment } | undefined> {
  const items = (first: string | undefined, but?: Environment) =>
    [...ENVIRONMENTS]
      .filter((e) => e !== but)
      .sort((a, b) => (a === first ? -1 : b === first ? 1 : 0))
      .map((e) => ({ label: e, environment: e }));
  const candidate = await prompts.pick(items(inUse), {
    title: vscode.l10n.t('Compare Two Environments (1/2)'),
    placeHolder: vscode.l10n.t('The candidate: the environment being tried'),
  });
  if (!candidate) return undefined;
  const base = await prompts.pick(items(environmentAfter(candidate.environment), candidate.environment), {
    title: vscode.l10n.t('Compare Two Environments (2/2)'),
    placeHolder: vscode.l10n.t('The base: what {0} is compared with (what a promotion would replace)', candidate.label),
  });
  return base && { candidate: candidate.environment, base: base.environment };
}

/** Opens a report not kept anywhere yet: an untitled Markdown document, shown as its preview beside. */
export async function openComparisonReport(markdown: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
  await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
}

/** Where kept reports live in a workspace folder: one file per deployment a promotion made, reviewable in git. */
export const COMPARISONS_FOLDER = '.agent-workbench/comparisons';

/**
 * The comparison reports kept with the deployments promotions made: `.agent-workbench/comparisons/<agent id>/<deployment
 * id>.md` in the first workspace folder. Known at once (the Agents view marks the deployments that have one) and kept
 * current as files come and go.
 */
export class ComparisonReports extends Disposable {
  private readonly known = new Set<string>();
  /** The folder is searched the first time a deployment is shown, never at activation. */
  private scanned = false;
  private readonly _onDidChange = this.register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor() {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${COMPARISONS_FOLDER}/*/*.md`));
    this.register(watcher.onDidCreate((uri) => this.seen(uri, true)));
    this.register(watcher.onDidDelete((uri) => this.seen(uri, false)));
  }

  private keyOf(uri: vscode.Uri): string | undefined {
    const parts = uri.path.split('/');
    const file = parts.at(-1);
    const agent = parts.at(-2);
    return file?.endsWith('.md') && agent ? `${agent}/${file.slice(0, -3)}` : undefined;
  }

  private seen(uri: vscode.Uri, present: boolean): void {
    const key = this.keyOf(uri);
    if (!key || this.known.has(key) === present) return;
    if (present) this.known.add(key);
    else this.known.delete(key);
    this._onDidChange.fire();
  }

  private async scan(): Promise<void> {
    const found = await vscode.workspace.findFiles(`${COMPARISONS_FOLDER}/*/*.md`);
    for (const uri of found) {
      const key = this.keyOf(uri);
      if (key) this.known.add(key);
    }
    if (found.length > 0) this._onDidChange.fire();
  }

  has(agentId: string, deploymentId: string): boolean {
    if (!this.scanned) {
      this.scanned = true;
      void this.scan();
    }
    return this.known.has(`${fileName(agentId)}/${fileName(deploymentId)}`);
  }

  /** Where the report of a deployment is kept, or would be: undefined without a workspace folder. */
  uriOf(agentId: string, deploymentId: string): vscode.Uri | undefined {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    return root && vscode.Uri.joinPath(root, COMPARISONS_FOLDER, fileName(agentId), `${fileName(deploymentId)}.md`);
  }

  /** Keeps a report with a deployment; resolves where, or undefined (no folder open: nowhere to keep it). */
  async keep(agentId: string, deploymentId: string, markdown: string): Promise<vscode.Uri | undefined> {
    const uri = this.uriOf(agentId, deploymentId);
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(markdown));
    this.seen(uri, true);
    return uri;
  }

  /** Opens the kept report of a deployment, rendered; false when none is kept. */
  async open(agentId: string, deploymentId: string): Promise<boolean> {
    const uri = this.uriOf(agentId, deploymentId);
    if (!uri) return false;
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return false;
    }
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    return true;
  }
}

/** An id as a file name: ids are slugs, but nothing from a platform becomes a path as it is. */
function fileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_');
}

/** Open Comparison Report, on a deployment of the Agents view that has one kept. */
export function registerComparisonReportCommand(reports: ComparisonReports): vscode.Disposable {
  return vscode.commands.registerCommand(Command.openComparisonReport, async (node?: unknown) => {
    const of = deploymentOf(node);
    if (!of) {
      void prompts.info(vscode.l10n.t('Open Comparison Report from a deployment in the Agents view.'));
      return;
    }
    if (!(await reports.open(of.agentId, of.deploymentId)))
      void prompts.info(
        vscode.l10n.t(
          'No comparison is kept with deployment {0}: Promote keeps one in {1} when it compares first.',
          of.deploymentId,
          COMPARISONS_FOLDER,
        ),
      );
  });
}

/** The agent and deployment of an Agents view deployment row (`agentNode.agent`, `deployment`), or of `{agentId, deploymentId}`. */
function deploymentOf(node: unknown): { agentId: string; deploymentId: string } | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const row = node as { agentNode?: { agent?: { agentId?: unknown } }; deployment?: { id?: unknown } };
  const plain = node as { agentId?: unknown; deploymentId?: unknown };
  const agentId = row.agentNode?.agent?.agentId ?? plain.agentId;
  const deploymentId = row.deployment?.id ?? plain.deploymentId;
  return typeof agentId === 'string' && typeof deploymentId === 'string' ? { agentId, deploymentId } : undefined;
}
