// One folder sync from every door: a push from Source Control, from the Testing view's "Push and Publish" and from the
// assistant tool goes through the folder's Source Control queue and shows there the same way, against the local
// platform.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PushReport } from '../../src/workspace/mirror';
import {
  checkOutSupportMain,
  shownFolder,
  SUPPORT_MAIN,
  supportMainOnPlatform,
  waitForEditor,
} from '../support/editor/agentFolders';
import {
  activateExtension,
  type LocalPlatformUrls,
  startLocalPlatformInEditor,
  type WorkbenchExports,
} from '../support/editor/extension';
import { TOOL_PREFIX, ToolSession } from '../support/editor/languageModelTools';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

/** One case of the folder's own agent (it names none): its greeting. */
const GREETING_CASE = `cases:
  - name: Greeting
    turns:
      - contains: Sam
`;

suite('One folder sync from every door', function () {
  // Check out, pushes, a publish and a conversation, one after the other, on a busy machine.
  this.timeout(240_000);
  let urls: LocalPlatformUrls;
  const platform = supportMainOnPlatform(() => urls);
  let api: WorkbenchExports;
  let ui: ScriptedPrompts;
  let admin: LocalAdmin;
  let tools: ToolSession;
  /** The checked-out folder of the support agent every door pushes. */
  let folder = '';
  const folders: string[] = [];
  const behaviorFile = () => join(folder, 'behavior.md');
  /** The behavior the folder's base holds: what the next status and push compare with. */
  const baseBehavior = async () =>
    (
      JSON.parse(await readFile(join(folder, '.workbench', 'base.json'), 'utf8')) as {
        docs: Record<string, { text: string }>;
      }
    ).docs.behavior?.text;
  /** An edit of behavior.md, listed under Local Changes before it is pushed. */
  const edit = async (line: string) => {
    // Written to disk as another editor would: Source Control lists it all the same.
    const text = await readFile(behaviorFile(), 'utf8');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.file(behaviorFile()),
      new TextEncoder().encode(`${text.trimEnd()}\n${line}\n`),
    );
    await waitForEditor(api, 'behavior.md under Local Changes', () =>
      shownFolder(api, folder)?.groups.local.includes('behavior.md'),
    );
  };
  /** What Source Control shows once a push has gone through: nothing to push, the base is the file. */
  const afterPush = async (door: string) => {
    const shown = await waitForEditor(api, `the folder in step after the push from ${door}`, () => {
      const s = shownFolder(api, folder);
      return s?.count === 0 && s.nothingListed !== undefined && s;
    });
    assert.equal(await baseBehavior(), await readFile(behaviorFile(), 'utf8'), `the base is updated (${door})`);
    assert.equal(`${await platform.behavior()}\n`, await readFile(behaviorFile(), 'utf8'), `pushed (${door})`);
    return shown;
  };

  suiteSetup(async function () {
    this.timeout(180_000);
    urls = await startLocalPlatformInEditor();
    api = await activateExtension();
    [admin, ui, tools] = [new LocalAdmin(urls.admin), scriptedPrompts(api), new ToolSession(api)];
    // The seed with the support agent alone.
    await admin.reset();
    folder = await checkOutSupportMain(api, ui, folders, 'doors');
  });

  suiteTeardown(async () => {
    ui?.dispose();
    await admin?.clearFaults();
    for (const f of folders) await rm(f, { recursive: true, force: true });
    // The seed the editor starts the local platform with, for the suites after this one.
    await admin?.reset('demo');
  });

  test('a push from the Testing view and one from the assistant tool show in Source Control as a push from Source Control does: nothing left to push, the base updated, the platform read again', async () => {
    await edit('From Source Control.');
    const pushed = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.equal(pushed?.sent.length, 1, ui.lastError());
    const fromScm = await afterPush('Source Control');

    // The Testing view: a run on the local platform offers Push and Publish for a folder with edits.
    await edit('From the Testing view.');
    const testFile = vscode.Uri.file(join(folder, 'tests', 'doors.yaml'));
    await mkdir(join(folder, 'tests'), { recursive: true });
    await writeFile(testFile.fsPath, GREETING_CASE);
    const tests = api.testing!.conversationTests();
    const item = await until(
      'the test file item',
      async () => {
        await tests.discover();
        const found = tests.controller.items.get(testFile.toString());
        // Discovery may have run in an earlier suite: then Refresh Tests finds the new file, as a person would.
        if (!found) await tests.controller.refreshHandler?.(new vscode.CancellationTokenSource().token);
        return found ?? tests.controller.items.get(testFile.toString());
      },
      { timeoutMs: 90_000 },
    );
    ui.setAnswer((s) => (s.modal && s.items.includes('Push and Publish') ? 'Push and Publish' : undefined));
    const profile = tests.runProfiles.find((p) => p.label === 'Local platform');
    assert.ok(profile, 'the local platform run profile');
    await profile.runHandler(
      new vscode.TestRunRequest([item], undefined, profile),
      new vscode.CancellationTokenSource().token,
    );
    const run = tests.runs.at(-1);
    assert.match(run?.output ?? '', /Pushed Support Desk \(main\): 1 change/, run?.output);
    assert.ok(
      ui.shown.some((s) => s.modal && s.items.includes('Push and Publish')),
      'the run asked to push and publish first',
    );
    assert.deepEqual(await afterPush('the Testing view'), fromScm);
    ui.setAnswer(() => undefined);

    // The assistant tool.
    await edit('From the assistant.');
    const answer = await tools.invoke(`${TOOL_PREFIX}push`, { folder });
    assert.match(answer, /Pushed .*1 change\(s\) sent/);
    assert.deepEqual(await afterPush('the assistant tool'), fromScm);
  });

  test('a push from the assistant tool while a Source Control push runs waits in the folder queue: the edit is sent once', async () => {
    await edit('Sent once.');
    const since = Math.max(0, ...(await admin.requests()).map((r) => r.seq));
    const isBehaviorWrite = (r: { method: string; path: string }) =>
      r.method === 'PATCH' && r.path === `${SUPPORT_MAIN}/behavior`;
    // The platform takes its time over the behavior: the first push is still running when the second starts.
    await admin.addFault({ family: 'build', method: 'PATCH', path: '/behavior', delayMs: 3000, times: 1 });
    const order: string[] = [];
    const fromScm = Promise.resolve(
      vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder)),
    ).then((r) => {
      order.push('Source Control');
      return r;
    });
    await until('the behavior on its way to the platform', async () =>
      (await admin.requests({ since })).some(isBehaviorWrite),
    );
    const fromTool = tools.invoke(`${TOOL_PREFIX}push`, { folder }).then((text) => {
      order.push('assistant');
      return text;
    });
    const [scmReport, toolAnswer] = await Promise.all([fromScm, fromTool]);
    assert.equal(scmReport?.sent.length, 1, ui.lastError());
    assert.match(toolAnswer, /Nothing to push .*the platform already has every file/);
    assert.deepEqual(order, ['Source Control', 'assistant'], 'the second push ran after the first');
    assert.equal((await admin.requests({ since })).filter(isBehaviorWrite).length, 1, 'the behavior was sent once');
    await afterPush('both');
  });
  test("the assistant tool runs the conversation test files the Testing view lists (agentWorkbench.tests.include), a case naming no agent reaching the folder's agent", async () => {
    const settings = vscode.workspace.getConfiguration('agentWorkbench.tests');
    await mkdir(join(folder, 'tests'), { recursive: true });
    await writeFile(join(folder, 'tests', 'elsewhere.yaml'), GREETING_CASE.replace('Greeting', 'Not listed'));
    await mkdir(join(folder, 'conversations'), { recursive: true });
    const listed = vscode.Uri.file(join(folder, 'conversations', 'greeting.yaml'));
    await writeFile(listed.fsPath, GREETING_CASE);
    await settings.update('include', '**/conversations/*.yaml', vscode.ConfigurationTarget.Workspace);
    try {
      const tests = api.testing!.conversationTests();
      await until('the Testing view lists the file the setting names', async () => {
        await tests.discover();
        return tests.controller.items.get(listed.toString());
      });
      const text = await tools.invoke(`${TOOL_PREFIX}runConversationTests`, { paths: [folder] });
      assert.match(text, /✔ .*conversations\/greeting\.yaml › Greeting/);
      assert.doesNotMatch(text, /Not listed/, 'a file the setting does not name is not run');
      assert.match(text, /1 passed, 0 failed/);
    } finally {
      await settings.update('include', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
