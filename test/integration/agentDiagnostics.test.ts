import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { LocalAdmin } from '../support/localAdmin';
import { checkOutSupportMain, editAndSave, supportMainOnPlatform } from '../support/editor/agentFolders';
import { activateExtension, getExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { scriptedPrompts } from '../support/editor/prompts';
import { LINT_CASES } from '../support/lintCases';
import { until } from '../support/until';
import { TEST_KEYS } from '../support/secretsScan';

const SOURCE = 'Agent Workbench';
const MANIFEST = JSON.stringify({
  agentId: 'ag_support',
  name: 'Support Desk',
  profile: 'local',
  branch: { branchId: 'br_support_main', name: 'main' },
});

/** The page a diagnostic's rule id links to: the Markdown file a command link of the Markdown preview opens. */
function rulePage(d: vscode.Diagnostic): vscode.Uri {
  const target = (d.code as { target: vscode.Uri }).target;
  assert.equal(`${target.scheme}:${target.path}`, 'command:markdown.showPreview', target.toString());
  const [page] = (JSON.parse(target.query) as unknown[]).map(revive);
  assert.ok(page instanceof vscode.Uri, target.query);
  return page;
}

/** A command link's argument as the editor hands it to the command: a URI is a URI again. */
function revive(arg: unknown): unknown {
  return arg && typeof arg === 'object' && (arg as { $mid?: unknown }).$mid === 1
    ? vscode.Uri.from(arg as { scheme: string; path: string })
    : arg;
}

const codeOf = (d: vscode.Diagnostic): string => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
const ours = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);

/**
 * The checks of agent folders in the editor: each rule's diagnostic appears as its text is typed (before any save),
 * linked to the rule's page; the quick fixes; severities from the workspace's lint file and the setting; and the
 * command line reporting what the editor shows for the same folder.
 */
