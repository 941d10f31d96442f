// Set Up Assistant Tools: the MCP server of the extension's own command line in an assistant's configuration
// (.vscode/mcp.json merged for VS Code; Claude Code's and Cursor's copied with the extension's own path), and the
// editor saying which local platform it runs, so that the server uses that one.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { announcedLocalPlatforms } from '../../src/client/localPlatformDiscovery';
import { activateExtension, startLocalPlatformInEditor } from '../support/editor/extension';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { until } from '../support/until';

/** JSON with comments and trailing commas, as VS Code reads mcp.json. */
const parseJsonc = (text: string): unknown =>
  JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1'));

const EXISTING = `// Servers of this project
{
  "inputs": [{ "type": "promptString", "id": "token", "description": "Token", "password": true }],
  "servers": {
    // the project's own
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
  },
}
`;

suite('Set Up Assistant Tools', function () {
  this.timeout(60_000);
  let ui: ScriptedPrompts;
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const configFile = () => join(root(), '.vscode', 'mcp.json');
  const cli = () =>
    join(vscode.extensions.getExtension('agent-workbench.agent-workbench')!.extensionPath, 'dist', 'cli.js');
  let kept: string | undefined;

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    kept = await readFile(configFile(), 'utf8').catch(() => undefined);
  });
  suiteTeardown(async () => {
    ui?.dispose();
    if (kept === undefined) await rm(configFile(), { force: true });
    else await writeFile(configFile(), kept);
  });

  test("VS Code: .vscode/mcp.json gets a server running the extension's own dist/cli.js mcp --local, and keeps every server, input and comment it had", async () => {
    await mkdir(join(root(), '.vscode'), { recursive: true });
    await writeFile(configFile(), EXISTING);
    ui.setAnswer((s) =>
      s.kind !== 'pick'
        ? undefined
        : s.items.includes('VS Code')
          ? 'VS Code'
          : s.items.includes('Also allow changes')
            ? 'Also allow changes'
            : s.items[0],
    );
    const written = await vscode.commands.executeCommand<string>('agentWorkbench.setUpAssistantTools');
    assert.equal(written, configFile(), ui.lastError());
    // Set up again (after an update of the extension, say): the one entry is replaced, nothing doubles.
    await vscode.commands.executeCommand('agentWorkbench.setUpAssistantTools', {
      assistant: 'vscode',
      allowWrites: false,
    });
    const text = await readFile(configFile(), 'utf8');
    assert.match(text, /^\/\/ Servers of this project\n/);
    assert.match(text, /\/\/ the project's own/);
    const config = parseJsonc(text) as {
      inputs: unknown[];
      servers: Record<string, { type: string; command?: string; args?: string[]; url?: string }>;
    };
    assert.equal(config.inputs.length, 1);
    assert.deepEqual(Object.keys(config.servers), ['github', 'agent-workbench']);
    assert.equal(config.servers.github!.url, 'https://api.githubcopilot.com/mcp/');
    assert.deepEqual(config.servers['agent-workbench'], {
      type: 'stdio',
      command: 'node',
      args: [cli(), 'mcp', '--local', '--workspace', root()],
    });
  });

  test('VS Code: an mcp.json that cannot be read is left as it is, and the message says what to fix', async () => {
    await writeFile(configFile(), '{ "servers": { ');
    await vscode.commands.executeCommand('agentWorkbench.setUpAssistantTools', {
      assistant: 'vscode',
      allowWrites: true,
    });
    assert.match(
      ui.lastError(),
      /mcp\.json could not be read \(.+ at offset \d+\): fix it, .* The file was not changed\./,
    );
    assert.equal(await readFile(configFile(), 'utf8'), '{ "servers": { ');
  });

  test("Claude Code and Cursor: their configuration is copied with the extension's own path to the command line", async () => {
    await vscode.commands.executeCommand('agentWorkbench.setUpAssistantTools', {
      assistant: 'claude',
      allowWrites: true,
    });
    const line = await vscode.env.clipboard.readText();
    assert.ok(
      line.startsWith(`claude mcp add agent-workbench -- node `) && line.includes(`mcp --local --workspace`),
      line,
    );
    assert.ok(line.includes(cli()) || line.includes(`'${cli()}'`), line);
    assert.match(line, /--allow-writes$/);

    await vscode.commands.executeCommand('agentWorkbench.setUpAssistantTools', {
      assistant: 'cursor',
      allowWrites: false,
    });
    const cursor = JSON.parse(await vscode.env.clipboard.readText()) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    assert.deepEqual(cursor.mcpServers['agent-workbench'], {
      command: 'node',
      args: [cli(), 'mcp', '--local', '--workspace', root()],
    });
  });

  test('the editor says which local platform it runs, for the MCP server of its workspace to use', async () => {
    const urls = await startLocalPlatformInEditor();
    const announced = await until(
      'the announcement of the editor’s local platform',
      async () => (await announcedLocalPlatforms(root())).find((a) => a.pid === process.pid),
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    assert.equal(announced.origin, urls.origin);
    assert.ok(announced.workspaceFolders.includes(root()), JSON.stringify(announced));
  });
});
