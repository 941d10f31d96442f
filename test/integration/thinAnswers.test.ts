import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ScriptedPrompts, scriptedPrompts } from './prompts';
import { activateExtension, http, type LocalPlatformUrls } from './support';

/** What a person sees when the platform answers less than the extension knows how to use. */
suite('Answers the extension cannot fully read', () => {
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    const api = await activateExtension();
    ui = scriptedPrompts(api);
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    await http('POST', `${urls.admin}/reset`, { body: { seed: 'base' } });
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });
  suiteTeardown(() => ui.dispose());
  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });
  teardown(async () => {
    await http('DELETE', `${urls.admin}/faults`);
  });

  test('the local platform answers as the setting agentWorkbench.localPlatform.responses says', async () => {
    const configured = vscode.workspace.getConfiguration('agentWorkbench.localPlatform').get<string>('responses');
    assert.deepEqual((await http('GET', `${urls.admin}/responses`)).body, { mode: configured });
  });

  test('a create the platform accepted (201) with an answer that cannot be read is told as done, with no error and no Retry', async () => {
    await http('POST', `${urls.admin}/faults`, {
      body: { family: 'build', method: 'POST', path: '/v1/agents', status: 201, times: 1 },
    });
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
