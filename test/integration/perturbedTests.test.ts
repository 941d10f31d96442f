// Voice-shaped callers in the Testing view: a case with `perturb:` run against the local platform sends the
// reworded words, says them and the seed in the run's output and in a failing turn's message, sends the same words
// for the same seed in every run, and other words for another seed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import type { RunRecord } from '../../src/ui/testing/testRun';
import { activateExtension, startLocalPlatformInEditor } from '../support/editor/extension';
import { until } from '../support/until';
import { keepForSecretsScan } from '../support/editor/keptForScan';

const QUESTION = 'Hello! What are your opening hours on the 25th, and can I return an item after 30 days?';

const file = (seed: number) => `agent: ag_support
cases:
  - name: Voice-shaped
    perturb: { rate: 0.5, seed: ${seed} }
    turns:
      - user: ${QUESTION}
        handoff: none
  - name: Voice-shaped, failing
    perturb: { seed: 3, kinds: { numbers: 1, punctuation: 1 } }
    turns:
      - user: Can I return an item after 30 days?
        contains: a text the agent never says
`;

suite('Perturbed conversation tests in the Testing view', function () {
  // Conversations held one after the other, on a busy machine.
  this.timeout(180_000);
  let tests: ConversationTests;
  const folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'perturbed-tests');
  let n = 0;

  /** Writes the file with `seed` for the first case, runs both cases on the local platform, and gives the record. */
  const runWith = async (seed: number): Promise<RunRecord> => {
    // A file of its own each time: a run reads the file as written, never a copy from before it changed.
    const uri = vscode.Uri.joinPath(folder, 'tests', `cases${++n}.yaml`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(file(seed)));
    await tests.discover();
    await vscode.workspace.openTextDocument(uri);
    // The file watcher reports a new file late on a busy machine.
    const item = await until(`the item of ${uri.fsPath}`, () => tests.controller.items.get(uri.toString()), {
      timeoutMs: 90_000,
    });
    const profile = tests.runProfiles[0]!;
    await profile.runHandler(
      new vscode.TestRunRequest([item], undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    return tests.runs.at(-1)!;
  };
  /** The words the run sent for the question, as its output shows them above their seed. */
  const sentWith = (record: RunRecord, seed: number): string => {
    const m = new RegExp(
      `user: (.*)\\n  \\(perturbed with seed ${seed}: .*written "${QUESTION.replace(/[.?*+()]/g, '\\$&')}"\\)`,
    ).exec(record.output);
    assert.ok(m, record.output);
    return m[1] ?? '';
  };

  suiteSetup(async () => {
    await startLocalPlatformInEditor();
    tests = (await activateExtension()).testing!.conversationTests();
  });

  suiteTeardown(async () => {
    keepForSecretsScan(folder);
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  test('the same seed sends the same words in two runs, another seed other words; a failing turn says what was sent and the seed', async () => {
    const first = await runWith(7);
    const sent = sentWith(first, 7);
    assert.notEqual(sent, QUESTION);
    assert.match(first.output, /1 passed, 1 failed/);
    const messages = [...first.items.values()].flatMap((i) => i.messages.map((m) => m.message));
    const replay =
      '[sent "can i return an item after thirty days" for "Can I return an item after 30 days?", perturb seed 3]';
    assert.ok(
      messages.some((m) => m.includes(replay)),
      messages.join('\n'),
    );
    const again = await runWith(7);
    assert.equal(sentWith(again, 7), sent);
    const other = await runWith(8);
    assert.notEqual(sentWith(other, 8), sent);
  });
});
