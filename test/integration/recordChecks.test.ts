// Record checks in the Testing view, against the local platform the editor runs: a case checking its conversation's
// state, intents and out-of-domain mark passes; a failed record check is a message at its line; with transcript
// visibility off the per-turn checks are not checked and the case is skipped with the reason, never passed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import type { ReportedItem, RunRecord } from '../../src/ui/testing/testRun';
import { activateExtension, type LocalPlatformUrls, startLocalPlatformInEditor } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';
import { keepForSecretsScan } from '../support/editor/keptForScan';

const BOOKING = `agent: ag_support
cases:
  - name: Booking is made
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
        entities: { party_size: "4" }
        ood: true
    state:
      booking_confirmed: true
      booking_reference: { matches: "^BT-" }
  - name: Misspelt state key
    turns:
      - user: A table for two at 7pm
        intents: [book_table]
    state:
      booking_refrence: { exists: true }
`;

suite('Record checks in the Testing view', function () {
  this.timeout(180_000);
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let tests: ConversationTests;
  const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'record-checks');
  let n = 0;

  const write = async (text: string): Promise<vscode.TestItem> => {
    const uri = vscode.Uri.joinPath(root, `agent${++n}`, 'tests', 'cases.yaml');
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
    assert.equal(profile.label, 'Local platform');
    await profile.runHandler(
      new vscode.TestRunRequest(items, undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    return tests.runs.at(-1)!;
  };
  const state = (record: RunRecord, item: vscode.TestItem): ReportedItem => {
    const reported = record.items.get(item.id);
    if (!reported) throw new Error(`${item.id} was not reported`);
    return reported;
  };

  suiteSetup(async () => {
    urls = await startLocalPlatformInEditor();
    admin = new LocalAdmin(urls.admin);
    const api = await activateExtension();
    tests = api.testing!.conversationTests();
  });

  teardown(async () => {
    await admin.clearFaults();
    await admin.setProjectSettings('support-desk', { transcriptVisibility: true });
  });

  suiteTeardown(async () => {
    keepForSecretsScan(root);
    await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  test('state, intents, entities and ood are checked on the record; an unknown state key fails listing the keys the record has', async () => {
    const file = await write(BOOKING);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'Booking is made')).state, 'passed', record.output);
    assert.match(record.output, /✔ record state\.booking_reference \(line 11\): "BT-[0-9A-F]{6}"/);
    assert.match(record.output, /✔ record turn 1 intents \(line 5\): book_table, ood/);
    const misspelt = state(record, child(file, 'Misspelt state key'));
    assert.equal(misspelt.state, 'failed');
    const found = misspelt.messages.find((m) => /no key booking_refrence/.test(m.message));
    assert.ok(found, JSON.stringify(misspelt.messages));
    assert.match(found.message, /it has .*booking_reference/);
    assert.equal(found.line, 16);
  });

  test('latency from the record, and a record that appears late: it is waited for, within the bounded wait', async () => {
    // The first two listings answer as if the record were not there yet, as a platform's pipeline may lag.
    await admin.addFault({
      family: 'runtime',
      method: 'GET',
      path: '/conversations',
      replyBody: { conversations: [], descriptions: {}, cursor: null },
      times: 2,
    });
    const since = await admin.lastRequestSeq();
    const file = await write(`agent: ag_support
cases:
  - name: Quick enough
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
        record_latency_ms: 100000
`);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'Quick enough')).state, 'passed', record.output);
    assert.match(record.output, /✔ record turn 1 record_latency_ms \(line 5\): \d+ ms/);
    const listed = (await admin.requests({ since, path: '/conversations' })).filter((q) => q.method === 'GET');
    assert.ok(listed.length >= 3, `looked ${listed.length} times`);
    assert.ok(
      listed.some((q) => q.query.include_latency?.[0] === 'true'),
      'latency asked for with include_latency',
    );
  });

  test('a key the Conversations API refuses: every record check is not checked, saying the key lacks the permission, and the case is not passed', async () => {
    await admin.addFault({ family: 'runtime', method: 'GET', path: '/conversations', status: 403 });
    const file = await write(BOOKING.split('  - name: Misspelt')[0] ?? BOOKING);
    const record = await runLocal([file]);
    assert.notEqual(state(record, child(file, 'Booking is made')).state, 'passed', record.output);
    assert.match(record.output, /not checked: .*refused the key \(403\): it lacks Conversations data permission/);
  });

  test('transcript visibility off: the per-turn record checks are not checked, and the case is skipped with why', async () => {
    await admin.setProjectSettings('support-desk', { transcriptVisibility: false });
    const file = await write(BOOKING.split('  - name: Misspelt')[0] ?? BOOKING);
    const record = await runLocal([file]);
    assert.equal(state(record, child(file, 'Booking is made')).state, 'skipped');
    assert.match(record.output, /- record turn 1 intents \(line 5\): not checked: transcript visibility is off/);
    assert.match(record.output, /Skipped: the scripted checks held, but 3 record checks .* were not checked/);
  });
});