suite('Agent folder checks in the editor', function () {
  this.timeout(180_000);
  let root: string;
  let n = 0;

  /** A new agent folder (under its own parent, for a lint file of its own) with these files on disk. */
  async function agentFolder(files: Record<string, string>): Promise<string> {
    const folder = join(root, `case-${n++}`, 'agent');
    for (const [path, text] of Object.entries({ 'agent.json': MANIFEST, ...files })) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), text);
    }
    return folder;
  }

  /** Types a text over a document's whole content, as a person does, without saving. */
  async function typeInto(file: string, text: string): Promise<vscode.TextDocument> {
    if (!existsSync(file)) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, '');
    }
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const whole = new vscode.Range(0, 0, doc.lineCount, 0);
    assert.ok(await editor.edit((b) => b.replace(whole, text)));
    return doc;
  }

  const detailOf = (uri: vscode.Uri) => () =>
    ours(uri)
      .map((d) => `${codeOf(d)}: ${d.message}`)
      .join('; ');
  const waitForRule = (uri: vscode.Uri, ruleId: string): Promise<vscode.Diagnostic> =>
    until(`${ruleId} shown on ${uri.fsPath}`, () => ours(uri).find((d) => codeOf(d) === ruleId), {
      timeoutMs: 30_000,
      intervalMs: 50,
      detail: detailOf(uri),
    });
  const waitForNoRule = (uri: vscode.Uri, ruleId: string): Promise<boolean> =>
    until(`${ruleId} gone from ${uri.fsPath}`, () => !ours(uri).some((d) => codeOf(d) === ruleId), {
      timeoutMs: 30_000,
      intervalMs: 50,
      detail: detailOf(uri),
    });

  suiteSetup(async () => {
    await activateExtension();
    root = await mkdtemp(join(tmpdir(), 'aw-lint-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('agentWorkbench.lint').update('rules', undefined, true);
    await rm(root, { recursive: true, force: true });
  });

  teardown(async () => {
    // Typed text is never saved: close without keeping it.
    for (const doc of vscode.workspace.textDocuments)
      if (doc.isDirty && doc.uri.fsPath.startsWith(root)) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
  });

  for (const [ruleId, c] of Object.entries(LINT_CASES)) {
    test(`${ruleId}: its diagnostic appears as the text is typed, unsaved, linked to the rule's page rendered`, async () => {
      const folder = await agentFolder(c.passes);
      const docs: vscode.TextDocument[] = [];
      for (const [path, text] of Object.entries(c.breaks)) docs.push(await typeInto(join(folder, path), text));
      const shown = await Promise.race(
        docs.map((d) => waitForRule(d.uri, ruleId).then((diagnostic) => ({ diagnostic, doc: d }))),
      );
      assert.ok(
        docs.some((d) => d.isDirty) || Object.keys(c.breaks).some((p) => !(p in c.passes)),
        'the text was typed, not saved',
      );
      const page = rulePage(shown.diagnostic);
      assert.ok(page.path.endsWith(`/docs/rules/${ruleId}.md`), page.toString());
      assert.ok(existsSync(page.fsPath), `${page.fsPath} ships with the extension`);
    });
  }

  test("a rule id's link opens the rule's page rendered in the editor, not its Markdown source", async () => {
    const folder = await agentFolder({});
    const doc = await typeInto(join(folder, 'behavior.md'), 'Say: "Hello there"\n');
    const diagnostic = await waitForRule(doc.uri, 'behavior-scripted-line');
    const target = (diagnostic.code as { target: vscode.Uri }).target;
    // The Problems panel and the hover open the link as the editor opens a command link: its arguments as JSON.
    await vscode.commands.executeCommand(target.path, ...(JSON.parse(target.query) as unknown[]).map(revive));
    const tab = await until('the rendered page', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(active.input.viewType)
        ? active
        : undefined;
    });
    assert.match(tab.label, /behavior-scripted-line\.md/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('file-unreadable: JSON that does not parse, open in the editor, is said once, by the JSON editor; the check still counts it', async () => {
    const folder = await agentFolder({ 'realtime/store.json': '{"open": "09:00"}' });
    const doc = await typeInto(join(folder, 'realtime', 'store.json'), '{\n  "open": "09:00"\n  "close": "17:00"\n}\n');
    const editors = await until('the JSON editor marks the missing comma', () => {
      const theirs = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source !== SOURCE);
      return theirs.length > 0 && theirs;
    });
    assert.ok(
      editors.some((d) => d.range.start.line === 2),
      'the JSON editor marks the line of the missing comma',
    );
    const check = await vscode.commands.executeCommand<{ problems: Array<{ ruleId: string; message: string }> }>(
      'agentWorkbench.checkAgentFolder',
      vscode.Uri.file(folder),
      { quiet: true },
    );
    const unreadable = check.problems.find((p) => p.ruleId === 'file-unreadable');
    assert.match(
      unreadable?.message ?? '',
      /not valid JSON at line 3, column 3: a comma is expected between two entries/,
    );
    assert.deepEqual(
      ours(doc.uri).map((d) => codeOf(d)),
      [],
      'no second message beside the JSON editor',
    );
  });

  test('personal-data: the quick fix marks the line as meant to be public, and the warning goes', async () => {
    const folder = await agentFolder({});
    const doc = await typeInto(
      join(folder, 'knowledge', 'contact.md'),
      '---\nname: Contact\n---\n\nCall the restaurant on +1 415 555 0132.\n',
    );
    assert.equal(
      await applyQuickFix(doc, 'personal-data', /^Mark this line as meant to be public$/),
      '---\nname: Contact\n---\n\nCall the restaurant on +1 415 555 0132. <!-- agent-workbench: public -->\n',
    );
  });

  test("file-ignored-by-push: the conversation tests Save as Test writes (tests/*.yaml) are the folder's own files, not reported", async () => {
    const folder = await agentFolder({
      'tests/conversations.yaml': 'cases:\n  - name: Hours\n    turns:\n      - user: Hi\n        end: false\n',
    });
    const notes = await typeInto(join(folder, 'notes.txt'), 'not part of the agent\n');
    // Once the folder is checked (the note is reported), the test file has nothing of the rule.
    await waitForRule(notes.uri, 'file-ignored-by-push');
    const testFile = vscode.Uri.file(join(folder, 'tests', 'conversations.yaml'));
    assert.deepEqual(detailOf(testFile)(), '');
  });

  /** The quick fix of a rule's diagnostic, applied; resolves with the document's text after it. */
  async function applyQuickFix(doc: vscode.TextDocument, ruleId: string, title: RegExp): Promise<string> {
    const diagnostic = await waitForRule(doc.uri, ruleId);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    // The editor hands the action back without its diagnostics: it is known by the title the rule gives its fix.
    const fix = actions.find((a) => title.test(a.title));
    assert.ok(fix?.edit, `no quick fix for ${ruleId}: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await waitForNoRule(doc.uri, ruleId);
    return doc.getText();
  }

  test('topic-duplicate-name: the quick fix renames the duplicate topic', async () => {
    const folder = await agentFolder({ 'knowledge/a.md': '---\nname: Hours\n---\n\nNine to five.\n' });
    const doc = await typeInto(join(folder, 'knowledge', 'b.md'), '---\nname: Hours\n---\n\nClosed Sundays.\n');
    assert.equal(
      await applyQuickFix(doc, 'topic-duplicate-name', /^Rename the topic to/),
      '---\nname: "Hours (2)"\n---\n\nClosed Sundays.\n',
    );
  });

  test('secret: the quick fix removes a credential of this workspace, leaving no placeholder a voice agent would say, and the value is never shown', async () => {
    await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    const folder = await agentFolder({});
    const doc = await typeInto(join(folder, 'behavior.md'), `Look orders up with ${LOCAL_KEYS.agents}.\n`);
    const diagnostic = await waitForRule(doc.uri, 'secret');
    assert.ok(!diagnostic.message.includes(LOCAL_KEYS.agents), diagnostic.message);
    assert.equal(
      await applyQuickFix(doc, 'secret', /^Remove the credential of this workspace's profiles$/),
      'Look orders up with.\n',
    );
  });

  test('agent-name-length: the quick fix trims the name to 128 characters', async () => {
    const folder = await agentFolder({});
    const long = JSON.stringify({ ...(JSON.parse(MANIFEST) as object), name: `  ${'n'.repeat(140)}` });
    const doc = await typeInto(join(folder, 'agent.json'), long);
    const fixed = JSON.parse(await applyQuickFix(doc, 'agent-name-length', /^Trim the name/)) as { name: string };
    assert.equal(fixed.name, 'n'.repeat(128));
  });

  test('topic-name-empty: the quick fix names the topic after its file', async () => {
    const folder = await agentFolder({});
    const doc = await typeInto(join(folder, 'knowledge', 'opening-hours.md'), '---\nname: ""\n---\n\nNine to five.\n');
    assert.equal(
      await applyQuickFix(doc, 'topic-name-empty', /^Name the topic .* after its file$/),
      '---\nname: "opening-hours"\n---\n\nNine to five.\n',
    );
  });

  test('behavior-scripted-line, behavior-prohibition-only: the lint file changes a severity and turns a rule off; the setting applies on top', async () => {
    const folder = await agentFolder({});
    const doc = await typeInto(join(folder, 'behavior.md'), 'Say: "Hello there"\nNever talk about prices.\n');
    assert.equal((await waitForRule(doc.uri, 'behavior-scripted-line')).severity, vscode.DiagnosticSeverity.Warning);
    await waitForRule(doc.uri, 'behavior-prohibition-only');

    const lintFile = join(dirname(folder), '.agent-workbench', 'lint.json');
    await mkdir(dirname(lintFile), { recursive: true });
    await writeFile(lintFile, '{"rules": {"behavior-scripted-line": "error", "behavior-prohibition-only": "off"}}');
    // The folder is outside the workspace, where no file watcher sees the lint file: Check Agent Folder reads it.
    await vscode.commands.executeCommand('agentWorkbench.checkAgentFolder', vscode.Uri.file(folder), { quiet: true });
    await until('the scripted line as an error', () =>
      ours(doc.uri).some(
        (d) => codeOf(d) === 'behavior-scripted-line' && d.severity === vscode.DiagnosticSeverity.Error,
      ),
    );
    await waitForNoRule(doc.uri, 'behavior-prohibition-only');

    await vscode.workspace
      .getConfiguration('agentWorkbench.lint')
      .update('rules', { 'behavior-scripted-line': 'off' }, vscode.ConfigurationTarget.Global);
    await waitForNoRule(doc.uri, 'behavior-scripted-line');
    await vscode.workspace.getConfiguration('agentWorkbench.lint').update('rules', undefined, true);
    await waitForRule(doc.uri, 'behavior-scripted-line');
  });

  test('the command line reports the same problems as the editor for the same folder', async () => {
    const files: Record<string, string> = {};
    for (const c of Object.values(LINT_CASES))
      for (const [path, text] of Object.entries(c.breaks)) if (path !== 'agent.json') files[path] ??= text;
    const folder = await agentFolder({
      ...files,
      'agent.json': JSON.stringify({
        agentId: 'ag_a',
        name: 'x'.repeat(130),
        profile: 'local',
        branch: { branchId: 'br_a', name: 'main' },
      }),
    });
    const check = await vscode.commands.executeCommand<{ problems: unknown[] }>(
      'agentWorkbench.checkAgentFolder',
      vscode.Uri.file(folder),
      { quiet: true },
    );
    assert.ok(check && check.problems.length >= 8, `the folder has problems of many rules: ${JSON.stringify(check)}`);
    const cli = spawnSync(process.execPath, [join(getExtension().extensionPath, 'dist', 'cli.js'), 'lint', folder], {
      cwd: folder,
      encoding: 'utf8',
    });
    assert.equal(cli.status, 1, cli.stderr);
    // file:line:col severity rule-id message; a file name may hold spaces.
    const fromCli = cli.stdout
      .split('\n')
      .map((l) => /^(.+:\d+:\d+ (?:error|warning|info) \S+) /.exec(l)?.[1])
      .filter((l): l is string => l !== undefined)
      .sort();
    const severity = {
      [vscode.DiagnosticSeverity.Error]: 'error',
      [vscode.DiagnosticSeverity.Warning]: 'warning',
      [vscode.DiagnosticSeverity.Information]: 'info',
    } as Record<number, string>;
    const fromEditor = vscode.languages
      .getDiagnostics()
      .filter(([uri]) => uri.fsPath.startsWith(folder + '/'))
      .flatMap(([uri, ds]) =>
        ds
          .filter((d) => d.source === SOURCE)
          .map(
            (d) =>
              `${uri.fsPath.slice(folder.length + 1)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity[d.severity]} ${codeOf(d)}`,
          ),
      )
      .sort();
    assert.deepEqual(fromEditor, fromCli);
  });

  test('Push warns when errors remain, names them, and sends nothing unless the person pushes anyway', async () => {
    const api = await activateExtension();
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    const ui = scriptedPrompts(api);
    const folders: string[] = [];
    try {
      const folder = await checkOutSupportMain(api, ui, folders, 'lint');
      const before = await supportMainOnPlatform(() => urls).behavior();
      await editAndSave(join(folder, 'behavior.md'), (t) => `${t}Use ${TEST_KEYS.inPrompt} for lookups.\n`);
      ui.setAnswer(() => undefined);
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.push', vscode.Uri.file(folder)), undefined);
      const question = ui.shown.find((s) => s.modal && /error remains in Support Desk/.test(s.message));
      assert.ok(question, JSON.stringify(ui.shown));
      assert.match(question.detail, /^behavior\.md:\d+ secret: An API key is written here/);
      // The default button (the first, which Enter presses) is the safe one.
      assert.deepEqual(question.items, ['Show Problems', 'Push Anyway']);
      assert.ok(!question.detail.includes('sk-proj-'), 'the secret is not repeated');
      assert.equal(await supportMainOnPlatform(() => urls).behavior(), before, 'nothing was sent');
      // Pushed anyway: the report names what the push carried.
      ui.shown.length = 0;
      ui.setAnswer((s) => (s.modal ? (s.items.includes('Push Anyway') ? 'Push Anyway' : s.items[0]) : undefined));
      const report = await vscode.commands.executeCommand<{ sent: unknown[] }>(
        'agentWorkbench.push',
        vscode.Uri.file(folder),
      );
      assert.equal(report?.sent.length, 1, ui.lastError());
      const told = ui.shown.find((s) => s.kind === 'info' && /^Pushed 1 change/.test(s.message));
      assert.match(told?.message ?? '', /It carries 1 error: behavior\.md:\d+ secret\./);
      // The key pushed for this check does not stay on the platform for the suites after it.
      await new LocalAdmin(urls.admin).reset();
    } finally {
      ui.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const dir of folders) await rm(dir, { recursive: true, force: true });
    }
  });
});
