import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answers, type ChatPanelHandle, openChat } from '../support/editor/chatPanel';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { scriptedPrompts, type ScriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

/**
 * The local platform stopped in the middle of a chat: the chat says so and offers Start Local Platform, never
 * blaming the connection profile's addresses; once the platform runs again, the chat starts a new session by itself.
 */
suite('Chat when the local platform stops and starts again', function () {
  this.timeout(180_000);
  let ui: ScriptedPrompts;
  const open: ChatPanelHandle[] = [];

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
  });

  setup(async () => {
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await new LocalAdmin(urls.admin).reset('demo');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  teardown(() => {
    open.splice(0).forEach((p) => p.dispose());
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    ui.dispose();
  });

  const lines = (p: ChatPanelHandle) => p.snapshot().lines;
  const blamed = (p: ChatPanelHandle) =>
    lines(p)
      .filter((l) => /messaging address|runtime address|connection profile/i.test(l.text))
      .map((l) => l.text);

  for (const mode of ['messaging', 'chatApi'] as const) {
    test(`${mode}: stopping says the local platform stopped with Start Local Platform, and the chat recovers by itself`, async () => {
      const p = await openChat({ mode, streaming: false, target: { label: 'Support Desk', agentId: 'ag_support' } });
      open.push(p);
      await until('the greeting', () => answers(p).length === 1);
      await p.send('What are your opening hours on Sunday?');
      await until('the answer', () => answers(p).length === 2);

      await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
      const stopped = await until('the chat told the platform stopped', () =>
        lines(p).find((l) => /local platform stopped/.test(l.text)),
      );
      assert.equal(stopped.fix?.label, 'Start Local Platform');
      assert.equal(p.snapshot().status.text, 'The local platform stopped.');
      assert.equal(p.snapshot().status.canSend, false);
      assert.deepEqual(blamed(p), []);

      await p.fix(stopped.id);
      await until('a new session with its greeting', () => answers(p).length === 3, { timeoutMs: 60_000 });
      await until('the chat open again', () => p.snapshot().status.canSend);
      await p.send('What are your opening hours on Sunday?');
      await until('an answer after the restart', () => answers(p).length === 4);
      assert.match(answers(p)[3]!.text, /Sunday|open/i);
      // Whatever the old session went on to say while the platform was down and after (the conversation keeps every
      // line, and the new session answered since), nothing blamed the profile.
      assert.deepEqual(blamed(p), []);
    });
  }
});
