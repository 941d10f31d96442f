import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import * as vscode from 'vscode';
import { scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { until } from '../support/until';
import { answers, byRole, type ChatPanelHandle, greeted, openChat, sessionIdOf } from '../support/editor/chatPanel';
import { chatThroughChaos, checkChaosConversation, SPEC_ONLY_SERVER_NAMES } from '../support/chatChaos';
import { LocalAdmin } from '../support/localAdmin';

suite('Chat playground', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  const open: ChatPanelHandle[] = [];
  const chat = async (args: Record<string, unknown>) => {
    const p = await openChat(args);
    open.push(p);
    return p;
  };

  suiteSetup(async () => {
    await activateExtension();
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  teardown(async () => {
    open.splice(0).forEach((p) => p.dispose());
    // The workbench closes a panel's webview after the extension disposes it; a panel opened in the same group
    // before that gets the closing one's webview, which never loads (seen as a page that never paints).
    await until('the chat panels closed in the workbench', () =>
      vscode.window.tabGroups.all.every((g) =>
        g.tabs.every(
          (t) => !(t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('agentWorkbench.chat')),
        ),
      ),
    );
    await admin.clearFaults();
    await admin.setOptions({ streamDelayMs: 0, wsMessagesPerSecond: 20 });
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('messaging, streamed: the webview shows the greeting, a message with custom metadata gets its answer in pieces, and the metadata comes back', async () => {
    await admin.setOptions({ streamDelayMs: 20 });
    const p = await chat({ mode: 'messaging', streaming: true, ackPaint: true, target: { label: 'Support Desk' } });
    const painted: number[] = [];
    p.onDidPaint(({ rev }) => painted.push(rev));
    await greeted(p);
    await until('the webview to show the conversation', () => painted.length > 0);
    assert.equal(p.snapshot().status.state, 'open');
    assert.ok(p.conversationId, 'the conversation id is known once the agent joined');

    const pieces: string[] = [];
    let finalRev = 0;
    p.onDidNotify((n) => {
      const { line, rev } = n as { line?: { role: string; streaming?: boolean; text: string }; rev?: number };
      if (line?.role === 'agent' && line.streaming) pieces.push(line.text);
      if (line?.role === 'agent' && !line.streaming && rev) finalRev = rev;
    });
    await p.send('What are your opening hours on Sunday?', { order: 'A-1001' });
    const answer = await until('the answer', () => answers(p)[1]);
    assert.ok(pieces.length > 1, `the answer arrived in ${pieces.length} pieces`);
    assert.ok(answer.text.startsWith(pieces[0]!), 'each piece grows the same line');
    assert.deepEqual(answer.custom, { order: 'A-1001' }, 'metadata.custom echoed on the answer');
    await until('the finished answer in the webview page', () => finalRev > 0 && painted.includes(finalRev));
    assert.equal(p.snapshot().status.agentTyping, false, 'no "typing" under a finished answer');
    assert.deepEqual(
      byRole(p, 'user').map((l) => [l.text, l.custom]),
      [['What are your opening hours on Sunday?', { order: 'A-1001' }]],
    );
    const inspector = p.snapshot(Number.MAX_SAFE_INTEGER).inspector;
    assert.ok(
      inspector.some((e) => e.label === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK' && e.latencyMs !== undefined),
      'the turn latency is on its first answer event',
    );
    assert.ok(
      !JSON.stringify(p.snapshot(Number.MAX_SAFE_INTEGER)).match(/"access_token":\s*"(?!‹)/),
      'no access token in the panel',
    );
  });

  test('streamed pieces reach the page through a socket of its own, which refuses any other token; when it drops mid-answer, the rest reaches the page as posted messages', async () => {
    await admin.setOptions({ streamDelayMs: 20 });
    const p = await chat({ mode: 'messaging', streaming: true, ackPaint: true });
    const painted: number[] = [];
    p.onDidPaint(({ rev }) => painted.push(rev));
    await greeted(p);
    await until('the webview to show the conversation', () => painted.length > 0);
    await until("the page's own socket", () => p.directChannel.open);

    // The address with any other token: refused before a WebSocket is made.
    const other = new URL(p.directChannel.url!);
    // The last segment is the token (the editor may put the address behind a proxy path of its own).
    other.pathname = other.pathname.replace(/[^/]+$/, randomBytes(24).toString('base64url'));
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(other.toString());
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => {
        socket.terminate();
        resolve(101);
      });
      socket.on('error', () => resolve(-1));
    });
    assert.equal(refused, 404, `another token is refused (${p.directChannel.url?.replace(/[^/]+$/, '…')})`);

    let pieces = 0;
    let finalRev = 0;
    let paintsBeforeFinal = 0;
    p.onDidNotify((n) => {
      const { line, rev } = n as { line?: { role: string; streaming?: boolean }; rev?: number };
      if (line?.role !== 'agent') return;
      if (line.streaming && ++pieces === 3) p.dropDirectChannel();
      if (!line.streaming && rev) {
        finalRev = rev;
        paintsBeforeFinal = painted.length;
      }
    });
    await p.send('What are your opening hours on Sunday?');
    await until('the answer', () => answers(p)[1], 60_000);
    assert.ok(pieces > 3, `the answer came in ${pieces} pieces, the socket dropped after the third`);
    assert.equal(p.directChannel.open, false, 'the socket is gone');
    // The page has the finished answer: its version painted, or the whole state painted again after it.
    await until('the finished answer in the webview page', () =>
      painted.slice(paintsBeforeFinal).some((rev) => rev === 0 || rev >= finalRev),
    );
    await p.send('And on Monday?');
    await until('the next answer, posted', () => answers(p)[2], 60_000);
    const lines = p.snapshot().lines.filter((l) => l.role === 'user' || l.role === 'agent');
    assert.deepEqual(
      lines.map((l) => l.role),
      ['agent', 'user', 'agent', 'user', 'agent'],
      'every line once, in order',
    );
  });

  test("the page's socket carries its paint reports to the panel; any other command sent on it is ignored", async () => {
    const p = await chat({ mode: 'messaging', streaming: false, ackPaint: true });
    await greeted(p);
    await until("the page's own socket", () => p.directChannel.open);
    const painted: number[] = [];
    p.onDidPaint(({ rev }) => painted.push(rev));
    // A page loaded again with the panel's address replaces the one before: this one plays the page.
    const page = new WebSocket(p.directChannel.url!);
    await new Promise((resolve, reject) => page.once('open', resolve).once('error', reject));
    const lines = p.snapshot().lines.length;
    page.send(JSON.stringify({ kind: 'command', command: { type: 'send', text: 'Sent on the socket' } }));
    page.send(
      JSON.stringify({ kind: 'command', command: { type: 'painted', paints: [{ rev: 424_242, at: 1 }], elements: 1 } }),
    );
    await until('the report', () => painted.includes(424_242));
    assert.equal(p.snapshot().lines.length, lines, 'a message sent on the socket is not sent to the agent');
    assert.ok(!p.snapshot().lines.some((l) => l.text === 'Sent on the socket'));
    page.close();
  });

  test('100 dropped WebSocket connections while answers stream: every message once and in order, and the panel says it reconnected', async function () {
    this.timeout(240_000);
    await admin.setOptions({ streamDelayMs: 15 });
    const p = await chat({ mode: 'messaging', streaming: true });
    await greeted(p);
    const remaining = async () =>
      (await call<{ faults: Array<{ times?: number }> }>('GET', `${urls.admin}/faults`)).body.faults.reduce(
        (n, f) => n + (f.times ?? 0),
        0,
      );
    await admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionIdOf(p), times: 100 });
    const sent: string[] = [];
    for (let i = 1; (await remaining()) > 0; i++) {
      const text = `Question ${i}: what are your opening hours on Sunday?`;
      sent.push(text);
      await p.send(text);
      await until(
        `answer ${i}`,
        async () => {
          // Before this platform has been seen to echo, a message lost with its connection is not written again by
          // itself: its line says "not confirmed", and the person sends it again.
          const doubt = byRole(p, 'user').find((l) => l.text === text && l.note === 'not confirmed' && l.fix);
          if (doubt) await p.fix(doubt.id);
          return answers(p).length === i + 1;
        },
        60_000,
      ).catch((err: Error) => {
        const s = p.snapshot();
        throw new Error(
          `${err.message}; status ${JSON.stringify(s.status)}; last lines ${JSON.stringify(s.lines.slice(-4).map((l) => [l.role, l.text.slice(0, 60), l.streaming]))}`,
        );
      });
    }
    // A line the person sent again stays, marked "not confirmed", beside the one sent again.
    const lines = p
      .snapshot()
      .lines.filter((l) => (l.role === 'user' && l.note !== 'not confirmed') || l.role === 'agent');
    assert.deepEqual(
      byRole(p, 'user')
        .filter((l) => l.note !== 'not confirmed')
        .map((l) => l.text),
      sent,
      'each message once, in order',
    );
    assert.deepEqual(
      lines.map((l) => l.role),
      ['agent', ...sent.flatMap(() => ['user', 'agent'])],
      'each answer once, after its question',
    );
    assert.ok(
      lines.every((l) => !l.streaming && !l.interrupted && l.text.length > 0),
      'every answer complete',
    );
    assert.equal(new Set(p.snapshot().lines.map((l) => l.id)).size, p.snapshot().lines.length);
    const notices = p.snapshot().lines.filter((l) => l.role === 'notice' && l.text.startsWith('Reconnected by itself'));
    assert.ok(notices.length > 0, 'the panel said it reconnected');
    await until('the last reconnect caught up', () =>
      /\(\d+ times\); \d+ missed events? caught up \(the platform replayed \d+\), none shown twice\./.test(
        p
          .snapshot()
          .lines.filter((l) => l.role === 'notice' && l.text.startsWith('Reconnected by itself'))
          .at(-1)!.text,
      ),
    );
    // The last drop may come just after the last answer: the session is open again once it has reconnected.
    await until('the session open again', () => p.snapshot().status.state === 'open', 30_000);
  });

  test('[MSG-26][MSG-17][MSG-24] 20 seeded random drops and delays while answers stream, on the full and the spec-only platform: the panel shows every message once and in order, the platform gets nothing twice, and what was not confirmed is said', async function () {
    this.timeout(300_000);
    const mode = (await admin.responses()).mode;
    const names = vscode.workspace.getConfiguration('agentWorkbench.messaging');
    await admin.setOptions({ streamDelayMs: 40, wsMessagesPerSecond: 1000 });
    try {
      for (const [responses, seed] of [
        ['full', 20261203],
        ['spec-only', 20261204],
      ] as const) {
        await admin.setResponses(responses);
        await names.update(
          'serverEventNames',
          responses === 'spec-only' ? SPEC_ONLY_SERVER_NAMES : undefined,
          vscode.ConfigurationTarget.Global,
        );
        const p = await chat({ mode: 'messaging', streaming: true, ackPaint: true });
        let painted = -1;
        let notified = 0;
        p.onDidPaint(({ rev }) => (painted = Math.max(painted, rev)));
        p.onDidNotify((n) => (notified = Math.max(notified, (n as { rev?: number }).rev ?? 0)));
        await greeted(p);
        const run = await chatThroughChaos(
          {
            lines: () => p.snapshot().lines,
            status: () => p.snapshot().status,
            send: (text) => p.send(text),
            sendAgain: (line) => p.fix(line.id),
          },
          admin,
          sessionIdOf(p),
          { seed, disruptions: 20, what: responses },
        );
        console.log(`chat chaos in the panel, ${run.context}`);
        checkChaosConversation(run, 20);
        // What the panel holds is what its page shows: the page has painted the panel's last version.
        await until('the page painted the last line version', () => painted >= notified);
      }
    } finally {
      await admin.setResponses(mode);
      await names.update('serverEventNames', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a message the platform drops over its rate limit (no echo) is marked after a while, with Send again, which gets it through', async function () {
    this.timeout(60_000);
    const p = await chat({ mode: 'messaging', streaming: false });
    await greeted(p);
    // A first message echoed: a missing echo means something only once the platform is seen to echo. Then the
    // platform's clock, which the limit counts on, moves a second on, so that the limit's window starts afresh.
    await p.send('Hello');
    await until('its answer', () => answers(p).length === 2);
    await admin.advanceClock(1_000);
    // One WebSocket message a second: of three messages sent at once, one at least is dropped unanswered (MSG-28).
    await admin.setOptions({ wsMessagesPerSecond: 1 });
    const texts = ['What are your opening hours on Sunday?', 'Can I return an order?', 'How long does delivery take?'];
    for (const text of texts) await p.send(text);
    // Each is echoed or, after 5 s without its echo, marked.
    const sent = () => byRole(p, 'user').filter((l) => texts.includes(l.text));
    await until(
      'every message echoed or marked',
      () => sent().length === 3 && sent().every((l) => !l.streaming),
      15_000,
    );
    const dropped = sent().find((l) => l.error && l.fix?.kind === 'resend');
    assert.ok(dropped, 'a dropped message is marked, with Send again');
    const quoted = dropped.text.replace(/[?]/g, '\\?');
    assert.ok(
      byRole(p, 'notice').some((l) =>
        new RegExp(`has not echoed "${quoted}" after 5 s: it may have dropped it`).test(l.text),
      ),
      'the conversation says why',
    );
    await admin.setOptions({ wsMessagesPerSecond: 20 });
    await p.fix(dropped.id);
    const again = await until(
      'the message sent again, echoed',
      () => byRole(p, 'user').filter((l) => l.text === dropped.text)[1],
      15_000,
    );
    await until(
      'its echo',
      () => {
        const line = byRole(p, 'user').filter((l) => l.text === dropped.text)[1]!;
        return !line.streaming && !line.error;
      },
      15_000,
    );
    assert.notEqual(again.id, dropped.id, 'the message sent again is a line of its own');
    const before = byRole(p, 'user').find((l) => l.id === dropped.id)!;
    assert.ok(before.error && before.fix === undefined, 'the dropped one stays marked and cannot be sent twice');
  });

  test('handoff and session end are shown', async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    await greeted(p);
    await p.send('Can I talk to a person please?');
    await until('the handoff', () => p.snapshot().status.handoff);
    await until('the person', () => byRole(p, 'liveAgent').length > 0);
    assert.ok(byRole(p, 'notice').some((l) => /^Handed off to /.test(l.text)));
    await p.endSession();
    await until('the end', () => p.snapshot().status.state === 'ended');
    assert.ok(
      byRole(p, 'notice').some(
        (l) => /^The session ended \(ended_by_user\)/.test(l.text) && l.fix?.kind === 'newSession',
      ),
    );
    assert.equal(p.snapshot().status.canSend, false);
    assert.equal(p.snapshot().status.handoff, undefined, 'no one on the line once the session is over');
  });

  test('"Error: Session not found": the conversation goes on in a new session, and the old session\'s end does not close the panel', async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    await greeted(p);
    const first = sessionIdOf(p);
    const before = p.conversationId;
    await admin.addFault({ family: 'messaging', messagingError: 'session-not-found', path: first, times: 1 });
    await p.send('Do you deliver on Sundays?');
    await until('the move to a new session', () =>
      byRole(p, 'notice').some((l) => l.text === 'The old session ended; the conversation goes on in a new one.'),
    );
    // The new session has a conversation of its own, which its agent joins.
    await until('the new session open', () => p.snapshot().status.state === 'open' && p.conversationId !== before);
    await p.send('Are you open on Sunday?');
    await until('an answer in the new session', () =>
      byRole(p, 'agent').some((l) => l.time > byRole(p, 'user').at(-1)!.time),
    );
    assert.ok(!byRole(p, 'notice').some((l) => /^The session ended/.test(l.text)), 'no end offered to be fixed');
  });

  test('the inspector names a client event as it was sent, under the name set in the settings', async () => {
    const settings = vscode.workspace.getConfiguration('agentWorkbench.messaging');
    await settings.update('clientEventNames', { userMessage: 'USER_TEXT' }, vscode.ConfigurationTarget.Global);
    try {
      const p = await chat({ mode: 'messaging', streaming: false });
      await greeted(p);
      await p.send('Hello');
      const sent = await until('the message in the inspector', () =>
        p.snapshot(Number.MAX_SAFE_INTEGER).inspector.find((e) => e.direction === 'out' && /Hello/.test(e.json)),
      );
      assert.equal(sent.label, 'USER_TEXT');
      assert.equal((JSON.parse(sent.json) as { type: string }).type, 'USER_TEXT');
    } finally {
      await settings.update('clientEventNames', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("a system error is shown, and the session carries out the spec's client action itself and says so", async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    await greeted(p);
    await admin.addFault({ family: 'messaging', messagingError: 'response-failed', times: 1 });
    await p.send('Do you deliver on Sundays?');
    const error = await until('the system error', () => byRole(p, 'system').find((l) => l.error));
    assert.equal(error.text, "Sorry, I'm having trouble responding right now. Please try again.");
    assert.equal(
      error.fix,
      undefined,
      'no button for what the session already does: a second re-send would send it twice',
    );
    await until('the answer to the message sent again', () => answers(p).length === 2);
    assert.ok(
      byRole(p, 'notice').some((l) => /send|sent/i.test(l.text)),
      'the panel says the message was sent again',
    );
    assert.deepEqual(
      byRole(p, 'user').map((l) => l.text),
      ['Do you deliver on Sundays?', 'Do you deliver on Sundays?'],
    );
  });

  test('Open Chat on a checked-out agent folder in the Explorer chats with the agent and branch of its agent.json', async () => {
    const ui = scriptedPrompts(await activateExtension());
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const folder = vscode.Uri.joinPath(root, 'support-desk');
    const plain = vscode.Uri.joinPath(root, 'not-an-agent');
    try {
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folder, 'agent.json'),
        new TextEncoder().encode(
          JSON.stringify({
            agentId: 'ag_support',
            name: 'Support Desk',
            profile: 'local',
            branch: { branchId: 'br_support_main', name: 'main' },
          }),
        ),
      );
      ui.setAnswer((shown) => (shown.kind === 'pick' ? 'Messaging' : undefined));
      const p = await vscode.commands.executeCommand<ChatPanelHandle | undefined>('agentWorkbench.openChat', folder);
      assert.ok(p, 'a panel opened');
      open.push(p);
      assert.deepEqual(
        ui.shown.find((s) => s.kind === 'pick')?.items,
        ['Messaging, streamed', 'Messaging', 'Chat API'],
        'the person is asked how to talk to the agent',
      );
      assert.deepEqual(p.snapshot().settings.target, {
        label: 'Support Desk (main)',
        agentId: 'ag_support',
        branchId: 'br_support_main',
      });
      assert.equal(p.panel.title, 'Chat: Support Desk (main)');
      await greeted(p);

      await vscode.workspace.fs.createDirectory(plain);
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.openChat', plain), undefined);
      assert.match(ui.lastError(), /not a checked-out agent folder/);
    } finally {
      ui.dispose();
      await vscode.workspace.fs.delete(folder, { recursive: true });
      await vscode.workspace.fs.delete(plain, { recursive: true }).then(undefined, () => undefined);
    }
  });

  test('Chat API: create with variant and integration attributes, respond with metadata and language codes, handoff and end shown', async () => {
    const p = await chat({
      mode: 'chatApi',
      integrationAttributes: { customer_tier: 'gold' },
      asrLanguage: 'en-US',
      ttsLanguage: 'en-GB',
    });
    await greeted(p);
    const inspector = () => p.snapshot(Number.MAX_SAFE_INTEGER).inspector;
    assert.deepEqual(JSON.parse(inspector().find((e) => e.label === 'POST chat/create')!.json), {
      integration_attributes: { customer_tier: 'gold' },
    });
    await p.send('What are your opening hours?', { channel: 'test' });
    await until('the answer', () => answers(p).length === 2);
    const respond = JSON.parse(inspector().find((e) => e.label === 'POST chat/respond')!.json) as Record<
      string,
      unknown
    >;
    assert.deepEqual(
      [respond.metadata, respond.asr_lang_code, respond.tts_lang_code],
      [{ channel: 'test' }, 'en-US', 'en-GB'],
    );
    assert.ok(inspector().find((e) => e.label === 'chat/respond')!.latencyMs! >= 0);
    await p.send('Can I talk to a person?');
    await until('the handoff', () => p.snapshot().status.handoff);
    await p.send('Thanks, bye');
    await until('the end', () => p.snapshot().status.state === 'ended');
    assert.ok(byRole(p, 'notice').some((l) => l.text === 'The agent ended the conversation.'));
  });

  test('Chat API: a turn the platform accepted with an answer it could not read is not reported as failed; a close that failed leaves the conversation open and can be tried again', async () => {
    const p = await chat({ mode: 'chatApi', target: { label: 'Unreadable' } });
    await greeted(p);
    // The platform carries out the turn and answers 200 without end_conversation.
    await admin.addFault({
      family: 'runtime',
      method: 'POST',
      path: 'chat/respond',
      replyBody: { response: 'Open from nine to five.' },
      times: 1,
    });
    await p.send('What are your opening hours?');
    await until('the part of the answer that could be read', () =>
      answers(p).some((l) => l.text === 'Open from nine to five.'),
    );
    const mine = byRole(p, 'user').at(-1)!;
    assert.ok(!mine.error && !mine.fix, 'the message is not marked failed, and Send again is not offered');
    assert.ok(
      byRole(p, 'notice').some(
        (l) => /^The platform took the message, but its answer could not be read/.test(l.text) && !l.error,
      ),
    );
    assert.equal(p.snapshot().status.canSend, true, 'the conversation goes on');

    // The platform is unavailable for closes (also when the client tries again by itself), then back.
    await admin.addFault({ family: 'runtime', method: 'PUT', path: 'chat/close', status: 503 });
    await p.endSession();
    const state = p.snapshot().status.state;
    assert.notEqual(state, 'ended', 'not closed: the platform refused');
    assert.ok(byRole(p, 'notice').some((l) => l.error && /still open/.test(l.text)));
    await admin.clearFaults();
    await p.send('Thanks');
    await until('an answer after the failed close', () => answers(p).length === 3);
    await p.endSession();
    assert.equal(p.snapshot().status.state, 'ended', 'closed when tried again');
  });

  test('save the conversation to a file, open it again; restart keeps the settings; several panels side by side', async () => {
    const a = await chat({ mode: 'chatApi', variantId: undefined, target: { label: 'First' } });
    const b = await chat({ mode: 'messaging', streaming: false, target: { label: 'Second' } });
    await until('both greetings', () => answers(a).length === 1 && answers(b).length === 1);
    await until('both panels on screen, side by side', () => a.panel.visible && b.panel.visible);
    await a.send('What are your opening hours?');
    await until('the answer', () => answers(a).length === 2);
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'saved.chat.json');
    const ui = scriptedPrompts(await activateExtension());
    let reopened: ChatPanelHandle | undefined;
    try {
      ui.setAnswer((s) => (s.kind === 'saveFile' || s.kind === 'openFile' ? 'saved.chat.json' : undefined));
      assert.equal((await a.save())?.toString(), file.toString());
      const asked = ui.shown.find((s) => s.kind === 'saveFile');
      assert.equal(asked?.message, 'Save Conversation');
      assert.match(
        asked.detail,
        /^conversation-.+\.chat\.json$/,
        'the dialog proposes a file named after the conversation',
      );
      const said = ui.shown.find((s) => s.kind === 'info' && s.message.startsWith('Saved the conversation'));
      assert.equal(said?.message, 'Saved the conversation to saved.chat.json.', 'the person is told where it went');
      assert.deepEqual(said.items, ['Open', 'Reveal in Explorer']);
      reopened = await vscode.commands.executeCommand<ChatPanelHandle>('agentWorkbench.openSavedConversation');
      assert.equal(ui.shown.find((s) => s.kind === 'openFile')?.message, 'Open Saved Conversation');
    } finally {
      ui.dispose();
    }
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    assert.ok(!/access_token"\s*:\s*"[^‹]/.test(text), 'no token in the file');
    assert.ok(reopened, 'the saved conversation opened');
    open.push(reopened);
    assert.deepEqual(
      reopened.snapshot().lines.map((l) => l.text),
      a.snapshot().lines.map((l) => l.text),
    );
    assert.equal(reopened.snapshot().status.state, 'closed');

    const before = b.conversationId;
    await b.restart();
    await until('the new greeting', () => answers(b).length === 1 && b.conversationId && b.conversationId !== before);
    assert.deepEqual(b.snapshot().settings, { mode: 'messaging', streaming: false, target: { label: 'Second' } });
    await vscode.workspace.fs.delete(file);
  });

  test('a hidden panel shows its whole conversation again, with what was said while hidden; a panel restored after a reload shows its saved conversation and Restart goes on', async function () {
    // Failed once in a full npm test on the 2-core machine, on the webviews' own site: the reloaded workbench restored
    // the panel after the wait for it had begun; it passes alone and in the integration part.
    this.retries(1);
    const p = await chat({ mode: 'messaging', streaming: false, ackPaint: true, target: { label: 'Hide and show' } });
    const paints: Array<{ rev: number; elements: number }> = [];
    p.onDidPaint(({ rev, elements }) => paints.push({ rev, elements }));
    await greeted(p);
    await until('the greeting in the page', () => paints.some((e) => e.elements > 0), {
      detail: () => `paints ${JSON.stringify(paints)}; panel visible ${p.panel.visible}; ${answers(p).length} answers`,
    });

    // Another editor in the panel's group hides it: its webview is discarded.
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { viewColumn: p.panel.viewColumn, preview: false });
    await until('the panel hidden', () => !p.panel.visible);
    await p.send('What are your opening hours?');
    await until('the answer, while hidden', () => answers(p).length === 2);

    const seen = paints.length;
    p.panel.reveal();
    await until('the panel shown again', () => p.panel.visible);
    await until(
      'every line of the conversation in the page again',
      () => paints.slice(seen).some((e) => e.rev === 0 && e.elements === p.snapshot().lines.length),
      30_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; painted ${JSON.stringify(paints.slice(seen))}, ${p.snapshot().lines.length} lines`,
      );
    });
    await vscode.window
      .showTextDocument(doc)
      .then(() => vscode.commands.executeCommand('workbench.action.closeActiveEditor'));

    // What the webview kept of the panel is what VS Code hands back after a reload.
    const api = await activateExtension();
    const saved = p.snapshot();
    const restored = (await api.testing!.restorePanel('agentWorkbench.chat', saved)) as ChatPanelHandle;
    open.push(restored);
    assert.equal(restored.panel.title, 'Chat: Hide and show');
    assert.deepEqual(
      restored.snapshot().lines.map((l) => [l.role, l.text]),
      saved.lines.map((l) => [l.role, l.text]),
    );
    assert.equal(restored.snapshot().status.state, 'closed');
    assert.match(restored.snapshot().status.text, /Restart to continue with the same settings/);
    assert.equal(
      await api.testing!.restorePanel('agentWorkbench.chat', { lines: 'not a conversation' }),
      undefined,
      'a state that is not a conversation is not shown',
    );
    await restored.restart();
    await until('the greeting of a new session', () => answers(restored).length === 1 && restored.conversationId);
    assert.deepEqual(restored.snapshot().settings, saved.settings);
  });

  test('an event the client does not know is shown in the inspector, and the conversation goes on', async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    await greeted(p);
    await admin.sendSessionEvent(sessionIdOf(p), {
      type: 'EVENT_TYPE_SURVEY_OFFERED',
      payload: { survey: 'csat', scale: 5 },
    });
    const entry = await until('the event in the inspector', () =>
      p.snapshot(Number.MAX_SAFE_INTEGER).inspector.find((e) => e.unrecognized),
    );
    assert.match(entry.label, /EVENT_TYPE_SURVEY_OFFERED/);
    assert.match(entry.json, /"survey":\s*"csat"/, 'the whole event, as it came');
    assert.equal(entry.direction, 'in');
    assert.ok(
      byRole(p, 'notice').some((l) => /cannot read arrived .*EVENT_TYPE_SURVEY_OFFERED.*in the inspector/.test(l.text)),
      'the conversation says so, and where to look',
    );
    await p.send('Are you open on Sunday?');
    await until('the answer', () => answers(p).length === 2);
    assert.equal(p.snapshot().status.state, 'open');
  });

  test('Copy Conversation Id puts the id of the active chat on the clipboard, and says what to do without a chat', async () => {
    const ui = scriptedPrompts(await activateExtension());
    try {
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.copyConversationId'), undefined);
      assert.match(ui.lastError(), /Open a chat first/);
      const p = await chat({ mode: 'chatApi', target: { label: 'Copy' } });
      await until('the greeting', () => answers(p).length === 1 && p.conversationId);
      await vscode.env.clipboard.writeText('something else');
      const copied = await vscode.commands.executeCommand<string>('agentWorkbench.copyConversationId');
      assert.equal(copied, p.conversationId);
      assert.equal(await vscode.env.clipboard.readText(), p.conversationId);
    } finally {
      ui.dispose();
    }
  });

  test('Send External Event from the chat: the sender is told the conversation, the result reaches it, and the panel says so', async () => {
    const p = await chat({ mode: 'chatApi', target: { label: 'Booking' } });
    await until('the greeting', () => answers(p).length === 1 && p.conversationId);
    const conversationId = p.conversationId!;
    await admin.awaitExternalEvent({ conversation_id: conversationId, event_id: 'evt_booking_chat' });
    const ui = scriptedPrompts(await activateExtension());
    let prefilled: Record<string, unknown> = {};
    try {
      // The body first: the person fills in the event id of the booking the result starts from.
      const steps = ['JSON', 'payload', 'booking.id'];
      let first = true;
      ui.setAnswer((s) => {
        if (s.kind !== 'input' && s.kind !== 'pick') return undefined;
        if (!first) return steps.shift();
        first = false;
        prefilled = JSON.parse(s.value ?? '{}') as Record<string, unknown>;
        return JSON.stringify({ ...prefilled, booking: { id: 'evt_booking_chat' } });
      });
      const sent = await p.sendExternalEvent();
      assert.equal(sent?.eventId, 'evt_booking_chat', ui.lastError());
      assert.equal(
        ui.shown.find((s) => s.kind === 'input')?.detail,
        `Send External Event into Conversation ${conversationId}`,
      );
    } finally {
      ui.dispose();
    }
    assert.equal(prefilled.conversation_id, conversationId);
    assert.equal(prefilled.status, 'succeeded');
    const events = await call<{ delivered: Array<{ event_id: string; conversation_id: string }> }>(
      'GET',
      `${urls.admin}/external-events`,
    );
    assert.deepEqual(
      events.body.delivered.map((d) => [d.event_id, d.conversation_id]),
      [['evt_booking_chat', conversationId]],
    );
    assert.ok(
      byRole(p, 'notice').some((l) => /^External event evt_booking_chat accepted by the platform/.test(l.text)),
    );
    assert.ok(p.snapshot(Number.MAX_SAFE_INTEGER).inspector.some((e) => e.label === 'external event'));
  });
});
