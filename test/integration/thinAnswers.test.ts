import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';

/** What a person sees when the platform answers less than the extension knows how to use. */
suite('Answers the extension cannot fully read', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    const api = await activateExtension();
    ui = scriptedPrompts(api);
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });
  suiteTeardown(() => ui.dispose());
  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });
  teardown(async () => {
    await admin.clearFaults();
  });

  test('the local platform answers as the setting agentWorkbench.localPlatform.responses says', async () => {
    const configured = vscode.workspace.getConfiguration('agentWorkbench.localPlatform').get<string>('responses');
    assert.deepEqual(await admin.responses(), { mode: configured });
  });

  test('a create the platform accepted (201) with an answer that cannot be read is told as done, with no error and no Retry', async () => {
    await admin.addFault({ family: 'build', method: 'POST', path: '/v1/agents', status: 201, times: 1 });
    const result = await vscode.commands.executeCommand('agentWorkbench.createAgent', {
      name: 'Accepted Agent',
      description: '',
    });
    assert.equal(result, undefined);
    assert.equal(ui.lastError(), '');
    const info = ui.shown.find(
      (s) => s.kind === 'info' && /the platform accepted it; its answer could not be read/.test(s.message),
    );
    assert.ok(info, JSON.stringify(ui.shown));
    assert.ok(!info.items.includes('Retry'));
  });
});
