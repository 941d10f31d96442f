import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RecordedConversation } from '../../agentTests/fromConversation';
import { AGENT_MANIFEST, parseAgentManifest } from '../../workspace/agentManifest';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import type { ModelKeys } from './modelKey';
import { choiceLabel, modelSettings } from './modelSettings';
import { languageModelOf } from './testModels';

/** Where a case made from a conversation was written: the file, the case's name and the line its name is on. */
export interface SavedTest {
  readonly uri: vscode.Uri;
  readonly caseName: string;
  readonly line: number;
}

interface AgentFolder {
  readonly root: vscode.Uri;
  readonly agentId: string;
  readonly name: string;
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/;

/**
 * Writes a conversation as a new case into a test file of an agent folder's tests/ (a new file the person names, or
 * one they pick, appended to), never over a file or case that is there, and opens the file at the new case.
 */
export async function saveConversationAsTest(
  recorded: RecordedConversation,
  agentId: string | undefined,
  keys?: ModelKeys,
): Promise<SavedTest | undefined> {
  let conversation = recorded;
  const folder = await pickAgentFolder(agentId);
  if (!folder) return undefined;
  const testsDir = vscode.Uri.joinPath(folder.root, 'tests');
  const existing = (await vscode.workspace.findFiles(new vscode.RelativePattern(testsDir, '*.{yaml,yml}'))).sort(
    (a, b) => a.fsPath.localeCompare(b.fsPath),
  );
  const newFile = { label: vscode.l10n.t('$(new-file) New test file…'), uri: undefined };
  const chosen = await prompts.pick(
    [newFile, ...existing.map((uri) => ({ label: path.basename(uri.fsPath), description: 'tests/', uri }))],
    {
      title: vscode.l10n.t('Save as Test: the file of {0}', folder.name),
      placeHolder: vscode.l10n.t('Add the case to'),
    },
  );
  if (!chosen) return undefined;
  const uri = chosen.uri ?? (await askNewFile(testsDir));
  if (!uri) return undefined;
  // A file open in the editor is read and written there, so its unsaved edits are kept.
  const open = chosen.uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const before = open
    ? open.getText()
    : chosen.uri
      ? new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))
      : undefined;
  const taken =
    before === undefined
      ? []
      : agentTestsRuntime()
          .parseTestFile(uri.fsPath, before)
          .cases.map((c) => c.name);
  const suggested = uniqueName(
    conversation.conversationId
      ? vscode.l10n.t('Conversation {0}', conversation.conversationId)
      : vscode.l10n.t('From chat'),
    taken,
  );
  const caseName = await prompts.input({
    title: vscode.l10n.t('Save as Test: the case'),
    prompt: vscode.l10n.t('The name of the new case'),
    value: suggested,
    validateInput: (v) =>
      !v.trim()
        ? vscode.l10n.t('Give the case a name.')
        : taken.includes(v.trim())
          ? vscode.l10n.t('The file already has a case named "{0}".', v.trim())
          : undefined,
  });
  if (!caseName?.trim()) return undefined;
  const name = caseName.trim();
  const runtime = agentTestsRuntime();
  if (keys) conversation = await offerDraft(conversation, keys);
  let text: string;
  if (before === undefined) {
    // Never over a file that appeared meanwhile.
    if (await exists(uri))
      throw new UserFacingError(
        vscode.l10n.t('{0} exists already: pick it to add the case to it.', path.basename(uri.fsPath)),
      );
    text = runtime.newTestFile(folder.agentId, name, conversation);
  } else {
    const appended = runtime.appendCase(before, name, conversation);
    if ('problem' in appended) throw new UserFacingError(`${path.basename(uri.fsPath)}: ${appended.problem}`);
    text = appended.text;
  }
  if (open) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, open.lineCount, 0), text);
    if (!(await vscode.workspace.applyEdit(edit)) || !(await open.save()))
      throw new UserFacingError(vscode.l10n.t('{0} could not be written.', path.basename(uri.fsPath)));
  } else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const made = runtime.parseTestFile(uri.fsPath, text).cases.find((c) => c.name === name);
  const line = made?.nameRange.startLine ?? 0;
  const editor = await vscode.window.showTextDocument(uri, {
    selection: new vscode.Range(line, made?.nameRange.startCharacter ?? 0, line, made?.nameRange.endCharacter ?? 0),
  });
  editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return { uri, caseName: name, line };
}

/** Where a file of cases was written, and how many cases it holds. */
export interface SavedCases {
  readonly uri: vscode.Uri;
  readonly count: number;
}

/**
 * Writes a whole file of cases (a replay's group) as a new file of an agent folder's tests/, named by `nameOf` among
 * the names taken there, never over a file that is there, and opens it. `textOf` is given the folder's agent id.
 */
