import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReplayView } from '../../src/protocol/replay';
import { until } from '../support/until';
import { call } from '../support/http';
import {
  activateExtension,
  type LocalPlatformUrls,
  openPanel,
  startLocalPlatformInEditor,
} from '../support/editor/extension';
import { scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';

/** What Replay Conversation returns: the panel as the suite reads it. */
interface ReplayPanelHandle {
  readonly view: ReplayView;
  readonly finished: Promise<void>;
  cancel(): void;
  dispose(): void;
}

interface Turn {
  user_input: string;
  agent_response: string;
}
interface Recorded {
  id: string;
  variant_id: string;
  variant_name: string;
  in_progress: boolean;
  handoff: boolean;
  channel: string;
  turns: Turn[];
}

const AGENT = 'ag_support';
const MAIN = 'br_support_main';

suite('Replay', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  const open: ReplayPanelHandle[] = [];
  const replay = async (args: Record<string, unknown>) => {
    const p = await openPanel<ReplayPanelHandle>('agentWorkbench.replayConversation', args);
    open.push(p);
    return p;
  };
  /** A finished demo conversation with a few turns, as the Conversations API lists it. */
  const demoConversation = async (): Promise<Recorded> => {
    const res = await call<{ conversations: Recorded[] }>(
      'GET',
      `${urls.runtime}/v3/acme/support-desk/conversations?client_env=live&limit=200`,
      { headers: { 'x-api-key': 'lp_conversations_key' } },
    );
    const found = res.body.conversations.find(
      (c) => !c.in_progress && !c.handoff && c.turns.length >= 3 && c.turns.length <= 6,
    );
    if (!found) throw new Error('no demo conversation to replay');
    return found;
  };

  suiteSetup(async () => {
    urls = await startLocalPlatformInEditor();
    admin = new LocalAdmin(urls.admin);
  });

  setup(async () => {
    await admin.reset('demo');
  });

  teardown(() => open.splice(0).forEach((p) => p.dispose()));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('a demo conversation replayed after the behavior changed: every user turn is sent again, and the answers that changed are marked word by word', async function () {
    this.timeout(120_000);
    const recorded = await demoConversation();
    // A teammate renames the agent in its behavior, and the change is published to sandbox (what the chat connector serves).
    await admin.editBranch(AGENT, MAIN, {
      behavior:
        '# Support Desk\n\nYou are Robin, the replay desk of Acme. Help with orders, returns, delivery and opening hours.',
    });
    const published = await call('POST', `${urls.build}/v1/agents/${AGENT}/deployments/publish`, {
      headers: { 'x-api-key': 'lp_agents_key' },
      body: { environment: 'sandbox' },
    });
    assert.ok(published.status < 300, JSON.stringify(published.body));

    const p = await replay({ conversationId: recorded.id, agentId: AGENT, variantId: '' });
    await p.finished;
    const view = p.view;
    assert.equal(view.state, 'done', view.message);
    const userTurns = recorded.turns.filter((t, i) => i > 0 || t.user_input);
    assert.equal(view.turns.length, userTurns.length + 1, 'the greeting and each user turn');
    assert.deepEqual(
      view.turns.slice(1).map((t) => t.user),
      userTurns.map((t) => t.user_input),
      'the recorded user turns, in order',
    );
    assert.ok(
      view.turns.every((t) => t.state === 'done'),
      JSON.stringify(view.turns.map((t) => [t.state, t.error])),
    );
    const greeting = view.turns[0]!;
    assert.match(greeting.replayed ?? '', /Robin/);
    assert.equal(greeting.same, false, 'the new greeting differs');
    assert.ok(
      greeting.diff?.some((d) => d.kind === 'added' && d.text.includes('Robin')),
      'the new name is marked as added',
    );
    assert.ok(
      greeting.diff?.some((d) => d.kind === 'removed'),
      'the recorded words that are gone are marked as removed',
    );
    assert.match(view.message ?? '', /answers differ from the recording/);
    assert.ok(view.newConversationId, 'the replay conversation is named');
  });

  test('an unknown conversation id says so, and nothing is sent to the agent', async function () {
    this.timeout(60_000);
    const p = await replay({ conversationId: 'conv_does_not_exist', variantId: '' });
    await p.finished;
    assert.equal(p.view.state, 'failed');
    assert.match(p.view.message ?? '', /No conversation conv_does_not_exist/);
    assert.equal(p.view.newConversationId, undefined);
  });

  test('a turn the platform refuses fails on its own with the reason, and the replay goes on', async function () {
    this.timeout(60_000);
    const recorded = await demoConversation();
    await admin.addFault({ family: 'runtime', method: 'POST', path: '/chat/respond', status: 503, times: 1 });
    try {
      const p = await replay({ conversationId: recorded.id, variantId: '' });
      await p.finished;
      const states = p.view.turns.map((t) => t.state);
      assert.equal(states[1], 'failed', JSON.stringify(states));
      assert.ok(p.view.turns[1]!.error, 'the failed turn says why');
      assert.ok(
        states.slice(2).every((s) => s === 'done'),
        JSON.stringify(states),
      );
      assert.match(p.view.message ?? '', /1 turns failed/);
    } finally {
      await admin.clearFaults();
    }
  });

  test('cancel stops the replay: the turns not sent say so', async function () {
    this.timeout(60_000);
    const recorded = await demoConversation();
    await admin.addFault({ family: 'runtime', method: 'POST', path: '/chat/respond', delayMs: 1_500 });
    try {
      const p = await replay({ conversationId: recorded.id, variantId: '' });
      await until('the first user turn to be sent', () => p.view.turns[1]?.state === 'sending', 30_000);
      p.cancel();
      await p.finished;
      assert.equal(p.view.state, 'cancelled');
      assert.ok(
        p.view.turns.slice(1).every((t) => t.state === 'cancelled'),
        JSON.stringify(p.view.turns.map((t) => t.state)),
      );
    } finally {
      await admin.clearFaults();
    }
  });

  test("the recording's variant is offered first and answers the replay; the turns are numbered as the transcript numbers them", async function () {
    this.timeout(120_000);
    const listed = await call<{ conversations: Recorded[] }>(
      'GET',
      `${urls.runtime}/v3/acme/support-desk/conversations?client_env=live&limit=500`,
      { headers: { 'x-api-key': 'lp_conversations_key' } },
    );
    const recorded = listed.body.conversations.find(
      (c) => c.variant_id === 'var_friendly' && !c.in_progress && !c.handoff && c.turns.length >= 2,
    );
    assert.ok(recorded, 'a demo conversation answered by Friendly Tone');
    const ui = scriptedPrompts(await activateExtension());
    try {
      ui.setAnswer((s) => (s.kind === 'pick' ? s.items[0] : undefined));
      const p = await replay({ conversationId: recorded.id });
      const offered = ui.shown.find((s) => s.kind === 'pick');
      assert.equal(offered?.items[0], "The recording's variant", 'offered first');
      await p.finished;
      assert.equal(p.view.state, 'done', p.view.message);
      assert.equal(p.view.variantId, 'var_friendly', 'sent to the variant of the recording');
      assert.match(p.view.target, /variant Friendly Tone/);
      const replayed = await call<{ conversations: Recorded[] }>(
        'GET',
        `${urls.runtime}/v3/acme/support-desk/conversations?client_env=sandbox&limit=500`,
        { headers: { 'x-api-key': 'lp_conversations_key' } },
      );
      const made = replayed.body.conversations.find((c) => c.id === p.view.newConversationId);
      assert.equal(made?.variant_id, 'var_friendly', 'the platform recorded the replay with that variant');
      // The transcript numbers every recorded turn from 1, the greeting too.
      const greets = !recorded.turns[0]!.user_input;
      assert.deepEqual(
        p.view.turns.map((t) => t.turn),
        greets ? recorded.turns.map((_, i) => i + 1) : [undefined, ...recorded.turns.map((_, i) => i + 1)],
      );
    } finally {
      ui.dispose();
    }
  });
});
