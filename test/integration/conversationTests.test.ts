// The Testing view's conversation tests, through the Testing API: files discovered as they are written, cases and
// turns as items with their places, runs against the local platform (passing, failing with a diff, flaky over
// repeats, cancelled), and bad files reported without breaking the controller.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import type { ReportedItem, RunRecord } from '../../src/ui/testing/testRun';
import { SUPPORT_AGENT_CONTENT } from '../../src/localPlatform/seed/supportAgent';
import { LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { call } from '../support/http';
import {
  activateExtension,
  type LocalPlatformUrls,
  startLocalPlatformInEditor,
  otherPlatformProfile,
} from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { scriptedPrompts } from '../support/editor/prompts';
import { until } from '../support/until';
import { DEFAULT_FILTERS } from '../../src/protocol/transcripts';
import { openList, settled } from '../support/editor/transcriptPanels';
import { makeWatchedFolder } from '../support/editor/watchedFolder';

const SUPPORT = `agent: ag_support
cases:
  - name: Opening hours
    tags: [sandbox]
    turns:
      - contains: Hello
      - user: What are your opening hours?
        contains: [Monday, Saturday]
        handoff: none
  - name: Password reset
    turns:
      - user: How do I reset my password?
        contains: reset link
        reference: We sent you a reset link.
`;

suite('Conversation tests in the Testing view', function () {
  // Files written and conversations held one after the other, on a busy machine.
  this.timeout(180_000);
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let tests: ConversationTests;
  let api: Awaited<ReturnType<typeof activateExtension>>;
  const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'conversation-tests');
  let n = 0;

  /** Writes a test file into a folder of its own and waits for its item. */
  const write = async (text: string): Promise<vscode.TestItem> => {
    const uri = vscode.Uri.joinPath(root, `agent${++n}`, 'tests', 'cases.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await tests.discover();
    // Opened as a person opens a new file: its text is read at once, without waiting for the file watcher.
    await vscode.workspace.openTextDocument(uri);
    // The file watcher reports a new folder's file late on a busy machine.
    return until(`the item of ${uri.fsPath}`, () => tests.controller.items.get(uri.toString()), { timeoutMs: 90_000 });
  };
  const child = (item: vscode.TestItem, label: string): vscode.TestItem => {
    let found: vscode.TestItem | undefined;
    item.children.forEach((c) => {
      if (c.label === label) found = c;
    });
    if (!found) throw new Error(`no item ${label} under ${item.label}`);
    return found;
  };
  const runLocal = async (items: vscode.TestItem[], token = new vscode.CancellationTokenSource().token) => {
    const profile = tests.runProfiles[0]!;
    assert.equal(profile.label, 'Local platform');
    await profile.runHandler(new vscode.TestRunRequest(items, undefined, profile), token);
    return tests.runs.at(-1)!;
  };
  const state = (record: RunRecord, item: vscode.TestItem): ReportedItem => {
    const reported = record.items.get(item.id);
    if (!reported) throw new Error(`${item.id} was not reported; reported: ${[...record.items.keys()].join(', ')}`);
    return reported;
  };
  /** Chat conversations still open on the local platform. */
  const open = async () => {
    const res = await call<{ conversations: Array<{ id: string; in_progress: boolean }> }>(
      'GET',
      `${urls.runtime}/v3/acme/support-desk/conversations?client_env=sandbox&limit=200`,
      { headers: { 'x-api-key': 'lp_conversations_key' } },
    );
    return res.body.conversations.filter((c) => c.in_progress).map((c) => c.id);
  };

  suiteSetup(async () => {
    urls = await startLocalPlatformInEditor();
    admin = new LocalAdmin(urls.admin);
    api = await activateExtension();
    tests = api.testing!.conversationTests();
  });

  teardown(async () => {
    await admin.clearFaults();
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  test('a file written to tests/ is discovered with its cases and turns at their lines', async () => {
    const file = await write(SUPPORT);
    const hours = child(file, 'Opening hours');
    assert.equal(hours.range?.start.line, 2);
    assert.deepEqual(
      hours.tags.map((t) => t.id),
      ['sandbox'],
    );
    const labels: string[] = [];
    hours.children.forEach((t) => labels.push(`${t.label}@${t.range?.start.line}`));
    assert.deepEqual(labels, ['greeting@5', 'turn 2: What are your opening hours?@6']);
    assert.equal(file.error, undefined);
  });

  test('a passing case and a failing one: the failure is a diff of expected and actual at its turn, and the run output holds the conversation', async function () {
    // Several conversations, one after the other, on a busy machine.
    this.timeout(120_000);
    const file = await write(SUPPORT);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'Opening hours')).state, 'passed');
    const password = child(file, 'Password reset');
    assert.equal(state(record, password).state, 'failed');
    const turn = child(password, 'turn 1: How do I reset my password?');
    const [message] = state(record, turn).messages;
    assert.match(message!.message, /does not contain "reset link"/);
    assert.equal(message!.expected, 'We sent you a reset link.');
    assert.match(message!.actual ?? '', /Sorry, I can't help with that/);
    assert.equal(message!.line, 11);
    assert.match(record.output, /user: How do I reset my password\?\nagent: Sorry/);
    assert.match(record.output, /1 passed, 1 failed/);
    assert.deepEqual(await open(), []);
  });

  test('a failing contains: whose recorded answer is the answer says which text is missing, with the answer, and shows no diff of two identical texts', async () => {
    const hours = SUPPORT_AGENT_CONTENT.topics.kt_opening_hours!.content;
    const file = await write(`agent: ag_support
cases:
  - name: Around the clock
    turns:
      - user: What are your opening hours?
        contains: open around the clock
        reference: ${JSON.stringify(hours)}
`);
    const record = await runLocal([file]);
    const turn = child(child(file, 'Around the clock'), 'turn 1: What are your opening hours?');
    const [message] = state(record, turn).messages;
    assert.match(
      message!.message,
      /^The answer does not contain "open around the clock"\.\n\nThe answer: Our stores are open/,
    );
    assert.equal(message!.expected, undefined, 'no diff: the recorded answer and the answer are the same text');
    assert.equal(message!.actual, undefined);
  });

  test('a failing case links its conversation: the link opens it in the transcript viewer, recorded under its id', async function () {
    this.timeout(120_000);
    const file = await write(`agent: ag_support
cases:
  - name: Link to the conversation
    turns:
      - user: How do I reset my password?
        contains: reset link
`);
    const record = await runLocal([file]);
    const failing = state(record, child(file, 'Link to the conversation'));
    assert.equal(failing.state, 'failed');
    const linked = failing.messages
      .map((m) => m.message)
      .find((m) => m.includes('command:agentWorkbench.openConversation'));
    assert.ok(linked, JSON.stringify(failing.messages));
    const [, shownId, args] =
      /Conversation (\S+): \[open it in the transcript viewer\]\(command:agentWorkbench\.openConversation\?([^)]+)\)/.exec(
        linked,
      )!;
    // The message's Markdown escapes the platform's text (conv\_000012): the id as a person reads it.
    const id = shownId!.replace(/\\(.)/g, '$1');
    assert.match(record.output, new RegExp(`Open Conversation ${id}`));
    const panel = await vscode.commands.executeCommand<{
      loaded: Promise<void>;
      recordRead?: { id: string };
      dispose(): void;
    }>('agentWorkbench.openConversation', JSON.parse(decodeURIComponent(args!)));
    try {
      await panel!.loaded;
      assert.equal(panel!.recordRead?.id, id, 'the conversation the case held is shown');
    } finally {
      panel?.dispose();
    }
  });

  test('a case naming a variant the local platform lacks, or another environment, is skipped with the reason', async () => {
    const file = await write(`agent: ag_support
cases:
  - name: No such variant
    variant: var_nowhere
    turns: [{ user: hello, end: false }]
  - name: Live only
    environment: live
    turns: [{ user: hello, end: false }]
`);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'No such variant')).state, 'skipped');
    assert.equal(state(record, child(file, 'Live only')).state, 'skipped');
    assert.match(record.output, /Skipped: the target has no variant var_nowhere/);
    assert.match(record.output, /Skipped: the case runs against live only; this run is against sandbox/);
    assert.deepEqual(await open(), []);
  });

  test('a case that checks nothing shows "no checks" in the tree and a warning at its name, and a run skips it instead of passing it', async () => {
    const file = await write(`agent: ag_support
cases:
  - name: Recorded only
    turns:
      - reference: Hello! I'm Sam, the support agent of Acme. How can I help you today?
      - user: What are your opening hours?
        reference: Open around the clock.
  - name: Checked
    turns:
      - user: What are your opening hours?
        contains: Monday
`);
    const recorded = child(file, 'Recorded only');
    assert.equal(recorded.description, 'no checks');
    assert.equal(child(file, 'Checked').description, undefined);
    assert.equal(file.error, undefined, 'a warning: the file and its other cases still run');
    const [warning, ...others] = vscode.languages.getDiagnostics(file.uri!);
    assert.deepEqual(others, []);
    assert.equal(warning!.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(warning!.range.start.line, 2, 'at the case name');
    assert.match(
      warning!.message,
      /^The case "Recorded only" checks nothing, so it would pass whatever the agent says: add `contains:`/,
    );
    const before = (await open()).length;
    const record = await runLocal([file]);
    assert.equal(state(record, recorded).state, 'skipped');
    assert.equal(state(record, child(file, 'Checked')).state, 'passed');
    assert.match(
      record.output,
      /Recorded only: skipped, no checks: add `contains:`, `matches:`, `handoff:` or `end:` to a turn/,
    );
    assert.match(record.output, /1 passed, 0 failed, 1 skipped/);
    assert.equal((await open()).length, before);
  });

  test('a case naming Bella Tavola Bookings reaches Bella Tavola through its own project on the local platform, not Support Desk; one naming an agent the platform lacks is skipped with the reason', async () => {
    const file = await write(`agent: ag_restaurant
cases:
  - name: Bella's greeting
    turns:
      - contains: Gio
  - name: Nowhere
    agent: ag_nowhere
    turns: [{ user: hello, contains: hello }]
`);
    const ui = scriptedPrompts(api);
    try {
      const record = await runLocal([file]);
      assert.equal(state(record, child(file, "Bella's greeting")).state, 'passed', record.output);
      assert.doesNotMatch(record.output, /Sam/, 'Support Desk did not answer');
      assert.equal(state(record, child(file, 'Nowhere')).state, 'skipped');
      assert.match(record.output, /Skipped: the local platform serves no agent ag_nowhere/);
      assert.equal(tests.connection.profiles.active?.id, 'local', 'the profile in use stayed the Local one');
      assert.deepEqual(
        ui.shown.map((s) => s.message),
        [],
        'nothing was asked or shown: the local platform runs without a word',
      );
    } finally {
      ui.dispose();
    }
  });

  test('the default run profile follows the connection profile in use; its run skips a case whose agent its Chat key cannot reach, with the reason, and asks once before its real conversations', async () => {
    const file = await write(`cases:
  - name: Support's greeting
    agent: ag_support
    turns:
      - contains: Sam
  - name: Bella's greeting
    agent: ag_restaurant
    turns:
      - contains: Gio
`);
    const { connection } = tests;
    // A platform other than the local one as the editor sees it: a saved profile of the support desk's project.
    const id = 'remote-desk-test';
    await connection.profiles.save(otherPlatformProfile(urls, id, 'Remote desk', LOCAL_PROJECT.id));
    const ui = scriptedPrompts(api);
    try {
      await connection.vault.set(id, 'agentsApiKey', LOCAL_KEYS.agents);
      await connection.vault.set(id, 'chatApiKey', LOCAL_KEYS.chat);
      await connection.vault.set(id, 'chatConnectorToken', LOCAL_CONNECTORS.chatToken);
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', id);
      const byDefault = await until('the run profiles of the profile in use', () =>
        tests.runProfiles.find((p) => p.isDefault && p.label.startsWith('Remote desk')),
      );
      ui.setAnswer((s) => (s.modal ? 'Run' : undefined));
      await byDefault.runHandler(
        new vscode.TestRunRequest([file], undefined, byDefault),
        new vscode.CancellationTokenSource().token,
      );
      const record = tests.runs.at(-1)!;
      assert.equal(state(record, child(file, "Support's greeting")).state, 'passed', record.output);
      assert.equal(state(record, child(file, "Bella's greeting")).state, 'skipped');
      assert.match(
        record.output,
        /Skipped: Bella Tavola Bookings is served by project PROJECT-b7e11a7a\. The runtime keys of the profile "Remote desk" belong to project PROJECT-5a7e1c0d, which serves Support Desk: Chat would reach Support Desk, not Bella Tavola Bookings\./,
      );
      assert.deepEqual(
        ui.shown.filter((s) => s.modal).map((s) => s.message),
        [
          'This run makes 2 real conversations through Remote desk (sandbox, its Chat key). They are recorded like any other conversation.',
        ],
      );
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      await until(
        'the local platform the default again',
        () => tests.runProfiles.find((p) => p.isDefault)?.label === 'Local platform',
      );
    } finally {
      ui.dispose();
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      await connection.profiles.remove(id);
    }
  });

  test('a case repeated is flaky when its runs both pass and fail, and passes at its required rate with each failing run named', async function () {
    // Several conversations, one after the other, on a busy machine.
    this.timeout(120_000);
    const file = await write(`agent: ag_support
cases:
  - name: Hours
    repeat: 3
    required_pass_rate: 0.6
    turns:
      - user: What are your opening hours?
        contains: Monday
`);
    await vscode.workspace
      .getConfiguration('agentWorkbench.tests')
      .update('concurrency', 1, vscode.ConfigurationTarget.Workspace);
    try {
      await admin.addFault({ family: 'runtime', method: 'POST', path: 'chat/respond', status: 503, times: 1 });
      const record = await runLocal([file]);
      const hours = child(file, 'Hours');
      assert.equal(state(record, hours).state, 'passed');
      assert.match(record.output, /Hours \(2\/3 runs passed\) \[flaky\]/);
      assert.match(record.output, /Hours, run 1/);
      assert.equal(hours.description, '× 3 · flaky: 2 of 3 runs passed', 'the tree says so, not only the output');

      // Below its required rate, the case fails; its messages say it is flaky and name it, each read on its own.
      const strict = await write(`agent: ag_support
cases:
  - name: Strict hours
    repeat: 2
    turns:
      - user: What are your opening hours?
        contains: Monday
`);
      await admin.addFault({ family: 'runtime', method: 'POST', path: 'chat/respond', status: 503, times: 1 });
      const failed = state(await runLocal([strict]), child(strict, 'Strict hours'));
      assert.equal(failed.state, 'failed');
      assert.equal(failed.messages[0]!.message, 'Strict hours is flaky: 1 of 2 runs passed; 100% must pass.');
      assert.match(failed.messages[1]!.message, /^Strict hours, run 1 of 2: /);
      assert.equal(child(strict, 'Strict hours').description, '× 2 · flaky: 1 of 2 runs passed');
    } finally {
      await vscode.workspace
        .getConfiguration('agentWorkbench.tests')
        .update('concurrency', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('cancelling a run mid-conversation closes every conversation it opened', async () => {
    const file = await write(`agent: ag_support
cases:
  - name: One
    turns: [{ user: hello }, { user: What are your opening hours?, contains: Monday }]
  - name: Two
    turns: [{ user: hello }, { user: What are your opening hours?, contains: Monday }]
`);
    await admin.addFault({ family: 'runtime', method: 'POST', path: 'chat/respond', delayMs: 3000 });
    const source = new vscode.CancellationTokenSource();
    const running = runLocal([file], source.token);
    await until('both conversations to be open', async () => (await open()).length >= 2);
    source.cancel();
    const record = await running;
    assert.equal(state(record, child(file, 'One')).state, 'skipped');
    assert.equal(state(record, child(file, 'Two')).state, 'skipped');
    await admin.clearFaults();
    assert.deepEqual(await open(), []);
  });

  test('a file is read when the Testing view expands it or a run needs it, and read again when it changes on disk', async () => {
    const token = new vscode.CancellationTokenSource().token;
    const labels = (item: vscode.TestItem) => {
      const found: string[] = [];
      item.children.forEach((c) => found.push(c.label));
      return found;
    };
    /** Writes a file without opening it and lists it as the Testing view's Refresh does. */
    const listed = async (text: string) => {
      const uri = vscode.Uri.joinPath(root, `agent${++n}`, 'tests', 'cases.yaml');
      // Its folder made where the file watcher sees it: the test reads a change on disk from the watcher.
      await makeWatchedFolder(vscode.Uri.joinPath(uri, '..'));
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await tests.controller.refreshHandler?.(token);
      return until(`the item of ${uri.fsPath}`, () => tests.controller.items.get(uri.toString()));
    };
    const text = `agent: ag_support
cases:
  - name: Greeting
    turns:
      - contains: Sam
  - name: Recorded only
    turns:
      - reference: Hello!
`;
    const file = await listed(text);
    assert.equal(file.canResolveChildren, true);
    assert.deepEqual(labels(file), [], 'listed, not read');
    assert.deepEqual(vscode.languages.getDiagnostics(file.uri!), [], 'no diagnostics of a file not read');

    await tests.controller.resolveHandler?.(file);
    assert.deepEqual(labels(file), ['Greeting', 'Recorded only']);
    assert.equal(file.canResolveChildren, false);
    assert.deepEqual(
      vscode.languages.getDiagnostics(file.uri!).map((d) => d.range.start.line),
      [5],
      'the warning of the case that checks nothing, once the file is read',
    );

    await vscode.workspace.fs.writeFile(file.uri!, new TextEncoder().encode(text.replace('Recorded only', 'Renamed')));
    await until('the case renamed on disk', () => labels(file).includes('Renamed'), { timeoutMs: 90_000 });

    const unread = await listed(text);
    assert.deepEqual(labels(unread), []);
    const record = await runLocal([unread]);
    assert.equal(state(record, child(unread, 'Greeting')).state, 'passed', record.output);
  });

  test('a file that is not the format, or not YAML, gets diagnostics and a failed item that says what to fix', async () => {
    const misspelt = await write('cases:\n  - name: x\n    turns:\n      - user: hi\n        contians: hello\n');
    // The problem is shown as written (its Markdown escaped): read as a person reads it.
    const shown = String((misspelt.error as vscode.MarkdownString).value).replace(/\\(.)/g, '$1');
    assert.match(shown, /line 5: Unknown key `contians`/);
    const diagnostics = vscode.languages.getDiagnostics(misspelt.uri!);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.range.start.line, 4);
    assert.match(diagnostics[0]!.message, /did you mean `contains`/);
    const record = await runLocal([misspelt]);
    assert.equal(state(record, misspelt).state, 'errored');

    const broken = await write('cases:\n  - name: "x\n    turns: [\n');
    assert.match(String((broken.error as vscode.MarkdownString).value), /Not valid YAML/);
    assert.ok(vscode.languages.getDiagnostics(broken.uri!).length > 0);
    // The controller goes on: a good file written after is still discovered.
    const good = await write(SUPPORT);
    assert.ok(child(good, 'Opening hours'));
  });

  test('Promote, from the command and from the promote tool of assistants, first offers the cases tagged with the source environment; a failing run blocks it unless a reason is typed', async function () {
    // Several conversations, one after the other, on a busy machine.
    this.timeout(120_000);
    await write(`agent: ag_support
cases:
  - name: Password reset before promoting
    tags: [sandbox]
    turns:
      - user: How do I reset my password?
        contains: reset link
`);
    const ui = scriptedPrompts(api);
    const promote = () =>
      vscode.commands.executeCommand<{ deployment: { environment: string } } | undefined>(
        'agentWorkbench.promote',
        { agentId: 'ag_support', environment: 'sandbox' },
        { deploymentMessage: '' },
      );
    try {
      ui.setAnswer((s) => (s.modal && /conversation tests tagged sandbox/.test(s.message) ? 'Run Tests' : undefined));
      assert.equal(await promote(), undefined);
      const asked = ui.shown.find((s) => s.kind === 'input');
      assert.match(asked?.detail ?? '', /conversation tests failed/);
      assert.match(asked?.message ?? '', /The promotion is blocked/);
      const run = tests.runs.at(-1)!;
      assert.ok(
        [...run.items.values()].some((i) => /Password reset before promoting$/.test(i.id) && i.state === 'failed'),
      );

      // The promote tool of assistants runs the same gate: blocked, and no reason typed, nothing is promoted.
      const text = async (result: vscode.LanguageModelToolResult) =>
        result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      const details = await text(
        await vscode.lm.invokeTool('agentWorkbench_agentDetails', {
          input: { agentId: 'ag_support' },
          toolInvocationToken: undefined,
        }),
      );
      const inSandbox = /\n {2}sandbox: .*\n {4}.*?\b(dep_\w+)/.exec(details)?.[1];
      assert.ok(inSandbox, details);
      const lastBefore = tests.runs.at(-1);
      ui.shown.length = 0;
      ui.setAnswer((s) => (s.modal && /conversation tests tagged sandbox/.test(s.message) ? 'Run Tests' : undefined));
      const refused = await text(
        await vscode.lm.invokeTool('agentWorkbench_promote', {
          input: { agentId: 'ag_support', deploymentId: inSandbox },
          toolInvocationToken: undefined,
        }),
      );
      assert.match(
        refused,
        /Nothing was promoted: it stopped at the conversation tests of Support Desk tagged sandbox/,
      );
      assert.notEqual(tests.runs.at(-1), lastBefore, 'the tagged cases ran first');
      assert.ok(ui.shown.some((s) => s.kind === 'input' && /The promotion is blocked/.test(s.message)));

      ui.setAnswer((s) =>
        s.modal
          ? /conversation tests tagged/.test(s.message)
            ? 'Run Tests'
            : s.items[0]
          : s.kind === 'input' && /The promotion is blocked/.test(s.message)
            ? 'a known gap, fixed in the next version'
            : // The promote confirmation asks for the agent's name while its target may be live.
              s.kind === 'input' && /^Type the agent name/.test(s.message)
              ? 'Support Desk'
              : undefined,
      );
      const promoted = await promote();
      assert.equal(promoted?.deployment.environment, 'pre-release');
    } finally {
      ui.dispose();
    }
  });
  test("the conversations a run makes are marked as a test run's in the conversations list", async () => {
    const file = await write(`agent: ag_support
cases:
  - name: Marked
    turns:
      - contains: Sam
`);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'Marked')).state, 'passed', record.output);
    const made = /── Marked \((\S+)\)/.exec(record.output)?.[1];
    assert.ok(made, `the run names its conversation: ${record.output}`);
    const list = await openList({ agentId: 'ag_support', filters: { ...DEFAULT_FILTERS, environment: 'sandbox' } });
    try {
      const row = await until("the run's conversation in the list", () => list.shownRows().find((r) => r.id === made));
      await settled(list);
      assert.equal(row.testRun, true, 'marked as a test run');
    } finally {
      list.dispose();
    }
  });
});