export async function saveCasesFile(
  agentId: string | undefined,
  nameOf: (taken: readonly string[]) => string,
  textOf: (agentId: string) => string,
): Promise<SavedCases | undefined> {
  const folder = await pickAgentFolder(agentId);
  if (!folder) return undefined;
  const testsDir = vscode.Uri.joinPath(folder.root, 'tests');
  const taken = (await vscode.workspace.findFiles(new vscode.RelativePattern(testsDir, '*'))).map((u) =>
    path.basename(u.fsPath),
  );
  const uri = vscode.Uri.joinPath(testsDir, nameOf(taken));
  if (await exists(uri))
    throw new UserFacingError(vscode.l10n.t('{0} exists already: nothing was written.', path.basename(uri.fsPath)));
  const text = textOf(folder.agentId);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const count = agentTestsRuntime().parseTestFile(uri.fsPath, text).cases.length;
  await vscode.window.showTextDocument(uri, { preview: false });
  return { uri, count };
}

/**
 * With a model chosen for judged tests, offers to draft `expect:` criteria from the recorded answers, for the person
 * to edit; the conversation as it was when they decline or the model fails (said to them, the case still saved).
 */
async function offerDraft(conversation: RecordedConversation, keys: ModelKeys): Promise<RecordedConversation> {
  const { choice } = modelSettings();
  if (choice.kind === 'none' || (conversation.turns.length === 0 && conversation.greeting === undefined))
    return conversation;
  const draft = vscode.l10n.t('Draft expect:');
  const answer = await prompts.ask(
    vscode.l10n.t('Draft expect: criteria from the answers with {0}?', choiceLabel(choice)),
    {
      detail: vscode.l10n.t(
        'One model call. The criteria are judged by the model when the case runs: edit them to what each answer must mean.',
      ),
      closeLabel: vscode.l10n.t('Without'),
    },
    draft,
  );
  if (answer !== draft) return conversation;
  try {
    const model = await languageModelOf(choice, keys);
    return await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Drafting expect: criteria…'),
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return agentTestsRuntime().draftExpectations(model, conversation, abort.signal);
      },
    );
  } catch (err) {
    void prompts.warn(
      vscode.l10n.t(
        'No expect: criteria were drafted ({0}); the case is saved with its contains: checks.',
        err instanceof Error ? err.message : String(err),
      ),
    );
    return conversation;
  }
}

/** The checked-out folder of the agent (agent.json); the person picks when there are several, or it is not known. */
async function pickAgentFolder(agentId: string | undefined): Promise<AgentFolder | undefined> {
  const manifests = await vscode.workspace.findFiles(`**/${AGENT_MANIFEST}`, '**/node_modules/**');
  const folders: AgentFolder[] = [];
  for (const uri of manifests) {
    const manifest = parseAgentManifest(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    if (manifest)
      folders.push({ root: vscode.Uri.joinPath(uri, '..'), agentId: manifest.agentId, name: manifest.name });
  }
  const own = agentId ? folders.filter((f) => f.agentId === agentId) : folders;
  if (own.length === 0)
    throw new UserFacingError(
      agentId
        ? vscode.l10n.t(
            'No folder of agent {0} is checked out in this workspace: Check Out the agent, then save the test.',
            agentId,
          )
        : vscode.l10n.t('No agent folder is checked out in this workspace: Check Out the agent, then save the test.'),
    );
  if (own.length === 1) return own[0];
  const picked = await prompts.pick(
    own.map((f) => ({ label: f.name, description: vscode.workspace.asRelativePath(f.root), folder: f })),
    { title: vscode.l10n.t('Save as Test: the agent folder') },
  );
  return picked?.folder;
}

async function askNewFile(testsDir: vscode.Uri): Promise<vscode.Uri | undefined> {
  const fileOf = (v: string) =>
    vscode.Uri.joinPath(testsDir, /\.ya?ml$/i.test(v.trim()) ? v.trim() : `${v.trim()}.yaml`);
  const typed = await prompts.input({
    title: vscode.l10n.t('Save as Test: a new file in tests/'),
    prompt: vscode.l10n.t('The name of the new test file'),
    value: 'conversations.yaml',
    validateInput: async (v) =>
      !FILE_NAME.test(v.trim())
        ? vscode.l10n.t('Use letters, digits, spaces, dots, dashes and underscores.')
        : (await exists(fileOf(v)))
          ? vscode.l10n.t(
              '{0} exists already: pick it in the list to add the case to it.',
              path.basename(fileOf(v).fsPath),
            )
          : undefined,
  });
  return typed?.trim() ? fileOf(typed) : undefined;
}

function uniqueName(base: string, taken: readonly string[]): string {
  let name = base;
  for (let i = 2; taken.includes(name); i++) name = `${base} (${i})`;
  return name;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
