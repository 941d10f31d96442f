// Judged conversation tests in the editor: the model chosen once (the editor's vscode.lm models in a quick pick, or
// an OpenAI-compatible endpoint with its key in SecretStorage), and runs of judged and simulated cases through the
// Testing view against the local platform, the model answered by the scripted OpenAI-compatible server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import { MODEL_SECTION } from '../../src/ui/testing/modelSettings';
import type { ReportedItem, RunRecord } from '../../src/ui/testing/testRun';
import { ModelKeys } from '../../src/ui/testing/modelKey';
import { replaceChatModels, VscodeLanguageModel } from '../../src/ui/testing/vscodeLanguageModel';
import { editorSuite } from '../support/editor/suite';
import { ToolSession } from '../support/editor/languageModelTools';
import { MODEL_ENDPOINT_KEY } from '../support/secretsScan';
import { until } from '../support/until';
import { JUDGE_SYSTEM } from '../../src/agentTests/model/judge';
import { type ScriptedModel, type ScriptedRequest, startScriptedModel, systemOf } from '../support/scriptedModel';
import { keepForSecretsScan } from '../support/editor/keptForScan';

/** A model as another extension's provider would hand it to `vscode.lm`, answering `answer(prompt)`. */
function editorModel(
  answer: (messages: readonly vscode.LanguageModelChatMessage[]) => string,
  refuse?: () => Error,
): vscode.LanguageModelChat & { readonly sent: vscode.LanguageModelChatMessage[][] } {
  const sent: vscode.LanguageModelChatMessage[][] = [];
  const words = (m: string | vscode.LanguageModelChatMessage) =>
    (typeof m === 'string' ? m : textOf(m)).split(/\s+/).filter(Boolean).length;
  return {
    name: 'Scripted Editor Model',
    id: 'scripted-editor-model-1',
    vendor: 'scripted',
    family: 'scripted-family',
    version: '1.0',
    maxInputTokens: 100_000,
    sent,
    sendRequest: async (messages) => {
      if (refuse) throw refuse();
      sent.push(messages);
      const text = answer(messages);
      async function* stream() {
        // In two parts, as a provider streams it.
        yield text.slice(0, Math.ceil(text.length / 2));
        yield text.slice(Math.ceil(text.length / 2));
      }
      return { text: stream(), stream: (async function* () {})() };
    },
    countTokens: async (m) => words(m),
  };
}

