import * as path from 'node:path';
import { applyEdits, type ParseError, modify, parse, printParseErrorCode } from 'jsonc-parser';
import * as vscode from 'vscode';
import { runCommand, UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';

/** The name the MCP server is set up under in each assistant's configuration. */
export const MCP_SERVER_NAME = 'agent-workbench';

type Assistant = 'vscode' | 'claude' | 'cursor';

/** What the command acts on: asked when not given (tests and links give it). */
export interface SetUpAssistantToolsArg {
  readonly assistant?: Assistant;
  readonly allowWrites?: boolean;
  /** The workspace folder whose .vscode/mcp.json is written (VS Code), or whose agent folders the server reads. */
  readonly folder?: string;
}

/**
 * Set Up Assistant Tools: the MCP server of this extension's own command line (`dist/cli.js mcp --local`, which uses
 * the local platform this editor runs) in an assistant's configuration: written into the workspace's
 * `.vscode/mcp.json` for VS Code, keeping everything the file holds; for Claude Code and Cursor, their configuration
 * with the extension's own path copied to the clipboard.
 */
export function registerSetUpAssistantTools(extensionPath: string): vscode.Disposable {
  const cli = path.join(extensionPath, 'dist', 'cli.js');

  async function setUp(arg: SetUpAssistantToolsArg = {}): Promise<string | undefined> {
    const assistant = arg.assistant ?? (await pickAssistant());
    if (!assistant) return undefined;
    const folder = arg.folder ?? (await pickFolder());
    if (!folder) return undefined;
    const allowWrites = arg.allowWrites ?? (await askWrites());
    if (allowWrites === undefined) return undefined;
    const args = [cli, 'mcp', '--local', '--workspace', folder, ...(allowWrites ? ['--allow-writes'] : [])];
    switch (assistant) {
      case 'vscode':
        return writeVsCodeConfig(folder, args);
      case 'claude':
        return copied(
          ['claude', 'mcp', 'add', MCP_SERVER_NAME, '--', 'node', ...args].map(shellWord).join(' '),
          vscode.l10n.t(
            'Copied the command that adds the Agent Workbench tools to Claude Code: run it in a terminal in {0}.',
            folder,
          ),
        );
      case 'cursor':
        return copied(
          JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { command: 'node', args } } }, null, 2),
          vscode.l10n.t(
            "Copied the Agent Workbench tools' entry for Cursor: paste it into .cursor/mcp.json in {0} (or merge its server into the file's mcpServers).",
            folder,
          ),
        );
    }
  }

  return vscode.commands.registerCommand(Command.setUpAssistantTools, (arg?: SetUpAssistantToolsArg) =>
    runCommand(() => setUp(arg)),
  );
}

/** Puts an assistant's configuration on the clipboard and says where it goes. */
async function copied(text: string, message: string): Promise<string> {
  await vscode.env.clipboard.writeText(text);
  void prompts.info(message);
  return text;
}

async function pickAssistant(): Promise<Assistant | undefined> {
  const items: Array<vscode.QuickPickItem & { assistant: Assistant }> = [
    {
      label: vscode.l10n.t('VS Code'),
      detail: vscode.l10n.t("Adds the server to this workspace's .vscode/mcp.json, keeping what the file holds."),
      assistant: 'vscode',
    },
    {
      label: vscode.l10n.t('Claude Code'),
      detail: vscode.l10n.t('Copies the command that adds the server (claude mcp add) to the clipboard.'),
      assistant: 'claude',
    },
    {
      label: vscode.l10n.t('Cursor'),
      detail: vscode.l10n.t('Copies the entry for .cursor/mcp.json to the clipboard.'),
      assistant: 'cursor',
    },
  ];
  const pick = await prompts.pick(items, {
    title: vscode.l10n.t('Set Up Assistant Tools'),
    placeHolder: vscode.l10n.t('The assistant that gets the Agent Workbench tools over MCP'),
    ignoreFocusOut: true,
  });
  return pick?.assistant;
}

async function pickFolder(): Promise<string | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0)
    throw new UserFacingError(vscode.l10n.t('Open a folder first: the assistant tools work on its agent folders.'));
  if (folders.length === 1) return folders[0]?.uri.fsPath;
  const pick = await prompts.pick(
    folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f.uri.fsPath })),
    { placeHolder: vscode.l10n.t('The workspace folder the assistant works in'), ignoreFocusOut: true },
  );
  return pick?.folder;
}

async function askWrites(): Promise<boolean | undefined> {
  const pick = await prompts.pick(
    [
      {
        label: vscode.l10n.t('Read and try only'),
        detail: vscode.l10n.t(
          'Agents, folders, conversations, tests and checks; the change tools are listed and refused.',
        ),
        allow: false,
      },
      {
        label: vscode.l10n.t('Also allow changes'),
        detail: vscode.l10n.t(
          'Pull, push, publish to sandbox, promote and create branches (--allow-writes); the assistant still asks before each.',
        ),
        allow: true,
      },
    ],
    { placeHolder: vscode.l10n.t('What the assistant may do'), ignoreFocusOut: true },
  );
  return pick?.allow;
}

/** Adds (or updates) the server in `<folder>/.vscode/mcp.json`, keeping the file's other servers, inputs and comments. */
async function writeVsCodeConfig(folder: string, args: readonly string[]): Promise<string> {
  const uri = vscode.Uri.file(path.join(folder, '.vscode', 'mcp.json'));
  const before = await vscode.workspace.fs.readFile(uri).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  const text = before === undefined || before.trim() === '' ? '{}\n' : before;
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
    const problem = errors[0];
    throw new UserFacingError(
      problem
        ? vscode.l10n.t(
            '{0} could not be read ({1} at offset {2}): fix it, then set up the assistant tools again. The file was not changed.',
            uri.fsPath,
            printParseErrorCode(problem.error),
            problem.offset,
          )
        : vscode.l10n.t(
            '{0} does not hold a JSON object: fix it, then set up the assistant tools again. The file was not changed.',
            uri.fsPath,
          ),
    );
  }
  const entry = { type: 'stdio', command: 'node', args };
  const edits = modify(text, ['servers', MCP_SERVER_NAME], entry, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const after = applyEdits(text, edits);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(after.endsWith('\n') ? after : `${after}\n`));
  const open = vscode.l10n.t('Open mcp.json');
  void prompts
    .info(
      vscode.l10n.t(
        'The Agent Workbench tools are set up for VS Code in {0} as server "{1}": start it from the file or the MCP servers list. It uses the local platform this editor runs.',
        uri.fsPath,
        MCP_SERVER_NAME,
      ),
      open,
    )
    .then((choice) => (choice === open ? vscode.window.showTextDocument(uri) : undefined));
  return uri.fsPath;
}

/** A word for a POSIX shell: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
