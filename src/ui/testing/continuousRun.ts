import * as vscode from 'vscode';
import { LOCAL_PROFILE_ID } from '../../client/profile';
import type { AgentManifest } from '../../workspace/agentManifest';
import { askPushAndPublish, type LocalFolder, type Prepared } from './localSandbox';

/** A save to follow: the checked-out agent folder it is in, or the test file whose cases it changed. */
export interface SavedIn {
  readonly root: string;
  readonly manifest: AgentManifest;
}

/** What a continuous run needs of the Testing view. */
export interface FollowSupport {
  /** The checked-out agent folder holding a saved file; undefined for a file in none. */
  folderOf(uri: vscode.Uri): Promise<SavedIn | undefined>;
  /** The watched cases of these agents (the person's choice, or every case when they chose none), as the files say now. */
  casesOf(agentIds: ReadonlySet<string>, testFiles: readonly vscode.Uri[]): Promise<vscode.TestItem[]>;
  /** Whether a folder has something to push or to publish (its edits, or a sandbox behind its main). */
  behind(folders: readonly LocalFolder[]): Promise<LocalFolder[]>;
  /** Pushes the folders and publishes main to the local sandbox, without asking. */
  pushAndPublish(folders: readonly LocalFolder[], output: (text: string) => void): Promise<Prepared>;
  /** One run of the cases; `prepare` is done first, inside the run (its output is the run's). */
  run(
    items: vscode.TestItem[],
    token: vscode.CancellationToken,
    prepare: (output: (text: string) => void) => Promise<Prepared>,
  ): Promise<void>;
  /** Whether a saved document is a conversation test file. */
  isTestFile(doc: vscode.TextDocument): boolean;
}

/** Saves within this time are one change (Save All, a formatter saving after the person). */
const SETTLE_MS = 300;

/**
 * A continuous run of the local platform's profile: each save of a file in a checked-out agent folder pushes the
 * folder to its branch and publishes main to the local sandbox (asked once for the whole continuous run, and only when
 * there is something to push), then runs the watched cases of that agent again; a saved test file runs its own
 * watched cases again. The results replace the last ones in place, as each cycle is a run of its own. A save during a
 * cycle cancels its conversations (they are closed) and starts a new cycle once that one has stopped; a push is never
 * cancelled half way, and what it sent is not sent again, as the next push sends only what changed since.
 * Resolves when the person turns the continuous run off.
 */
export async function followSaves(support: FollowSupport, token: vscode.CancellationToken): Promise<void> {
  const pending = new Map<string, SavedIn>();
  const pendingTests = new Map<string, vscode.Uri>();
  let settle: ReturnType<typeof setTimeout> | undefined;
  let cycle: { readonly cancel: vscode.CancellationTokenSource; readonly done: Promise<void> } | undefined;
  /** The answer to "push and publish on every save?", once given. */
  let agreed: 'push' | 'asIs' | undefined;
  let wake: (() => void) | undefined;

  const saved = vscode.workspace.onDidSaveTextDocument(async (doc) => {
    if (doc.uri.scheme !== 'file') return;
    const folder = await support.folderOf(doc.uri);
    const isTest = support.isTestFile(doc);
    if (!folder && !isTest) return;
    if (folder) pending.set(folder.root, folder);
    if (isTest) pendingTests.set(doc.uri.toString(), doc.uri);
    // A cycle still talking to the agent tests what is no longer there: it is stopped, and its conversations closed.
    cycle?.cancel.cancel();
    clearTimeout(settle);
    settle = setTimeout(() => wake?.(), SETTLE_MS);
  });

  const ask = async (folders: readonly LocalFolder[]): Promise<'push' | 'asIs' | undefined> => {
    if (agreed) return agreed;
    agreed = await askPushAndPublish(
      vscode.l10n.t(
        'Push {0} and publish to the local sandbox on every save while this continuous run is on?',
        folders.map((f) => f.manifest.name).join(', '),
      ),
      vscode.l10n.t(
        "Asked once for this continuous run. The watched cases then test what the files say: each saved folder's edits are pushed to its branch, and main is published to sandbox, before they run again.",
      ),
    );
    return agreed;
  };

  try {
    while (!token.isCancellationRequested) {
      await new Promise<void>((resolve) => {
        const off = token.onCancellationRequested(() => resolve());
        wake = () => {
          off.dispose();
          resolve();
        };
      });
      if (token.isCancellationRequested) break;
      // The cycle a save stopped ends (its conversations closed) before the next one starts.
      await cycle?.done;
      const folders = [...pending.values()];
      const testFiles = [...pendingTests.values()];
      pending.clear();
      pendingTests.clear();
      const agentIds = new Set(folders.map((f) => f.manifest.agentId));
      const items = await support.casesOf(agentIds, testFiles);
      const local = folders.filter((f) => f.manifest.profile === LOCAL_PROFILE_ID);
      const cancel = new vscode.CancellationTokenSource();
      const stop = token.onCancellationRequested(() => cancel.cancel());
      const prepare = async (output: (text: string) => void): Promise<Prepared> => {
        const toPush = local.length ? await support.behind(local) : [];
        if (toPush.length === 0) return { go: true };
        const answer = await ask(toPush);
        if (answer === undefined) return { go: false };
        if (answer === 'asIs') return { go: true };
        return support.pushAndPublish(toPush, output);
      };
      // A save in a folder none of whose cases is watched is not pushed: the run follows what the person watches.
      const done =
        items.length === 0
          ? Promise.resolve()
          : support.run(items, cancel.token, prepare).finally(() => {
              stop.dispose();
              cancel.dispose();
            });
      cycle = { cancel, done };
    }
  } finally {
    saved.dispose();
    clearTimeout(settle);
    cycle?.cancel.cancel();
    await cycle?.done.catch(() => undefined);
  }
}