function textOf(m: vscode.LanguageModelChatMessage): string {
  return m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

suite('Judged conversation tests in the editor', function () {
  this.timeout(120_000);
  const editor = editorSuite({ reset: 'once' });
  const settings = () => vscode.workspace.getConfiguration(MODEL_SECTION);
  const clearSettings = async () => {
    for (const key of ['provider', 'languageModel', 'baseUrl', 'name', 'cassette', 'maxCalls', 'maxCost', 'prices'])
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
  };

  teardown(clearSettings);

  test('Choose the Model for Judged Tests in this host: vscode.lm offers no model, so the pick says so and offers an OpenAI-compatible endpoint, whose key is asked and kept in SecretStorage only', async () => {
    const { ui } = editor;
    ui.setAnswer((s) => {
      if (s.kind === 'pick') return 'OpenAI-compatible endpoint…';
      if (s.kind === 'input' && /base URL/.test(s.detail)) return 'http://127.0.0.1:9/v1';
      if (s.kind === 'input' && /endpoint: model/.test(s.detail)) return 'judge-1';
      if (s.kind === 'warning' && s.modal) return 'Set Key';
      if (s.kind === 'input' && /^The key of/.test(s.detail)) return MODEL_ENDPOINT_KEY;
      return undefined;
    });
    await vscode.commands.executeCommand('agentWorkbench.chooseTestModel');
    const pick = ui.shown.find((s) => s.kind === 'pick');
    assert.ok(pick, 'the quick pick was shown');
    assert.match(pick.message, /offers no language model/);
    assert.deepEqual(pick.items.filter(Boolean), ['OpenAI-compatible endpoint…', 'No model']);
    assert.equal(settings().get('provider'), 'openai-compatible');
    assert.equal(settings().get('baseUrl'), 'http://127.0.0.1:9/v1');
    assert.equal(settings().get('name'), 'judge-1');
    const keyBox = ui.shown.find((s) => s.kind === 'input' && /^The key of/.test(s.detail));
    assert.ok(keyBox, 'the key was asked');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('agentWorkbench')).includes(MODEL_ENDPOINT_KEY));
  });

  test("Set the Key of the Model Endpoint keeps the key under its endpoint's origin: another host's key has a name of its own", async () => {
    const { ui } = editor;
    await settings().update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await settings().update('baseUrl', 'http://127.0.0.1:9/v1', vscode.ConfigurationTarget.Global);
    await settings().update('name', 'judge-1', vscode.ConfigurationTarget.Global);
    ui.setAnswer((s) => (s.kind === 'input' ? MODEL_ENDPOINT_KEY : undefined));
    await vscode.commands.executeCommand('agentWorkbench.setTestModelKey');
    assert.ok(ui.shown.some((s) => s.kind === 'info' && /key of http:\/\/127\.0\.0\.1:9\/v1 is kept/.test(s.message)));
    // The same SecretStorage the extension uses, read by its key name (no key in the name).
    assert.equal(ModelKeys.keyOf('http://127.0.0.1:9/v1/'), 'agentWorkbench.tests.model.key.http://127.0.0.1:9');
    assert.notEqual(ModelKeys.keyOf('http://127.0.0.1:9/v1'), ModelKeys.keyOf('https://other.example/v1'));
  });

  test('with an editor model offered to vscode.lm, the pick lists it first and keeps its vendor, family and id', async () => {
    const { api, ui } = editor;
    const model = editorModel(() => 'ok');
    const restore = api.testing?.replaceChatModels(async () => [model]);
    try {
      ui.setAnswer((s) => (s.kind === 'pick' ? 'Scripted Editor Model' : undefined));
      await vscode.commands.executeCommand('agentWorkbench.chooseTestModel');
      const pick = ui.shown.find((s) => s.kind === 'pick');
      assert.deepEqual(pick?.items.filter(Boolean), [
        "The editor's language models",
        'Scripted Editor Model',
        'OpenAI-compatible endpoint…',
        'No model',
      ]);
      assert.equal(settings().get('provider'), 'vscode-lm');
      assert.deepEqual(settings().get('languageModel'), {
        vendor: 'scripted',
        family: 'scripted-family',
        id: 'scripted-editor-model-1',
        version: '1.0',
        name: 'Scripted Editor Model',
      });
    } finally {
      restore?.dispose();
    }
  });

  test('the vscode.lm adapter: the system prompt goes as the first user message, the streamed answer is read whole, usage comes from countTokens, and a refused consent says what to do', async () => {
    const model = editorModel((messages) => `judged: ${messages.length} messages`);
    const restore = replaceChatModels(async () => [model]);
    try {
      const lm = new VscodeLanguageModel({
        vendor: 'scripted',
        family: 'scripted-family',
        id: model.id,
        version: '1.0',
      });
      assert.equal(lm.id, 'vscode-lm:scripted/scripted-family/1.0');
      const reply = await lm.complete([
        { role: 'system', content: 'You judge criteria.' },
        { role: 'user', content: 'Does the answer say hello?' },
      ]);
      assert.equal(reply.text, 'judged: 2 messages');
      assert.deepEqual(reply.usage, { inputTokens: 3 + 5, outputTokens: 3 });
      assert.equal(model.sent[0]?.[0]?.role, vscode.LanguageModelChatMessageRole.User);
      assert.equal(textOf(model.sent[0]![0]!), 'You judge criteria.');
    } finally {
      restore.dispose();
    }
    const refusing = editorModel(
      () => '',
      () => vscode.LanguageModelError.NoPermissions('the person said no'),
    );
    const restoreRefusing = replaceChatModels(async () => [refusing]);
    try {
      const lm = new VscodeLanguageModel({
        vendor: 'scripted',
        family: 'scripted-family',
        id: refusing.id,
        name: 'Scripted',
      });
      await assert.rejects(lm.complete([{ role: 'user', content: 'x' }]), (err: Error & { kind?: string }) => {
        assert.equal(err.kind, 'refused');
        assert.match(err.message, /Agent Workbench may not use Scripted: allow it when the editor asks/);
        return true;
      });
    } finally {
      restoreRefusing.dispose();
    }
    // A model the settings name that the editor does not offer (the real vscode.lm of this host offers none).
    const missing = new VscodeLanguageModel({
      vendor: 'copilot',
      family: 'gpt-4o',
      id: 'copilot-gpt-4o',
      name: 'GPT-4o',
    });
    await assert.rejects(
      missing.complete([{ role: 'user', content: 'x' }]),
      /GPT-4o chosen for judged tests is not available in this editor/,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Runs through the Testing view: the local platform's agent answers, the scripted model server judges.

const HOURS = 'gives the opening hours of the stores';
const NO_COMPETITOR = 'never mentions a competitor';
const UNSURE = 'sounds friendly';
const JUDGED = `agent: ag_support
cases:
  - name: Hours
    turns:
      - user: What are your opening hours?
        contains: Monday
        expect: ${HOURS}
    criteria:
      - ${NO_COMPETITOR}
`;

suite('Judged conversation tests in the Testing view', function () {
  // Conversations with the local platform and model calls, one after the other, on a busy machine.
  this.timeout(180_000);
  const editor = editorSuite({ reset: 'once' });
  let tests: ConversationTests;
  const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'judged-tests');
  let n = 0;
  const settings = () => vscode.workspace.getConfiguration(MODEL_SECTION);

  suiteSetup(() => {
    tests = editor.api.testing!.conversationTests();
  });

  teardown(async () => {
    for (const key of ['provider', 'languageModel', 'baseUrl', 'name', 'cassette', 'maxCalls', 'maxCost', 'prices'])
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    keepForSecretsScan(root);
    await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  /** Writes a test file into an agent folder of its own and waits for its item. */
  const write = async (text: string): Promise<vscode.TestItem> => {
    const uri = vscode.Uri.joinPath(root, `agent${++n}`, 'tests', 'judged.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await tests.discover();
    await vscode.workspace.openTextDocument(uri);
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
  const runLocal = async (items: vscode.TestItem[]): Promise<RunRecord> => {
    const profile = tests.runProfiles[0]!;
    await profile.runHandler(
      new vscode.TestRunRequest(items, undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    return tests.runs.at(-1)!;
  };
  const state = (record: RunRecord, item: vscode.TestItem): ReportedItem => {
    const reported = record.items.get(item.id);
    if (!reported) throw new Error(`${item.id} was not reported; reported: ${[...record.items.keys()].join(', ')}`);
    return reported;
  };

  test('no model set: the judged case is skipped with the reason and how to set a model, its turn whose contains: held is not shown passed, and the run offers Choose Model', async () => {
    const { ui } = editor;
    const file = await write(JUDGED);
    const hours = child(file, 'Hours');
    assert.equal(hours.description, 'judged');
    const record = await runLocal([file]);
    assert.equal(state(record, hours).state, 'skipped');
    assert.equal(
      record.items.get(child(hours, 'turn 1: What are your opening hours?').id)?.state ?? 'skipped',
      'skipped',
    );
    assert.notEqual(state(record, hours).state, 'passed');
    assert.match(record.output, /not judged \(turn 1\): "gives the opening hours of the stores": no model is set/);
    assert.match(record.output, /Choose the Model for Judged Tests/);
    assert.match(record.output, /0 passed, 0 failed, 1 skipped/);
    const offer = ui.shown.find((s) => s.kind === 'info' && /Judged criteria were not run/.test(s.message));
    assert.deepEqual(offer?.items, ['Choose Model']);
  });

  /** The judge's answer for each criterion: found by its text in the request. */
  const judge =
    (verdicts: Record<string, (r: ScriptedRequest) => object>) =>
    (r: ScriptedRequest): string =>
      JSON.stringify(
        Object.entries(verdicts).find(([criterion]) => r.text.includes(criterion))?.[1](r) ?? {
          verdict: 'unsure',
          reason: 'no rule',
          quotes: [],
        },
      );
  const useEndpoint = async (server: ScriptedModel, cassette: 'record' | 'replay' | 'live' = 'record') => {
    await settings().update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await settings().update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('name', 'judge-1', vscode.ConfigurationTarget.Global);
    await settings().update('cassette', cassette, vscode.ConfigurationTarget.Global);
  };
  const pass = { verdict: 'pass', reason: 'it says so', quotes: [{ turn: 3, text: 'Monday' }] };

  test('through an OpenAI-compatible endpoint: the estimate is confirmed, each criterion passes with its quote, the spend is in the output, and the cassette beside the file holds no key', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({
      key: MODEL_ENDPOINT_KEY,
      answer: judge({
        [HOURS]: () => pass,
        [NO_COMPETITOR]: () => ({ verdict: 'pass', reason: 'none named', quotes: [] }),
      }),
    });
    try {
      await useEndpoint(server);
      ui.setAnswer((s) => (s.kind === 'input' ? MODEL_ENDPOINT_KEY : undefined));
      await vscode.commands.executeCommand('agentWorkbench.setTestModelKey');
      ui.setAnswer((s) => (s.modal && /This run calls judge-1/.test(s.message) ? 'Run' : undefined));
      const file = await write(JUDGED);
      const record = await runLocal([file]);
      const estimate = ui.shown.find((s) => s.modal && /This run calls/.test(s.message));
      assert.match(estimate?.message ?? '', /for 1 judged cases: about 2 model calls/);
      assert.equal(state(record, child(file, 'Hours')).state, 'passed', record.output);
      assert.match(record.output, /judged ✔ pass \(turn 1\): "gives the opening hours of the stores"/);
      assert.match(record.output, /Model openai:127\.0\.0\.1:\d+\/judge-1: 2 calls \(0 from the cassette\)/);
      assert.equal(server.calls(), 2);
      assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${MODEL_ENDPOINT_KEY}`));
      const cassette = new TextDecoder().decode(
        await vscode.workspace.fs.readFile(vscode.Uri.joinPath(file.uri!, '..', 'judged.cassette.json')),
      );
      assert.ok(cassette.includes('Monday'));
      assert.ok(!cassette.includes(MODEL_ENDPOINT_KEY), 'no key in the cassette');
      assert.ok(!record.output.includes(MODEL_ENDPOINT_KEY), 'no key in the output');
    } finally {
      await server.close();
    }
  });

  test("the assistants' test tool judges through the same endpoint, its estimate confirmed in the editor first; declined, nothing is judged and nothing passes", async () => {
    const { ui } = editor;
    const server = await startScriptedModel({
      answer: judge({
        [HOURS]: () => pass,
        [NO_COMPETITOR]: () => ({ verdict: 'pass', reason: 'none named', quotes: [] }),
      }),
    });
    try {
      await useEndpoint(server, 'live');
      const file = await write(JUDGED);
      const tools = new ToolSession(editor.api);
      const input = { paths: [vscode.Uri.joinPath(file.uri!, '..', '..').fsPath], target: 'local' };
      ui.setAnswer((s) => (s.modal && /This run calls judge-1/.test(s.message) ? 'Run' : undefined));
      const judged = await tools.invoke('agentWorkbench_runConversationTests', input);
      assert.ok(
        ui.shown.some((s) => s.modal && /This run calls judge-1 at \S+ for 1 judged cases/.test(s.message)),
        `the estimate was confirmed before the model was called: ${judged}`,
      );
      assert.match(judged, /This run calls judge-1 at \S+ for 1 judged cases: about 2 model calls/);
      assert.match(judged, /✔ \S*judged\.yaml › Hours/);
      assert.match(
        judged,
        new RegExp(`✔ turn 1 expect "${HOURS}" \\(line 7\\): pass: it says so \\[turn 3: "Monday"\\]`),
      );
      assert.equal(server.calls(), 2);

      ui.shown.length = 0;
      ui.setAnswer(() => undefined);
      const declined = await tools.invoke('agentWorkbench_runConversationTests', input);
      assert.equal(server.calls(), 2, 'no model call once the estimate is declined');
      assert.doesNotMatch(declined, /✔ \S*judged\.yaml › Hours/);
      assert.match(declined, /the person did not confirm the model calls of this run/);
    } finally {
      await server.close();
    }
  });

  test('a fail, an unsure and a fabricated quote: one message per criterion at its line, a fail fails its turn, unsure and the quote not in the conversation are neither passed nor failed, and a quote opens its turn', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({
      answer: judge({
        [HOURS]: () => ({ verdict: 'fail', reason: 'it gives no Sunday hours', quotes: [{ turn: 3, text: 'Monday' }] }),
        [NO_COMPETITOR]: () => ({
          verdict: 'pass',
          reason: 'none',
          quotes: [{ turn: 3, text: 'we beat MegaMart prices' }],
        }),
        [UNSURE]: () => ({ verdict: 'unsure', reason: 'cannot tell', quotes: [] }),
      }),
    });
    try {
      await useEndpoint(server, 'live');
      ui.setAnswer((s) => (s.modal && /This run calls/.test(s.message) ? 'Run' : undefined));
      const file = await write(`${JUDGED}  - name: Tone
    turns:
      - user: What are your opening hours?
        expect: ${UNSURE}
`);
      const record = await runLocal([file]);
      const hours = child(file, 'Hours');
      assert.equal(state(record, hours).state, 'failed');
      const turn = state(record, child(hours, 'turn 1: What are your opening hours?'));
      assert.equal(turn.state, 'failed');
      const [failed] = turn.messages;
      assert.match(failed?.message ?? '', /\*\*✖ fail\*\*: gives the opening hours of the stores/);
      assert.match(failed?.message ?? '', /it gives no Sunday hours/);
      assert.equal(failed?.contextValue, 'agentWorkbench.judged');
      assert.equal(failed?.line, 6);
      const fabricated = state(record, hours).messages.find((m) => /never mentions a competitor/.test(m.message));
      assert.match(fabricated?.message ?? '', /judge error/);
      assert.match(fabricated?.message ?? '', /MegaMart/);
      assert.equal(state(record, child(file, 'Tone')).state, 'errored');
      // The quote's link opens the run's conversation with the quoted words selected.
      const link = /\(command:agentWorkbench\.showJudgedQuote\?([^)]+)\)/.exec(failed?.message ?? '');
      assert.ok(link, 'the quote links to its turn');
      const selected = await vscode.commands.executeCommand<string>(
        'agentWorkbench.showJudgedQuote',
        JSON.parse(decodeURIComponent(link[1]!)),
      );
      assert.equal(selected, 'Monday');
      assert.match(
        vscode.window.activeTextEditor?.document.lineAt(vscode.window.activeTextEditor.selection.start.line).text ?? '',
        /^turn 3 · agent: /,
      );
      // live keeps nothing.
      await assert.rejects(
        Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(file.uri!, '..', 'judged.cassette.json'))),
      );
    } finally {
      await server.close();
    }
  });

  test('replay: a criterion changed since the recording fails with re-record needed and no model is called; a declined estimate runs nothing', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({ answer: judge({ [HOURS]: () => pass, [NO_COMPETITOR]: () => pass }) });
    try {
      await useEndpoint(server, 'record');
      ui.setAnswer((s) => (s.modal && /This run calls/.test(s.message) ? 'Run' : undefined));
      const file = await write(JUDGED);
      assert.equal(state(await runLocal([file]), child(file, 'Hours')).state, 'passed');
      const recorded = server.calls();
      await settings().update('cassette', 'replay', vscode.ConfigurationTarget.Global);
      const again = await runLocal([file]);
      assert.equal(state(again, child(file, 'Hours')).state, 'passed', again.output);
      assert.equal(server.calls(), recorded, 'replay calls no model');
      // The criterion changed: the cassette has no answer for it.
      // Edited in the editor, as a person does: the Testing view reads the document's text.
      const doc = await vscode.workspace.openTextDocument(file.uri!);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        file.uri!,
        new vscode.Range(0, 0, doc.lineCount, 0),
        JUDGED.replace(NO_COMPETITOR, 'never names another shop').replace('name: Hours', 'name: Hours edited'),
      );
      assert.ok(await vscode.workspace.applyEdit(edit));
      await doc.save();
      const hours = await until('the edited case', () => {
        let found: vscode.TestItem | undefined;
        tests.controller.items.get(file.id)?.children.forEach((c) => {
          if (c.label === 'Hours edited') found = c;
        });
        return found;
      });
      const missed = await runLocal([hours]);
      assert.equal(state(missed, hours).state, 'failed', missed.output);
      assert.ok(state(missed, hours).messages.some((m) => /re-record needed/.test(m.message)));
      assert.equal(server.calls(), recorded, 'a miss calls no model');
      // Back to record, the estimate declined: nothing is sent.
      await settings().update('cassette', 'record', vscode.ConfigurationTarget.Global);
      ui.setAnswer(() => undefined);
      const declined = await runLocal([hours]);
      assert.equal(state(declined, hours).state, 'skipped');
      assert.match(declined.output, /Not run: the model calls were not confirmed/);
      assert.equal(server.calls(), recorded);
    } finally {
      await server.close();
    }
  });

  test('the cost cap: a run capped at 1 model call stops asking the model there, keeps the result so far and says where it stopped', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({ answer: judge({ [HOURS]: () => pass, [NO_COMPETITOR]: () => pass }) });
    try {
      await useEndpoint(server, 'live');
      await settings().update('maxCalls', 1, vscode.ConfigurationTarget.Global);
      ui.setAnswer((s) => (s.modal && /This run calls/.test(s.message) ? 'Run' : undefined));
      const file = await write(JUDGED);
      const record = await runLocal([file]);
      assert.ok(ui.shown.some((s) => s.modal && /The run stops at 1 model calls/.test(s.detail)));
      assert.equal(server.calls(), 1);
      assert.notEqual(state(record, child(file, 'Hours')).state, 'passed', record.output);
      assert.match(record.output, /judged ✔ pass/);
      assert.match(record.output, /stopped asking the model at/);
    } finally {
      await server.close();
    }
  });
  test('a label recorded: The Judge Was Wrong on a failed verdict writes the labels file beside the tests, and the next run reports that criterion as advisory, which the promotion gate does not block on', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({
      answer: judge({
        [HOURS]: () => ({ verdict: 'fail', reason: 'it gives no Sunday hours', quotes: [{ turn: 3, text: 'Monday' }] }),
        [NO_COMPETITOR]: () => pass,
      }),
    });
    try {
      await useEndpoint(server, 'live');
      ui.setAnswer((s) => (s.modal && /This run calls/.test(s.message) ? 'Run' : undefined));
      const file = await write(JUDGED);
      const first = await runLocal([file]);
      const hours = child(file, 'Hours');
      const turnItem = child(hours, 'turn 1: What are your opening hours?');
      assert.equal(state(first, turnItem).state, 'failed');
      assert.equal(state(first, hours).advisoryOnly, undefined, 'no labels yet: the fail blocks');
      // The turn's item holds one judged verdict: the command labels it without asking which.
      const written = await vscode.commands.executeCommand<{
        labelsFile: vscode.Uri;
        labels: number;
        agreement: number;
      }>('agentWorkbench.labelVerdictWrong', turnItem);
      assert.equal(written.labels, 1);
      assert.equal(written.agreement, 0);
      const labelsFile = vscode.Uri.joinPath(file.uri!, '..', 'judged.labels.json');
      assert.equal(written.labelsFile.fsPath, labelsFile.fsPath);
      const kept = new TextDecoder().decode(await vscode.workspace.fs.readFile(labelsFile));
      assert.match(kept, /"label": "wrong"/);
      assert.match(kept, new RegExp(HOURS));
      assert.ok(ui.shown.some((s) => s.kind === 'info' && /Labelled the judge wrong/.test(s.message)));
      // The next run: the judge agrees with 0% of its labels, below the setting (0.8): advisory.
      const second = await runLocal([file]);
      const advisory = state(second, hours);
      assert.equal(advisory.state, 'failed', 'an advisory criterion is still reported');
      assert.equal(advisory.advisoryOnly, true, 'failed by the advisory criterion only');
      // The run's output says, per labelled criterion, how many labels it has and how often the judge agreed.
      assert.match(second.output, /judged ✖ fail \(turn 1\) \[advisory\] \[1 label, judge agreed 0%\]/);
      assert.ok(
        advisory.messages.some((m) => /Advisory: the judge agreed with 1 labels 0% of the time/.test(m.message)),
        JSON.stringify(advisory.messages),
      );
    } finally {
      await server.close();
    }
  });
  test('a simulated caller: the model plays the caller from its scenario until it says its goal is met, the success criterion is judged on the whole conversation, and why it stopped is in the output', async () => {
    const { ui } = editor;
    const server = await startScriptedModel({
      answer: (r) =>
        systemOf(r) === JUDGE_SYSTEM
          ? judge({ [HOURS]: () => pass })(r)
          : JSON.stringify({ done: true, why: 'goal-met', message: 'I have the opening hours now' }),
    });
    try {
      await useEndpoint(server, 'live');
      ui.setAnswer((s) => (s.modal && /This run calls/.test(s.message) ? 'Run' : undefined));
      const file = await write(`agent: ag_support
cases:
  - name: Caller wants the hours
    scenario:
      goal: find out when the stores open
      persona: a busy parent
      first_line: What are your opening hours?
      max_turns: 3
      success: ${HOURS}
`);
      const record = await runLocal([file]);
      const item = child(file, 'Caller wants the hours');
      assert.equal(state(record, item).state, 'passed', record.output);
      // The written first line is said without a call: one caller call (done), one judge call (the success).
      assert.equal(server.calls(), 2);
      assert.ok(server.requests.some((r) => systemOf(r) !== JUDGE_SYSTEM && r.text.includes('a busy parent')));
      assert.match(record.output, /user: What are your opening hours\?/);
      assert.match(
        record.output,
        /the simulated conversation stopped: the goal was judged met \(I have the opening hours now\)/,
      );
      assert.match(record.output, /judged ✔ pass/);
    } finally {
      await server.close();
    }
  });
});
