// The language model tools against a platform that has only the endpoints the spec shows (the local platform switched
// to its spec-only mode, whatever mode the run is in): what the spec shows still works through the tools, and a read
// of an endpoint we assumed answers the sentence the person sees, which names the assumption and the manual path.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { TOOL_PREFIX, ToolSession } from '../support/editor/languageModelTools';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';
import { secretsIn } from '../support/secretsScan';

const AGENT = 'ag_support';
const tool = (short: string) => `${TOOL_PREFIX}${short}`;

suite('Language model tools against a platform with only the spec endpoints', function () {
  this.timeout(180_000);
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let tools: ToolSession;
  let configured: ResponsesMode;

  suiteSetup(async () => {
    const api = await activateExtension();
    const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    ui = scriptedPrompts(api);
    tools = new ToolSession(api);
    configured = (await admin.responses()).mode;
    await admin.reset('base');
    await admin.setResponses('spec-only');
    // What the editor read before the switch is forgotten, as after a change of platform.
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  suiteTeardown(async () => {
    await admin.setResponses(configured);
    await admin.reset('base');
    ui.dispose();
  });

  test('agentDetails: each assumed read that fails is named with its row and what to do instead; the numbers are listed', async () => {
    const text = await tools.invoke(tool('agentDetails'), { agentId: AGENT });
    assert.match(
      text,
      /Branches: could not be read\. .*"List and get branches: not shown", see docs\/api-assumptions\.md/,
    );
    assert.match(text, /Enter the branch id by hand instead\./);
    assert.match(
      text,
      /Deployments: could not be read\. .*see docs\/api-assumptions\.md.*Look up the deployment id in the studio\./,
    );
    assert.match(text, /Numbers \(\d+\):\n {2}\+1415555012\d/);
    assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
  });

  test('sendMessages, conversations and transcript: the Chat and Conversations APIs as the spec shows them', async () => {
    const said = await tools.invoke(tool('sendMessages'), {
      agentId: AGENT,
      messages: ['What are your opening hours?'],
      end: true,
    });
    const id = /^Conversation (\S+) on local/.exec(said)?.[1];
    assert.ok(id, said);
    assert.match(said, /agent \(\d+ ms\): .*Monday/);
    const found = await tools.invoke(tool('conversations'), { environment: 'sandbox', search: 'opening hours' });
    assert.ok(found.includes(id), found);
    const transcript = await tools.invoke(tool('transcript'), { conversationId: id, environment: 'sandbox' });
    assert.match(transcript, /What are your opening hours\?/);
  });

  test('publish, then promote the deployment it made (confirmations read from prepareInvocation): where the platform does not list deployments, the promotion may be the step to live and is asked as one', async () => {
    const publish = await tools.prepare(tool('publishToSandbox'), { agentId: AGENT });
    assert.ok(publish);
    assert.match(publish.message, /to sandbox/);
    const published = await tools.invoke(tool('publishToSandbox'), { agentId: AGENT });
    const deploymentId = /deployment (\S+), version/.exec(published)?.[1];
    assert.ok(deploymentId, published);
    const promote = await tools.prepare(tool('promote'), { agentId: AGENT, deploymentId });
    assert.ok(promote);
    assert.match(promote.message, /could not be read/);
    assert.match(promote.message, /This changes what live callers reach/);
    ui.shown.length = 0;
    // Asked as a step to live: yes, then the agent's name typed as the box asks.
    ui.setAnswer((s) =>
      s.modal ? 'Continue on Live' : s.kind === 'input' ? /Type the agent name "(.+)"/.exec(s.message)?.[1] : undefined,
    );
    const promoted = await tools.invoke(tool('promote'), { agentId: AGENT, deploymentId });
    assert.equal(ui.shown.filter((s) => s.modal).length, 1, 'asked in the editor');
    assert.equal(ui.shown.filter((s) => s.kind === 'input').length, 1, 'the agent name typed');
    assert.match(promoted, /now in pre-release/);
    ui.setAnswer(() => undefined);
  });

  test('[AUTH-2] no answer or confirmation holds a secret used in the run', () => {
    assert.deepEqual(
      tools.answers.flatMap((a) => secretsIn(a.text, `the answer of ${a.name}`)),
      [],
    );
  });
});
