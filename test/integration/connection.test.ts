import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeResult } from '../../src/client/probe';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { TEST_KEYS } from '../support/secretsScan';

/** The connection profiles, their secrets, Test Connection and profile switching, in the real extension host. */
suite('Connection profiles', () => {
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    const started = await vscode.commands.executeCommand<LocalPlatformUrls | undefined>(
      'agentWorkbench.startLocalPlatform',
    );
    assert.ok(started, 'the local platform started');
    urls = started;
  });

  suiteTeardown(() => ui.dispose());

  test('the Local profile is active once the local platform runs, and every API works with it', async () => {
    const results = await vscode.commands.executeCommand<ProbeResult[] | undefined>(
      'agentWorkbench.testConnection',
      'local',
    );
    assert.ok(results, 'test connection returned results');
    const broken = results
      .filter((r) => r.outcome !== 'works')
      .map((r) => `${r.label}: ${r.outcome} ${r.detail ?? ''}`);
    assert.deepEqual(broken, []);
    assert.equal(results.length, 8);
  });

  test('adds a profile with keys in secret storage, switches to it, and tests it per family', async () => {
    const profile = await vscode.commands.executeCommand<
      { id: string; accountId: string; projectId: string } | undefined
    >('agentWorkbench.addProfile', {
      name: 'Staging copy',
      studioUrl: 'https://studio.example.com/ACCOUNT-a1b2c3d/PROJECT-5a7e1c0d/agents',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
      credentials: { agentsApiKey: 'lp_agents_key', conversationsApiKey: TEST_KEYS.wrongConversations },
    });
    assert.ok(profile, 'the profile was added');
    assert.equal(profile.accountId, 'ACCOUNT-a1b2c3d');
    assert.equal(profile.projectId, 'PROJECT-5a7e1c0d');
    const results = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection', profile.id);
    const by = Object.fromEntries(results.map((r) => [r.family, r]));
    assert.equal(by.agents!.outcome, 'works');
    assert.equal(by.conversations!.outcome, 'rejected');
    assert.equal(by.dni!.outcome, 'notConfigured');

    const set = await vscode.commands.executeCommand<boolean>('agentWorkbench.setCredential', {
      profileId: profile.id,
      credential: 'dniApiKey',
      value: 'lp_dni_key',
    });
    assert.equal(set, true);
    const after = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection', profile.id);
    assert.equal(after.find((r) => r.family === 'dni')!.outcome, 'works');

    assert.equal(await vscode.commands.executeCommand('agentWorkbench.switchProfile', profile.id), profile.id);
    assert.equal(
      await vscode.commands.executeCommand<boolean>('agentWorkbench.removeProfile', profile.id),
      false,
      'dismissing the question keeps the profile',
    );
    assert.match(
      ui.shown.find((s) => s.modal)!.message,
      /^Remove the profile "Staging copy" and its stored keys and tokens\?/,
    );
    ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
    const removed = await vscode.commands.executeCommand<boolean>('agentWorkbench.removeProfile', profile.id);
    assert.equal(removed, true);
    ui.setAnswer(() => undefined);
  });

  test('Set Credential from the palette asks whose keys, the profile just added first, not the active one silently', async () => {
    const added = await vscode.commands.executeCommand<{ id: string } | undefined>('agentWorkbench.addProfile', {
      name: 'Just added',
      studioUrl: 'https://studio.example.com/ACCOUNT-a1b2c3d/PROJECT-5a7e1c0d/agents',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
      activate: false,
    });
    assert.ok(added, ui.lastError());
    try {
      ui.shown.length = 0;
      ui.setAnswer((s) =>
        s.kind === 'pick' && /^Profile to set a credential for/.test(s.message) ? 'Just added' : undefined,
      );
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.setCredential'), false);
      const profiles = ui.shown.find((s) => s.kind === 'pick' && /^Profile to set a credential for/.test(s.message));
      assert.ok(profiles, `the profile is asked: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
      assert.equal(profiles.items[0], 'Just added', 'the profile just added comes first');
      const credential = ui.shown.find((s) => s.kind === 'pick' && /^Credential of/.test(s.message));
      assert.equal(credential?.message, 'Credential of "Just added" to set');
    } finally {
      ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
      await vscode.commands.executeCommand('agentWorkbench.removeProfile', added.id);
      ui.setAnswer(() => undefined);
    }
  });

  test('refuses a profile with a bad account id or a region-less build address, and saves nothing', async () => {
    const bad = await vscode.commands.executeCommand('agentWorkbench.addProfile', {
      name: 'Broken',
      accountId: 'acme corp',
      projectId: 'desk',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
    });
    assert.equal(bad, undefined);
    const regionless = await vscode.commands.executeCommand('agentWorkbench.addProfile', {
      name: 'No region',
      accountId: 'acme',
      projectId: 'desk',
      region: 'custom',
      runtimeUrl: 'https://api.us-1.platform.polyai.app',
      buildUrl: 'https://api.poly.ai',
      messagingUrl: 'https://chat.example.com',
    });
    assert.equal(regionless, undefined);
    const ok = await vscode.commands.executeCommand<{ id: string } | undefined>('agentWorkbench.addProfile', {
      name: 'Broken',
      accountId: 'acme',
      projectId: 'desk',
      region: 'us',
      messagingUrl: 'https://chat.example.com',
      activate: false,
    });
    assert.ok(ok, 'the same name is free: nothing was saved by the refused attempts');
    ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
    await vscode.commands.executeCommand('agentWorkbench.removeProfile', ok.id);
    ui.setAnswer(() => undefined);
  });

  test('switches the environment shown in the status bar', async () => {
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'pre-release'),
      'pre-release',
    );
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox'), 'sandbox');
  });

  test('switching to the Local profile again restores a working connection', async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    const results = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection');
    assert.ok(results.every((r) => r.outcome === 'works'));
  });
});

suite('Add Connection Profile, step by step', () => {
  let ui: ScriptedPrompts;
  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
  });
  suiteTeardown(() => ui.dispose());

  test('a pasted studio address fills the project step: the counter goes 1/7, 2/7, 4/7 … 7/7 and its total never changes', async () => {
    const answers = [
      'Counted steps',
      'https://studio.example.com/acme/support-desk/agents',
      'Custom addresses',
      'http://127.0.0.1:9/runtime',
      'http://127.0.0.1:9/build',
      'http://127.0.0.1:9/messaging',
    ];
    ui.shown.length = 0;
    ui.setAnswer((s) => (s.step ? answers.shift() : undefined));
    const profile = await vscode.commands.executeCommand<{ id: string; projectId: string } | undefined>(
      'agentWorkbench.addProfile',
    );
    ui.setAnswer(() => undefined);
    assert.ok(profile, ui.lastError());
    try {
      assert.equal(profile.projectId, 'support-desk');
      assert.deepEqual(
        ui.shown.filter((s) => s.step).map((s) => s.step),
        ['1/7', '2/7', '4/7', '5/7', '6/7', '7/7'],
      );
    } finally {
      ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
      await vscode.commands.executeCommand('agentWorkbench.removeProfile', profile.id);
      ui.setAnswer(() => undefined);
    }
  });
});
