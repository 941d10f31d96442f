import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunRecord } from '../../src/ui/testing/testRun';
import { shownFolder, waitForEditor } from '../support/editor/agentFolders';
import type { Shown } from '../support/editor/prompts';
import { editorSuite } from '../support/editor/suite';
import { until } from '../support/until';

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/**
 * The Testing view's continuous run on the local platform: while it is on, each save in a checked-out agent folder is
 * pushed and published (asked once), and the watched cases of that agent run again; a save during a run stops it.
 */
suite('Conversation tests that follow saves', function () {
  this.timeout(240_000);
  const editor = editorSuite({ seed: 'demo', reset: 'once' });
  let folder: string;

  suiteTeardown(async () => {
    // The demo agents as this suite found them: the suites after it expect Support Desk to greet as Sam.
    await editor.admin.reset('demo');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  test('each save pushes its change once and publishes, asked once, then the watched case runs again; a save during a run stops it and closes its conversation', async () => {
    const { api, ui, admin } = editor;
    const tests = api.testing!.conversationTests();
    await exec('refreshAgents');
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    folder = join(root, `follow-${randomBytes(4).toString('hex')}`);
    assert.equal(await exec('checkOut', { agentId: 'ag_support', branchId: 'br_support_main', folder }), folder);
    await waitForEditor(api, 'the source control of the folder', () => shownFolder(api, folder));

    const testFile = vscode.Uri.file(join(folder, 'tests', 'follow.yaml'));
    await vscode.workspace.fs.writeFile(
      testFile,
      new TextEncoder().encode(
        [
          'cases:',
          '  - name: Greets as Riley',
          '    turns:',
          '      - contains: Riley',
          '      - user: Hello',
          '        contains: Hello',
          '',
        ].join('\n'),
      ),
    );
    const fileItem = await until(
      'the test file in the Testing view',
      async () => {
        await tests.controller.refreshHandler?.(new vscode.CancellationTokenSource().token);
        return tests.controller.items.get(testFile.toString());
      },
      { timeoutMs: 60_000 },
    );
    await tests.controller.resolveHandler?.(fileItem);

    ui.shown.length = 0;
    ui.setAnswer((s: Shown) =>
      s.modal ? s.items.find((i) => i === 'Push and Publish' || i === 'Overwrite') : undefined,
    );
    const profile = tests.runProfiles.find((p) => p.label === 'Local platform');
    assert.ok(profile, 'the local platform has a run profile');
    assert.equal(profile.supportsContinuousRun, true, 'its runs can follow saves');

    // A platform that shows no read of a branch's behavior (spec-only) checks out an empty folder: the person writes it.
    const behaviorUri = vscode.Uri.file(join(folder, 'behavior.md'));
    const checkedOutEmpty = await vscode.workspace.fs.stat(behaviorUri).then(
      () => false,
      () => true,
    );
    if (checkedOutEmpty)
      await vscode.workspace.fs.writeFile(
        behaviorUri,
        new TextEncoder().encode('# Support Desk\n\nYou are Sam, the support agent of Acme.\n'),
      );
    const behavior = await vscode.workspace.openTextDocument(behaviorUri);
    // The names the folder was checked out with. A platform that lists no branches (spec-only) names the branch by its
    // id, so the Testing view cannot tell it is main: it pushes and says that publishing serves main.
    const manifest = JSON.parse(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(join(folder, 'agent.json')))),
    ) as { name: string; branch: { name: string } };
    const agent = manifest.name;
    const pushed = `Pushed ${agent} (${manifest.branch.name})`;
    const publishes = manifest.branch.name === 'main';
    const mode = vscode.workspace.getConfiguration('agentWorkbench.localPlatform').get<string>('responses', 'full');
    assert.equal(publishes, mode !== 'spec-only', `main is known as main where branches can be listed (${mode})`);
    /** Replaces a text in behavior.md and saves it, as a person does in the editor. */
    const saveBehavior = async (from: RegExp, to: string) => {
      const text = behavior.getText();
      const match = from.exec(text);
      assert.ok(match, `behavior.md holds ${from}`);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        behavior.uri,
        new vscode.Range(behavior.positionAt(match.index), behavior.positionAt(match.index + match[0].length)),
        to,
      );
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await behavior.save(), 'saved');
    };
    const caseState = (run: RunRecord) => [...run.items.values()].find((i) => i.id.endsWith('Greets as Riley'))?.state;
    const nextRun = async (count: number) => {
      const run = await until(`run ${count} of the continuous run`, () => tests.runs[before + count - 1], {
        timeoutMs: 90_000,
      });
      await run.done;
      return run;
    };

    const source = new vscode.CancellationTokenSource();
    const before = tests.runs.length;
    const following = profile.runHandler(new vscode.TestRunRequest([fileItem], undefined, profile, true), source.token);
    try {
      assert.equal(tests.runs.length, before, 'turning it on runs nothing by itself');
      const start = await admin.lastRequestSeq();

      await saveBehavior(/You are Sam\b/, 'You are Riley');
      const first = await nextRun(1);
      assert.ok(first.output.includes(`${pushed}: 1 change(s).`), first.output);
      if (publishes) {
        assert.ok(first.output.includes(`Published ${agent} to the local sandbox`), first.output);
        assert.equal(caseState(first), 'passed', first.output);
      } else assert.ok(first.output.includes('publishing serves main'), first.output);

      await saveBehavior(/You are Riley\b/, 'You are Morgan');
      const second = await nextRun(2);
      assert.ok(second.output.includes(`${pushed}: 1 change(s).`), second.output);
      if (publishes) assert.equal(caseState(second), 'failed', 'the greeting no longer names Riley');

      // A save while the third run waits for the agent's answer: that run stops, the next one tests the new text.
      await admin.addFault({ family: 'runtime', path: 'chat/respond', delayMs: 8_000, times: 1 });
      const since = await admin.lastRequestSeq();
      await saveBehavior(/You are Morgan\b/, 'You are Riley');
      const third = await until('the third run', () => tests.runs[before + 2], { timeoutMs: 90_000 });
      await until('the third run waiting for the answer', async () => {
        const respond = await admin.requests({ since, path: 'chat/respond' });
        return respond.length > 0 && caseState(third) === 'started';
      });
      await saveBehavior(/\s*$/, '\nKeep every answer short.\n');
      await third.done;
      assert.notEqual(caseState(third), 'passed', 'the run a save stopped does not pass');
      assert.equal((await admin.requests({ since, path: 'chat/close' })).length, 1, 'its conversation was closed');
      const fourth = await nextRun(4);
      if (publishes) assert.equal(caseState(fourth), 'passed', fourth.output);

      const asked = ui.shown.filter((s) => s.modal && /on every save/.test(s.message));
      assert.equal(asked.length, 1, 'asked once for the whole continuous run');
      // Each save's change was pushed once: four saves, four pushes of one change each, no push sent again.
      const pushes = [first, second, third, fourth].map((r) => r.output.match(/Pushed .*?: (\d+) change/)?.[1]);
      assert.deepEqual(pushes, ['1', '1', '1', '1']);
      const sent = (await admin.requests({ since: start, path: '/behavior' })).filter((r) => r.method !== 'GET');
      assert.equal(sent.length, 4, `four saves, four writes of the behavior: ${sent.map((r) => r.method).join(', ')}`);
    } finally {
      source.cancel();
      await following;
    }
  });
});
