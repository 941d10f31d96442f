import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_PROFILE_ID } from '../../client/profile';
import { AGENT_MANIFEST, type AgentManifest, parseAgentManifest } from '../../workspace/agentManifest';
import { requireClients, requireModel } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import type { Connection } from '../connection/connection';
import type { FolderSync } from '../connection/folderSync';
import type { ProfileModels } from '../model/profileModels';
import type { PushReport } from '../../workspace/mirror';

/** A checked-out agent folder of the Local profile. */
export interface LocalFolder {
  readonly root: string;
  readonly manifest: AgentManifest;
}

/** What the run does after the question: go on (after pushing and publishing, or as is), or not run at all. */
export type Prepared = { readonly go: true } | { readonly go: false; readonly error?: string };

/**
 * Before a run on the local platform: the agent folders whose tests/ hold the cases (checked out with the Local
 * profile) can be pushed and main published to the local sandbox first, so a case tests what the files say now.
 * Asked once for the whole run, and only when a folder has edits to push or sandbox does not serve its main as it
 * is. A folder on another branch is pushed only (publish serves main).
 */
export async function pushAndPublishFirst(
  testFiles: readonly vscode.Uri[],
  connection: Connection,
  models: ProfileModels<object>,
  sync: FolderSync,
  output: (text: string) => void,
): Promise<Prepared> {
  const all = foldersOf(testFiles);
  if (all.length === 0) return { go: true };
  if (connection.profiles.active?.id !== LOCAL_PROFILE_ID) {
    output(
      vscode.l10n.t(
        'Not pushed before the run: {0} (the Local connection profile is not the one in use).',
        all.map((f) => f.manifest.name).join(', '),
      ) + '\n',
    );
    return { go: true };
  }
  const folders = await behind(all, models, sync);
  if (folders.length === 0) return { go: true };
  const answer = await askPushAndPublish(
    vscode.l10n.t(
      'Push {0} and publish to the local sandbox before the run?',
      folders.map((f) => f.manifest.name).join(', '),
    ),
    vscode.l10n.t(
      "The cases then test what the files say now: each folder's edits are pushed to its branch, and main is published to sandbox, which the local platform's Chat API serves.",
    ),
  );
  if (answer === undefined) return { go: false };
  if (answer === 'asIs') return { go: true };
  return pushAndPublish(folders, connection, models, sync, output);
}

/** Asks whether to push and publish first: `push`, `asIs` (run what the sandbox serves), or undefined (dismissed). */
export async function askPushAndPublish(question: string, detail: string): Promise<'push' | 'asIs' | undefined> {
  const push = vscode.l10n.t('Push and Publish');
  const asIs = vscode.l10n.t('Run As Is');
  const answer = await prompts.ask(question, { detail }, push, asIs);
  return answer === push ? 'push' : answer === asIs ? 'asIs' : undefined;
}

/**
 * Pushes each folder (its edits, to its branch, through its Source Control queue) and publishes main to the local
 * sandbox, without asking: the question was asked already (before a run, or once for a continuous run).
 */
export async function pushAndPublish(
  folders: readonly LocalFolder[],
  connection: Connection,
  models: ProfileModels<object>,
  sync: FolderSync,
  output: (text: string) => void,
): Promise<Prepared> {
  if (requireClients(connection).profile.id !== LOCAL_PROFILE_ID)
    return {
      go: false,
      error: vscode.l10n.t('Switch to the Local connection profile to push and publish to the local sandbox.'),
    };
  for (const { root, manifest } of folders) {
    // Pushed as Push in Source Control pushes: the folder's queue, the same questions, its view and the model told.
    const folder = await sync.folderAt(root);
    if (!(await sync.errorsToCarry(folder))) return { go: false, error: sync.notPushedForErrors(folder) };
    let report: PushReport | undefined;
    try {
      report = await sync.pushAsked(folder);
    } catch (err) {
      return { go: false, error: notPushed(manifest.name, err instanceof Error ? err.message : String(err)) };
    }
    if (!report)
      return {
        go: false,
        error: notPushed(manifest.name, vscode.l10n.t('overwriting the branch on the platform was not chosen.')),
      };
    if (report.refused.length > 0)
      return {
        go: false,
        error: notPushed(manifest.name, report.refused.map((r) => r.message).join(' ')),
      };
    output(
      vscode.l10n.t('Pushed {0} ({1}): {2} change(s).', manifest.name, manifest.branch.name, report.sent.length) + '\n',
    );
    if (manifest.branch.name !== 'main') {
      output(
        vscode.l10n.t(
          '{0} is on branch {1}: publishing serves main, so merge the branch into main to test it on sandbox.',
          manifest.name,
          manifest.branch.name,
        ) + '\n',
      );
      continue;
    }
    // Through the model, as Publish does: the Agents view and the chart show it, and the deployment is kept.
    const result = await requireModel(models)
      .agents.agent(manifest.agentId)
      .publish('sandbox', vscode.l10n.t('Published before a conversation test run'));
    const version = result.deployment?.version;
    output(
      (version
        ? vscode.l10n.t('Published {0} to the local sandbox (version {1}).', manifest.name, version)
        : vscode.l10n.t('Published {0} to the local sandbox.', manifest.name)) + '\n',
    );
  }
  return { go: true };
}

function notPushed(agentName: string, why: string): string {
  return vscode.l10n.t('{0} was not pushed, so the cases were not run: {1}', agentName, why);
}

/**
 * The folders a push and publish would change: edits to push, or (on main) a sandbox that serves nothing yet or a
 * version older than main. A folder whose state cannot be read counts as behind, so the question is still asked.
 */
export async function behind(
  folders: readonly LocalFolder[],
  models: ProfileModels<object>,
  sync: FolderSync,
): Promise<LocalFolder[]> {
  const agents = requireModel(models).agents;
  const out: LocalFolder[] = [];
  for (const folder of folders) {
    const { root, manifest } = folder;
    const edited = await sync
      .folderAt(root)
      .then((f) => sync.status(f))
      .then((files) => files.some((f) => f.local !== 'none'))
      .catch(() => true);
    const stale =
      !edited &&
      manifest.branch.name === 'main' &&
      (await agents
        .agent(manifest.agentId)
        .served('sandbox')
        .then((served) => !served.serving || served.mainChangedAfter !== undefined)
        .catch(() => true));
    if (edited || stale) out.push(folder);
  }
  return out;
}

/** The checked-out agent folders (the Local profile's) holding the test files in their tests/, each once. */
export function foldersOf(testFiles: readonly vscode.Uri[]): LocalFolder[] {
  const seen = new Map<string, LocalFolder>();
  for (const uri of testFiles) {
    const root = path.dirname(path.dirname(uri.fsPath));
    if (seen.has(root)) continue;
    const file = path.join(root, AGENT_MANIFEST);
    if (!existsSync(file)) continue;
    let manifest: AgentManifest | undefined;
    try {
      manifest = parseAgentManifest(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (manifest?.profile === LOCAL_PROFILE_ID) seen.set(root, { root, manifest });
  }
  return [...seen.values()];
}
