import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { answers, openChat } from '../support/editor/chatPanel';
import { until } from '../support/until';
import { LocalAdmin } from '../support/localAdmin';

/**
 * The writes of the Agents and Alerts APIs that the other spec-only suites do not reach, from their commands,
 * against a platform that has only the spec's endpoints (the local platform's spec-only mode, whatever mode the
 * run set): each is sent once, and nothing unshown is needed first.
 */
suite('Agents, Alerts and Chat writes in spec-only mode', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let modeBefore: ResponsesMode;
  const sent = async (method: string, path: RegExp) =>
    (await admin.requests({ base: 'build' })).filter((r) => r.method === method && path.test(r.path)).length;
  /** What `act` answers, and how many requests of `method` to `path` it made (the log keeps earlier suites' too). */
  const counted = async <T>(method: string, path: RegExp, act: () => Thenable<T>): Promise<[T, number]> => {
    const before = await sent(method, path);
    const result = await act();
    return [result, (await sent(method, path)) - before];
  };

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    admin = new LocalAdmin(urls.admin);
    modeBefore = (await admin.responses()).mode;
    await admin.setResponses('spec-only');
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  suiteTeardown(async () => {
    ui.dispose();
    await admin.setResponses(modeBefore);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('[AGENT-2] Create Branch sends one POST branches where the branch list cannot be read', async () => {
    const [branch, requests] = await counted('POST', /^\/v1\/agents\/ag_support\/branches$/, () =>
      vscode.commands.executeCommand<{ name: string }>(
        'agentWorkbench.createBranch',
        { agentId: 'ag_support' },
        'feature/spec-only',
      ),
    );
    assert.equal(branch?.name, 'feature/spec-only', ui.lastError());
    assert.equal(requests, 1);
  });

  test('[AGENT-12] Import Numbers sends the E.164 numbers by one POST phone-numbers', async () => {
    const [report, requests] = await counted('POST', /^\/v1\/agents\/ag_support\/telephony\/phone-numbers$/, () =>
      vscode.commands.executeCommand<{ imported: string[] }>(
        'agentWorkbench.importNumbers',
        { agentId: 'ag_support' },
        { numbers: ['+14155550191'], clientEnv: 'sandbox' },
      ),
    );
    assert.deepEqual(report?.imported, ['+14155550191'], ui.lastError());
    assert.equal(requests, 1);
  });

  test('[HOOK-1] Create Webhook Endpoint sends one POST and shows the signing secret once', async () => {
    ui.setAnswer((s) => (s.modal && /^Signing secret/.test(s.message) ? 'Copy Only' : undefined));
    const [result, requests] = await counted('POST', /^\/v1\/webhook-endpoints$/, () =>
      vscode.commands.executeCommand<{ endpoint: { name: string } }>('agentWorkbench.createWebhookEndpoint', {
        name: 'Spec-only pager',
        url: 'http://127.0.0.1:9/alerts',
        event_types: ['alerts.triggered'],
      }),
    );
    assert.equal(result?.endpoint.name, 'Spec-only pager', ui.lastError());
    assert.equal(requests, 1);
    assert.equal(ui.shown.filter((s) => s.modal && /^Signing secret/.test(s.message)).length, 1);
  });

  test('[AGENT-3] Merge Branch sends one POST merge where the branches cannot be listed, and says it merged', async () => {
    // A branch made while the platform still answered with its id (a spec-only answer leaves the id out).
    await admin.setResponses('full');
    const made = await call<{ branchId: string }>('POST', `${urls.build}/v1/agents/ag_support/branches`, {
      headers: { 'x-api-key': LOCAL_KEYS.agents },
      body: { name: 'feature/to-merge' },
    });
    await admin.setResponses('spec-only');
    assert.equal(made.status, 201);
    ui.setAnswer((s) => (s.modal && /^Merge branch/.test(s.message) ? 'Merge' : undefined));
    const [result, requests] = await counted('POST', /^\/v1\/agents\/ag_support\/branches\/[^/]+\/merge$/, () =>
      vscode.commands.executeCommand('agentWorkbench.mergeBranch', {
        agentId: 'ag_support',
        branchId: made.body.branchId,
      }),
    );
    assert.ok(result, ui.lastError());
    assert.equal(requests, 1);
    assert.ok(ui.shown.some((s) => s.kind === 'info' && /merged/i.test(s.message)));
  });

  test('[CHAT-1] the chat playground in Chat API mode creates, answers and closes a conversation against the spec-only platform', async () => {
    const runtime = async (method: string, path: RegExp) =>
      (await admin.requests({ base: 'runtime' })).filter((r) => r.method === method && path.test(r.path)).length;
    const before = await runtime('PUT', /\/chat\/close$/);
    const p = await openChat({ mode: 'chatApi' });
    try {
      await until('the greeting', () => answers(p).length === 1);
      await p.send('What are your opening hours?');
      await until('the answer', () => answers(p).length === 2);
      await p.endSession();
      await until('the close sent', async () => (await runtime('PUT', /\/chat\/close$/)) > before);
    } finally {
      p.dispose();
    }
  });
});
