// Conversation tests made from conversations: Save as Test on a recorded demo conversation (the
// transcript viewer) and Save as Test in the chat playground write a case into the agent folder's tests/ (a new
// file, then appended to it), open it at the case, and the case runs green through the Testing view's API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import type { SavedTest } from '../../src/ui/testing/saveAsTest';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { serializeAgentManifest } from '../../src/workspace/agentManifest';
import { call } from '../support/http';
import { answers, type ChatPanelHandle, openChat } from '../support/editor/chatPanel';
import { activateExtension, type LocalPlatformUrls, startLocalPlatformInEditor } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { scriptedPrompts } from '../support/editor/prompts';
import { until } from '../support/until';

interface Recorded {
  id: string;
  in_progress: boolean;
  handoff: boolean;
  turns: Array<{ user_input: string; agent_response: string; is_silence: boolean }>;
}

/** Words after which the built-in agent hands off or ends: a conversation with them would not replay as recorded. */
const ENDS_OR_HANDS_OFF = /bye|person|human|agent|someone|representative|thank/i;

suite('Conversation tests made from conversations', function () {
  // Conversations held, files written and a run, one after the other, on a busy machine.
  this.timeout(180_000);
  let urls: LocalPlatformUrls;
  let tests: ConversationTests;
  let api: Awaited<ReturnType<typeof activateExtension>>;
  const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tests-from-conversations');
  const folder = vscode.Uri.joinPath(root, 'support-desk');
  const file = vscode.Uri.joinPath(folder, 'tests', 'from-conversations.yaml');
  const chats: ChatPanelHandle[] = [];
  /** The case Save as Test wrote from the playground's chat with Sam. */
  let playgroundCase: SavedTest | undefined;

  /** Runs one case of the file through the local platform's run profile and returns its reported state. */
  const runCase = async (saved: SavedTest) => {
    await tests.discover();
    const caseItem = await until(
      `the item of case ${saved.caseName}`,
      () => {
        let found: vscode.TestItem | undefined;
        tests.controller.items.get(saved.uri.toString())?.children.forEach((c) => {
          if (c.label === saved.caseName) found = c;
        });
        return found;
      },
      { timeoutMs: 90_000 },
    );
    assert.equal(caseItem.range?.start.line, saved.line, 'the item sits at the case the editor was opened at');
    const profile = tests.runProfiles[0]!;
    await profile.runHandler(
      new vscode.TestRunRequest([caseItem], undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    const record = tests.runs.at(-1)!;
    return { state: record.items.get(caseItem.id), output: record.output };
  };

  suiteSetup(async () => {
    urls = await startLocalPlatformInEditor();
    await new LocalAdmin(urls.admin).reset('demo');
    api = await activateExtension();
    tests = api.testing!.conversationTests();
    const manifest = serializeAgentManifest({
      agentId: 'ag_support',
      name: 'Support Desk',
      profile: 'local',
      branch: { branchId: 'br_support_main', name: 'main' },
    });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'agent.json'), new TextEncoder().encode(manifest));
  });

  suiteTeardown(async () => {
    chats.splice(0).forEach((p) => p.dispose());
    // What was published here goes: the suites after this one meet the demo data as it is seeded.
    await new LocalAdmin(urls.admin).reset('demo');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  test('Save as Test in the transcript viewer: a recorded demo conversation becomes a case in a new tests/ file, opened at the case, and runs green', async () => {
    const listed = await call<{ conversations: Recorded[] }>(
      'GET',
      `${urls.runtime}/v3/acme/support-desk/conversations?client_env=live&limit=200`,
      { headers: { 'x-api-key': 'lp_conversations_key' } },
    );
    const recorded = listed.body.conversations.find(
      (c) =>
        !c.in_progress &&
        !c.handoff &&
        // The case checks the answers' words: a conversation held in another language would not replay as recorded.
        /^Hello\b/.test(c.turns[0]?.agent_response ?? '') &&
        c.turns.length >= 3 &&
        c.turns.length <= 6 &&
        c.turns.every((t) => !ENDS_OR_HANDS_OFF.test(t.user_input ?? '')),
    );
    assert.ok(recorded, 'a finished demo conversation in English without a handoff');
    const panel = await vscode.commands.executeCommand<{
      loaded: Promise<void>;
      createTest(): Promise<SavedTest | undefined>;
      dispose(): void;
    }>('agentWorkbench.openConversation', { conversationId: recorded.id, agentId: 'ag_support' });
    assert.ok(panel);
    await panel.loaded;
    const ui = scriptedPrompts(api);
    try {
      ui.setAnswer((s) =>
        s.modal && /publish to the local sandbox/.test(s.message)
          ? 'Run As Is'
          : s.kind === 'pick'
            ? s.items.find((i) => /New test file/.test(i))
            : s.kind === 'input' && /new test file/.test(s.message)
              ? 'from-conversations'
              : s.kind === 'input' && /name of the new case/.test(s.message)
                ? 'Recorded demo conversation'
                : undefined,
      );
      const saved = await panel.createTest();
      assert.ok(saved, ui.lastError());
      assert.equal(saved.uri.toString(), file.toString());
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.toString(), file.toString(), 'the file is opened');
      assert.equal(editor?.selection.start.line, saved.line, 'at the new case');
      const text = editor!.document.getText();
      assert.match(text, /^agent: "ag_support"\ncases:\n {2}- name: "Recorded demo conversation"/);
      assert.match(text, new RegExp(`# Made from conversation ${recorded.id} \\(live\\)`));
      const spoken = recorded.turns.filter((t) => t.user_input?.trim());
      assert.equal((text.match(/ {6}- user: /g) ?? []).length, spoken.length, 'one turn per recorded user turn');
      assert.equal((text.match(/ {8}handoff: none/g) ?? []).length, spoken.length, 'no handoff, as it happened');
      assert.match(text, /^ {6}- contains: \[.*"Sam".*\]\n {8}reference: "Hello.* I'm Sam/m, text);
      assert.equal(
        (text.match(/ {8}contains: \[/g) ?? []).length,
        spoken.length,
        'key phrases of each answer are checked',
      );
      assert.match(text, /# .*contains: phrases were picked from each answer/);

      const { state, output } = await runCase(saved);
      assert.equal(state?.state, 'passed', output);
    } finally {
      ui.dispose();
      panel.dispose();
    }
  });

  test('Save as Test: a Chat API conversation in the playground, with its handoff, is appended to the file as a case and runs green', async () => {
    const p = await openChat({ mode: 'chatApi', target: { label: 'Support Desk', agentId: 'ag_support' } });
    chats.push(p);
    await until('the greeting', () => answers(p).length === 1);
    await p.send('What are your opening hours?');
    await until('the answer', () => answers(p).length === 2);
    await p.send('Can I talk to a person?');
    await until('the handoff', () => p.snapshot().status.handoff);
    const before = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const ui = scriptedPrompts(api);
    try {
      ui.setAnswer((s) =>
        s.modal && /publish to the local sandbox/.test(s.message)
          ? 'Run As Is'
          : s.kind === 'pick'
            ? 'from-conversations.yaml'
            : s.kind === 'input' && /name of the new case/.test(s.message)
              ? 'From the playground'
              : undefined,
      );
      const saved = await (p as unknown as { saveAsTest(): Promise<SavedTest | undefined> }).saveAsTest();
      assert.ok(saved, ui.lastError());
      assert.equal(saved.uri.toString(), file.toString(), 'appended to the file picked');
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      assert.ok(text.startsWith(before), 'what the file held is kept as it was');
      const added = text.slice(before.length);
      assert.match(added, /^ {2}- name: "From the playground"\n/);
      assert.match(added, /- contains: \["Sam", "support", "Acme"\]\n {8}reference: "Hello! I'm Sam/);
      assert.match(
        added,
        /- user: "What are your opening hours\?"\n {8}contains: \["9am", "6pm", "10am"\]\n {8}handoff: none\n {8}end: false\n {8}reference: "Our stores/,
      );
      assert.match(
        added,
        /- user: "Can I talk to a person\?"\n {8}contains: \["transferring", "member"\]\n {8}handoff: \{ destination: "human-support-queue", reason: "[^"]+" \}\n {8}end: false/,
      );
      assert.equal(vscode.window.activeTextEditor?.selection.start.line, saved.line, 'opened at the new case');

      const { state, output } = await runCase(saved);
      assert.equal(state?.state, 'passed', output);
      assert.deepEqual(
        vscode.languages.getDiagnostics(file).map((d) => d.message),
        [],
        'a saved case checks something: no warning',
      );
      playgroundCase = saved;
    } finally {
      ui.dispose();
    }
  });

  test('a run on the local platform first pushes the edited agent folder and publishes it to the local sandbox, asked once, so the case sees the edit; a run in step with the platform asks nothing', async () => {
    const checkedOut = vscode.Uri.joinPath(root, 'checked-out');
    const ui = scriptedPrompts(api);
    try {
      const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
        agentId: 'ag_support',
        branchId: 'br_support_main',
        folder: checkedOut.fsPath,
      });
      assert.equal(done, checkedOut.fsPath, ui.lastError());
      const behavior = vscode.Uri.joinPath(checkedOut, 'behavior.md');
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(behavior));
      assert.match(text, /You are Sam/);
      await vscode.workspace.fs.writeFile(
        behavior,
        new TextEncoder().encode(text.replace('You are Sam', 'You are Robin')),
      );
      const testFile = vscode.Uri.joinPath(checkedOut, 'tests', 'greeting.yaml');
      await vscode.workspace.fs.writeFile(
        testFile,
        new TextEncoder().encode('cases:\n  - name: Greets as Robin\n    turns:\n      - contains: Robin\n'),
      );
      await vscode.workspace.openTextDocument(testFile);
      ui.shown.length = 0;
      ui.setAnswer((s) => (s.modal && /publish to the local sandbox/.test(s.message) ? 'Push and Publish' : undefined));
      const { state, output } = await runCase({ uri: testFile, caseName: 'Greets as Robin', line: 1 });
      assert.equal(state?.state, 'passed', output);
      const asked = ui.shown.filter((s) => /publish to the local sandbox/.test(s.message));
      assert.equal(asked.length, 1, 'asked once for the run');
      assert.match(asked[0]!.message, /Push Support Desk/);
      assert.match(output, /Pushed Support Desk \(main\): 1 change/);
      assert.match(output, /Published Support Desk to the local sandbox/);
      const pushed = await call<{ behavior: string }>(
        'GET',
        `${urls.build}/v1/agents/ag_support/branches/br_support_main/behavior`,
        { headers: { 'x-api-key': LOCAL_KEYS.agents } },
      );
      assert.match(pushed.body.behavior, /You are Robin/);

      // Nothing left to push and sandbox serving main: the next run asks nothing and says nothing of the platform.
      ui.shown.length = 0;
      const inStep = await runCase({ uri: testFile, caseName: 'Greets as Robin', line: 1 });
      assert.equal(inStep.state?.state, 'passed', inStep.output);
      assert.deepEqual(
        ui.shown.map((s) => s.message),
        [],
        'the run in step with the platform asks nothing',
      );

      // The case saved from the chat with Sam no longer holds: the agent greets as someone else.
      assert.ok(playgroundCase, 'the case saved in the playground');
      ui.setAnswer((s) => (s.modal && /publish to the local sandbox/.test(s.message) ? 'Run As Is' : undefined));
      const again = await runCase(playgroundCase);
      assert.equal(again.state?.state, 'failed', again.output);
      assert.match(again.state?.messages[0]?.message ?? '', /^The answer does not contain "Sam"\./);
      assert.match(again.output, /agent: Hello! I'm Robin/);
    } finally {
      ui.dispose();
    }
  });
});
