// Comparing two environments in the editor, against the local platform it runs: the Testing view's Compare Two
// Environments with a known change (the flips, the changed words and the changed handoffs exact), two identical
// environments under the local agent's variability (no significant change), and Promote's Compare with, which
// blocks on a significant regression unless a reason is typed and keeps its report with the deployment it made.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import type { EditorComparison } from '../../src/ui/testing/comparisonRun';
import { LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { child, otherPlatformProfile } from '../support/editor/extension';
import type { Shown } from '../support/editor/prompts';
import { editorSuite } from '../support/editor/suite';
import { callerChat, shortenReturnsInSandbox } from '../support/editor/supportDesk';
import { childItem, reportedOf, testFilesUnder } from '../support/editor/testingView';
import { until } from '../support/until';

const SUITE = `agent: ag_support
cases:
  - name: Returns
    tags: [sandbox]
    turns:
      - user: Can I return an item?
        contains: 30 days
  - name: Opening hours
    turns:
      - user: What are your opening hours?
        contains: Monday to Saturday
  - name: A person
    turns:
      - user: Can I speak to a person, please?
        handoff: true
`;

/** Where a promotion's comparison report is kept: with the deployment it made, in the workspace. */
const keptReport = (deploymentId: string) =>
  vscode.Uri.joinPath(
    vscode.workspace.workspaceFolders![0]!.uri,
    '.agent-workbench',
    'comparisons',
    'ag_support',
    `${deploymentId}.md`,
  );

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

suite('Comparing two environments', function () {
  this.timeout(240_000);
  const editor = editorSuite({ seed: 'base' });
  let tests: ConversationTests;
  let write: (text: string) => Promise<vscode.TestItem>;
  const settings = () => vscode.workspace.getConfiguration('agentWorkbench.tests');
  const root = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'compare');

  suiteSetup(async () => {
    tests = editor.api.testing!.conversationTests();
    write = testFilesUnder(tests, root());
    await settings().update('compareRepeat', 6, vscode.ConfigurationTarget.Workspace);
  });

  // Each test's files only: Promote runs every case tagged sandbox in the workspace.
  teardown(async () => {
    await vscode.workspace.fs.delete(root(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await tests.controller.refreshHandler?.(new vscode.CancellationTokenSource().token);
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs
      .delete(vscode.Uri.joinPath(root(), '..', '.agent-workbench', 'comparisons'), {
        recursive: true,
        useTrash: false,
      })
      .then(undefined, () => undefined);
    await settings().update('compareRepeat', undefined, vscode.ConfigurationTarget.Workspace);
    await editor.admin.setOptions({ variabilityRate: 0 });
    await editor.admin.reset('demo');
  });

  /** Promote of Support Desk from sandbox with the suite written, answering its first question with `choice` and
   * going on past the comparison's summary. */
  const promoteChoosing = async (choice: string) => {
    await write(SUITE);
    editor.ui.shown.length = 0;
    editor.ui.setAnswer((s) =>
      s.modal && /conversation tests tagged sandbox/.test(s.message)
        ? choice
        : s.modal && /What promoting Support Desk from sandbox to pre-release changes/.test(s.message)
          ? 'Continue'
          : s.modal
            ? s.items[0]
            : undefined,
    );
    return exec<{ deployment: { id: string; environment: string } } | undefined>(
      'promote',
      { agentId: 'ag_support', environment: 'sandbox' },
      { deploymentMessage: '' },
    );
  };

  /** Runs the Testing view's Compare Two Environments on items, answering which environments. */
  const compareInTestingView = async (items: vscode.TestItem[], candidate: string, base: string) => {
    const before = tests.comparisons.length;
    editor.ui.setAnswer((s: Shown) =>
      s.kind === 'pick' && /^The candidate/.test(s.message)
        ? candidate
        : s.kind === 'pick' && /^The base/.test(s.message)
          ? base
          : undefined,
    );
    const profile = tests.compareProfile!;
    assert.equal(profile.label, 'Compare Two Environments…');
    await profile.runHandler(
      new vscode.TestRunRequest(items, undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    assert.equal(tests.comparisons.length, before + 1, 'a comparison ran');
    return { compared: tests.comparisons.at(-1)!, record: tests.runs.at(-1)! };
  };

  test('a returns topic changed in sandbox regresses significantly against pre-release, exactly: one flip, the changed words at its turn; the others read no significant change', async () => {
    await shortenReturnsInSandbox(editor);
    const file = await write(SUITE);
    const { compared, record } = await compareInTestingView([file], 'sandbox', 'pre-release');
    const s = compared.suite;
    assert.deepEqual(s.flipped, { passToFail: 1, failToPass: 0 });
    assert.equal(s.counts['significant regression'], 1);
    assert.equal(s.counts['no significant change'], 2);
    assert.equal(s.handoffChanged, 0);
    const returns = s.cases.find((c) => c.testCase.name === 'Returns')!;
    assert.deepEqual([returns.verdict.passToFail, returns.verdict.failToPass, returns.verdict.pairs], [6, 0, 6]);
    assert.equal(returns.verdict.pValue.toFixed(4), '0.0313');
    assert.equal(returns.turns[0]?.answerChanged, 6);

    // The Testing view: the regression fails its case, with the answers of both sides as a diff at its turn.
    const failed = reportedOf(record, childItem(file, 'Returns'));
    assert.equal(failed.state, 'failed');
    assert.match(failed.messages[0]!.message, /^Returns: 6 pass→fail, 0 fail→pass of 6 paired runs: p = 0\.0313/);
    const turn = failed.messages.find((m) => m.expected !== undefined)!;
    assert.match(turn.expected!, /within 30 days/);
    assert.match(turn.actual!, /within 14 days/);
    assert.equal(turn.line, 5, 'at the line of its turn');
    assert.equal(reportedOf(record, childItem(file, 'Opening hours')).state, 'passed');
    assert.match(record.output, /1 went from passing to failing, 0 from failing to passing; 1 significant regressions/);
    assert.match(
      compared.markdown,
      /^## ❌ Comparison: local sandbox against local pre-release: significant regression/,
    );
    assert.match(compared.markdown, /within <del>30<\/del><ins>14<\/ins> days/);
  });

  test('a Chat connector that hands off elsewhere in sandbox: the handoff case reports the changed destination in every pair, and no flip', async () => {
    const file = await write(
      SUITE.split('  - name: Opening hours')[0] + SUITE.slice(SUITE.indexOf('  - name: A person')),
    );
    // The first comparison makes the local pre-release connector, a copy of sandbox's; then sandbox's changes.
    await compareInTestingView([childItem(file, 'A person')], 'sandbox', 'pre-release');
    await editor.admin.setConnector('conn_chat', { handoffDestination: 'billing-queue' });
    const { compared } = await compareInTestingView([childItem(file, 'A person')], 'sandbox', 'pre-release');
    const person = compared.suite.cases[0]!;
    assert.equal(person.handoffChanged, 6);
    assert.deepEqual(person.turns[0]?.handoff, { base: 'human-support-queue', candidate: 'billing-queue', pairs: 6 });
    assert.equal(person.verdict.verdict, 'no significant change', 'it hands off on both sides: no check flipped');
    assert.equal(compared.suite.handoffChanged, 1);
    assert.match(compared.markdown, /handoff `human-support-queue` → `billing-queue` in 6 runs/);
  });

  test("two identical environments under the local agent's variability: answers differ, and the suite reads no significant change", async () => {
    await editor.admin.setOptions({ variabilityRate: 0.3, variabilitySeed: 7 });
    try {
      const file = await write(SUITE);
      const { compared } = await compareInTestingView([file], 'sandbox', 'pre-release');
      const s = compared.suite;
      assert.ok(
        s.cases.some((c) => c.turns.some((t) => t.answerChanged > 0)),
        'the answers were reworded: the noise is there',
      );
      assert.equal(s.verdict.verdict, 'no significant change', s.verdict.reason);
      assert.equal(s.counts['significant regression'] + s.counts['significant improvement'], 0);
    } finally {
      await editor.admin.setOptions({ variabilityRate: 0 });
    }
  });

  test("through a real platform's profiles: each environment through its own profile's Chat key (the other asked once, then remembered), and a case whose agent another project serves is skipped on both sides with the reason", async () => {
    const file = await write(`cases:
  - name: Support's returns
    agent: ag_support
    turns:
      - user: Can I return an item?
        contains: 30 days
  - name: Bella's greeting
    agent: ag_restaurant
    turns:
      - contains: Gio
`);
    // The demo seed serves the restaurant's agent too, in a project of its own.
    await editor.admin.reset('demo');
    await exec('refreshAgents');
    const { connection } = tests;
    // A platform other than the local one as the editor sees it: the support desk's project, one profile per Chat key.
    const sandbox = 'remote-desk-sandbox';
    const preRelease = 'remote-desk-pre-release';
    await connection.profiles.save(otherPlatformProfile(editor.urls, sandbox, 'Remote desk', LOCAL_PROJECT.id));
    await connection.profiles.save(
      otherPlatformProfile(editor.urls, preRelease, 'Remote desk pre-release', LOCAL_PROJECT.id),
    );
    try {
      for (const [id, token] of [
        [sandbox, LOCAL_CONNECTORS.chatToken],
        [preRelease, `${LOCAL_CONNECTORS.chatToken}_pre-release`],
      ] as const) {
        await connection.vault.set(id, 'agentsApiKey', LOCAL_KEYS.agents);
        await connection.vault.set(id, 'chatApiKey', LOCAL_KEYS.chat);
        await connection.vault.set(id, 'chatConnectorToken', token);
      }
      await exec('switchProfile', sandbox);
      await until('the agents of the profile in use', () =>
        tests.runProfiles.find((p) => p.isDefault && p.label.startsWith('Remote desk')),
      );
      await settings().update('compareRepeat', 2, vscode.ConfigurationTarget.Workspace);
      const asked: string[] = [];
      const answer = (s: Shown) => {
        if (s.kind === 'pick' && /^Its Chat API key and connector token reach pre-release/.test(s.message)) {
          asked.push(s.message);
          return 'Remote desk pre-release';
        }
        return s.modal ? s.items[0] : undefined;
      };
      const run = async () => {
        editor.ui.setAnswer((s: Shown) =>
          s.kind === 'pick' && /^The candidate/.test(s.message)
            ? 'sandbox'
            : s.kind === 'pick' && /^The base/.test(s.message)
              ? 'pre-release'
              : answer(s),
        );
        const profile = tests.compareProfile!;
        await profile.runHandler(
          new vscode.TestRunRequest([file], undefined, profile),
          new vscode.CancellationTokenSource().token,
        );
        return { compared: tests.comparisons.at(-1)!, record: tests.runs.at(-1)! };
      };
      const { compared, record } = await run();
      assert.match(
        compared.markdown,
        /Comparison: Remote desk \(sandbox\) against Remote desk pre-release \(pre-release\)/,
      );
      const support = compared.suite.cases.find((c) => c.testCase.name === "Support's returns")!;
      assert.equal(support.verdict.pairs, 2, support.verdict.reason);
      const bella = compared.suite.cases.find((c) => c.testCase.name === "Bella's greeting")!;
      assert.equal(bella.verdict.verdict, 'not compared', record.output);
      assert.equal(reportedOf(record, childItem(file, "Bella's greeting")).state, 'skipped');
      assert.match(
        record.output,
        /not compared: Bella's greeting \(skipped on the base: Bella Tavola Bookings is served by project PROJECT-b7e11a7a\. The runtime keys of the profile "Remote desk pre-release" belong to project PROJECT-5a7e1c0d, which serves Support Desk: Chat would reach Support Desk, not Bella Tavola Bookings\.\)/,
      );
      await run();
      assert.equal(asked.length, 1, 'the profile of pre-release was asked once, then remembered');
    } finally {
      await settings().update('compareRepeat', 6, vscode.ConfigurationTarget.Workspace);
      await exec('switchProfile', 'local');
      await connection.profiles.remove(sandbox);
      await connection.profiles.remove(preRelease);
    }
  });

  test('Promote offers Compare with pre-release: a significant regression blocks it unless a reason is typed; the report is kept with the deployment and opens from it in the Agents view', async () => {
    await shortenReturnsInSandbox(editor);
    await write(SUITE);
    const { ui } = editor;
    const promote = () =>
      exec<{ deployment: { id: string; environment: string } } | undefined>(
        'promote',
        { agentId: 'ag_support', environment: 'sandbox' },
        { deploymentMessage: '' },
      );
    // Blocked: the comparison shows the summary, and no reason is typed.
    ui.shown.length = 0;
    ui.setAnswer((s) =>
      s.modal && /conversation tests tagged sandbox/.test(s.message)
        ? 'Compare with pre-release'
        : s.modal && /makes it worse for callers/.test(s.message)
          ? 'Continue'
          : undefined,
    );
    assert.equal(await promote(), undefined);
    const asked = ui.shown.find((s) => s.modal && /conversation tests tagged sandbox/.test(s.message))!;
    assert.deepEqual(asked.items, [
      'Run Tests',
      'Compare with pre-release',
      'Compare with pre-release and a Traffic Sample',
      'Promote Without Testing',
    ]);
    const summary = ui.shown.find((s) => /makes it worse for callers/.test(s.message))!;
    assert.match(summary.detail, /1 cases: 1 went from passing to failing/);
    assert.ok(ui.shown.some((s) => s.kind === 'input' && /The promotion is blocked/.test(s.message)));
    assert.ok(!ui.shown.some((s) => s.modal && /^Promote /.test(s.message)), 'the promotion itself was never asked');

    // With a reason, it goes on; the report is kept with the deployment it made.
    let opened = false;
    ui.setAnswer((s) => {
      if (s.modal && /conversation tests tagged sandbox/.test(s.message)) return 'Compare with pre-release';
      if (s.modal && /makes it worse for callers/.test(s.message)) {
        if (!opened) {
          opened = true;
          return 'Open Report';
        }
        return 'Continue';
      }
      if (s.kind === 'input' && /The promotion is blocked/.test(s.message)) return 'the shorter window is policy now';
      return s.modal ? s.items[0] : undefined;
    });
    const promoted = await promote();
    assert.equal(promoted?.deployment.environment, 'pre-release');
    assert.ok(
      vscode.workspace.textDocuments.some(
        (d) => d.isUntitled && /Comparison: local sandbox against local pre-release/.test(d.getText()),
      ),
      'Open Report showed the report',
    );
    const kept = keptReport(promoted!.deployment.id);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(kept));
    assert.match(text, /significant regression/);
    assert.match(text, /within <del>30<\/del><ins>14<\/ins> days/);

    // The deployment in the Agents view offers its report.
    const view = editor.api.agentsView;
    await exec('refreshAgents');
    const agent = await child(view, undefined, 'Support Desk');
    const deployments = await child(view, agent.node, 'Deployments');
    const preRelease = await child(view, deployments.node, 'pre-release');
    const row = await until('the compared deployment in the Agents view', async () => {
      const found = await child(view, preRelease.node, /^Version /).catch(() => undefined);
      return found && /\.compared/.test(found.item.contextValue ?? '') ? found : undefined;
    });
    await exec('openComparisonReport', row.node);
    await until('the report rendered', () =>
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType)),
      ),
    );
  });

  test('Promote with a comparison that finds no significant change goes on to the promotion and keeps its report', async () => {
    const { ui } = editor;
    const promoted = await promoteChoosing('Compare with pre-release');
    assert.equal(promoted?.deployment.environment, 'pre-release');
    const summary = ui.shown.find((s) => /What promoting Support Desk/.test(s.message))!;
    assert.match(summary.detail, /0 went from passing to failing/);
    assert.ok(!ui.shown.some((s) => s.kind === 'input' && /blocked/.test(s.message)), 'nothing blocked it');
    const comparison: EditorComparison = tests.comparisons.at(-1)!;
    assert.equal(comparison.suite.counts['significant regression'], 0);
    const kept = keptReport(promoted!.deployment.id);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(kept)), /^## /);
  });

  test('Promote with a comparison and a traffic sample: the callers of pre-release replayed against sandbox, the sample said in the confirmation and kept in the report', async () => {
    // Six conversations callers had with pre-release, finished, through the Chat API as callers have them.
    const chat = callerChat(editor, 'pre-release');
    for (let i = 0; i < 6; i++) {
      const created = await chat('create', {});
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await chat('respond', { conversation_id: created.body.conversation_id, message: 'What are your opening hours?' });
      await chat('close', { conversation_id: created.body.conversation_id }, 'PUT');
    }
    const { ui } = editor;
    const promoted = await promoteChoosing('Compare with pre-release and a Traffic Sample');
    assert.equal(promoted?.deployment.environment, 'pre-release', JSON.stringify(ui.shown.map((s) => s.message)));
    const summary = ui.shown.find((s) => /What promoting Support Desk/.test(s.message))!;
    assert.match(summary.detail, /0 went from passing to failing/);
    assert.match(
      summary.detail,
      /Traffic sample: Replayed 6 of 6 conversations of local pre-release against local sandbox: 6 unchanged, 0 changed, 0 failed\./,
    );
    const report = new TextDecoder().decode(await vscode.workspace.fs.readFile(keptReport(promoted!.deployment.id)));
    assert.match(report, /Replay: 6 conversations of local pre-release against local sandbox/);
  });
});
