import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import { SPEC_ONLY_SERVER_NAMES as SPEC_ONLY_NAMES } from '../support/chatChaos';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { answers, byRole, type ChatPanelHandle, openChat, sessionIdOf } from '../support/editor/chatPanel';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

/** The reconnect line's count: how many missed events were caught up, and how many the platform replayed. */
const CAUGHT_UP = /(\d+) missed events? caught up \(the platform replayed (\d+)\), none shown twice\./;

// Whatever mode the run is in, these tests talk to a platform of only the spec's endpoints and events: no echo of
// a message, other names for the answer and its pieces, the history batch under another key.
suite("Chat playground against a platform of only the spec's messaging events", () => {
  let admin: LocalAdmin;
  let mode: ResponsesMode;
  const open: ChatPanelHandle[] = [];
  const settings = () => vscode.workspace.getConfiguration('agentWorkbench.messaging');
  const chat = async (args: Record<string, unknown>) => {
    const p = await openChat(args);
    open.push(p);
    return p;
  };

  suiteSetup(async () => {
    await activateExtension();
    const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    mode = (await admin.responses()).mode;
    await admin.setResponses('spec-only');
  });

  teardown(async () => {
    open.splice(0).forEach((p) => p.dispose());
    await admin.clearFaults();
    await admin.setOptions({ streamDelayMs: 0, wsMessagesPerSecond: 20 });
    await settings().update('serverEventNames', undefined, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await admin.setResponses(mode);
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('[MSG-26] 100 messages over 20 forced reconnects reach the platform exactly once each, without an echo, and every answer is on screen', async function () {
    this.timeout(600_000);
    await settings().update('serverEventNames', SPEC_ONLY_NAMES, vscode.ConfigurationTarget.Global);
    await admin.setOptions({ streamDelayMs: 5, wsMessagesPerSecond: 1000 });
    const p = await chat({ mode: 'messaging', streaming: true });
    await until('the greeting', () => answers(p).length === 1);
    const sessionId = sessionIdOf(p);
    const sent: string[] = [];
    /** Messages the panel marked not confirmed, which the person sent again. */
    const sentAgain: string[] = [];
    /** When each line marked not confirmed was first seen so: a person reads it before clicking. */
    const doubted = new Map<string, number>();
    for (let i = 1; i <= 100; i++) {
      // A drop every fifth message, taken by the platform within its next sweep (100 ms): before, during or
      // after the message and its answer.
      if (i % 5 === 3) await admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
      const text = `Question ${i}: what are your opening hours on Sunday?`;
      sent.push(text);
      await p.send(text);
      await until(
        `answer ${i}`,
        async () => {
          const doubt = byRole(p, 'user').find((l) => l.text === text && l.note === 'not confirmed' && l.fix);
          if (doubt && !doubted.has(doubt.id)) doubted.set(doubt.id, Date.now());
          // What a person does with a line that says "not confirmed", having read it: Send again.
          if (doubt && Date.now() - doubted.get(doubt.id)! > 2_000) {
            sentAgain.push(text);
            await p.fix(doubt.id);
          }
          return answers(p).length >= i + 1;
        },
        {
          timeoutMs: 60_000,
          detail: () =>
            `${answers(p).length} answers; ${JSON.stringify(p.snapshot().lines.map((l) => [l.id, l.text.slice(0, 12), l.streaming, l.note]))}`,
        },
      );
    }
    await until('the last drop taken', async () => (await admin.faults()).every((f) => (f.times ?? 0) === 0));
    await until('the session open again', () => p.snapshot().status.state === 'open', 30_000);

    const received = await admin.receivedMessages(sessionId);
    assert.deepEqual(
      received.map((m) => m.text),
      sent,
      `each message reached the platform once, in order (sent again by the person: ${sentAgain.length})`,
    );
    const said = answers(p);
    assert.equal(said.length, 101, 'the greeting and an answer to each message');
    assert.ok(
      said.every((l) => l.text.length > 0 && !l.interrupted && l.note === undefined),
      'every answer complete, read as an answer',
    );
    assert.equal(byRole(p, 'agent').length, 101, 'no answer twice');
    const reconnected = byRole(p, 'notice').filter((l) => l.text.startsWith('Reconnected by itself'));
    assert.match(reconnected.at(-1)!.text, /\(20 times\)/, 'twenty reconnects');
    assert.ok(
      !byRole(p, 'notice').some((l) => /rate limit/i.test(l.text)),
      'the rate limit is not named: the platform never said 429 or that it was under high load',
    );
  });

  test('an answer under an event name not known here is shown as the answer, marked with the name; "Use this name for answers" sets the setting and the next answers are read as answers', async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    const greeting = await until('the greeting, marked with its event name', () =>
      byRole(p, 'agent').find((l) => l.note === 'as EVENT_TYPE_BOT_RESPONSE'),
    );
    assert.ok(greeting.text.length > 0);
    assert.equal(greeting.fix?.kind, 'useAnswerName');
    assert.equal(greeting.fix?.label, 'Use this name for answers');

    await p.fix(greeting.id);
    assert.equal(settings().get<Record<string, string>>('serverEventNames')?.agentMessage, 'EVENT_TYPE_BOT_RESPONSE');
    assert.ok(
      byRole(p, 'notice').some((l) =>
        /^Events named EVENT_TYPE_BOT_RESPONSE are read as the agent's answers/.test(l.text),
      ),
    );
    assert.equal(p.snapshot().lines.find((l) => l.id === greeting.id)?.fix, undefined, 'one click');

    await p.send('What are your opening hours on Sunday?');
    const answer = await until('the answer, read as an answer', () =>
      answers(p).find((l) => l.id !== greeting.id && l.note === undefined),
    );
    assert.ok(answer.text.length > 0);
    const mine = byRole(p, 'user').at(-1)!;
    assert.ok(!mine.streaming && mine.note === undefined && !mine.error, 'the message counts as delivered: answered');
  });

  test('[MSG-17][MSG-20][MSG-26] three forced drops while a person types and sends, with the names as they come: each line shown once, "not confirmed" only on the message the platform never had, and the refused typing indicator said once, quietly, and not sent again', async function () {
    this.timeout(90_000);
    const p = await chat({ mode: 'messaging', streaming: false });
    await until('the greeting', () => answers(p).length === 1);
    const sessionId = sessionIdOf(p);
    const lines = () =>
      JSON.stringify(p.snapshot().lines.map((l) => [l.role, l.text.slice(0, 40), l.note, l.fix?.kind]));
    /** As the message box does: typing on the first keystroke, stopped on Enter, then the message. */
    const say = async (text: string) => {
      await p.typing(true);
      await p.typing(false);
      await p.send(text);
    };
    const drop = async (n: number) => {
      await admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
      await until(
        `reconnect ${n} caught up`,
        () =>
          byRole(p, 'notice').some(
            (l) => CAUGHT_UP.test(l.text) && (n === 1 ? !/ times\)/.test(l.text) : l.text.includes(`(${n} times)`)),
          ),
        { timeoutMs: 15_000, detail: lines },
      );
    };
    const hours = 'What are your opening hours on Sunday?';
    const lost = 'Do you sell gift cards?';
    const returns = 'Can I return an item I bought online?';

    // The first keystroke's indicator is refused while the person is still typing.
    await p.typing(true);
    await until('the refusal said', () => byRole(p, 'notice').some((l) => /typing indicator/.test(l.text)), {
      detail: lines,
    });
    await p.typing(false);
    await p.send(hours);
    await until('the answer', () => answers(p).length === 2, { timeoutMs: 10_000, detail: lines });
    await drop(1);
    // The platform drops what comes over its rate (MSG-28): this message never reaches it, and no answer comes.
    await admin.setOptions({ wsMessagesPerSecond: 0 });
    await say(lost);
    await drop(2);
    const doubted = await until(
      'the lost message not confirmed',
      () => byRole(p, 'user').find((l) => l.text === lost && l.note === 'not confirmed'),
      { timeoutMs: 10_000, detail: lines },
    );
    assert.equal(doubted.fix?.kind, 'resend');
    await admin.setOptions({ wsMessagesPerSecond: 20 });
    await say(returns);
    await until('the answer after the reconnect', () => answers(p).length === 3, { timeoutMs: 10_000, detail: lines });
    const answered = await until(
      'the answered message confirmed',
      () => byRole(p, 'user').find((l) => l.text === returns && !l.streaming),
      { timeoutMs: 5_000, detail: lines },
    );
    assert.equal(answered.note, undefined, `the answered message is not in doubt: ${lines()}`);
    assert.equal(
      byRole(p, 'user').find((l) => l.id === doubted.id)?.note,
      'not confirmed',
      'the answer after a newer message does not confirm the lost one',
    );
    await p.fix(doubted.id);
    await until('the answer to the message sent again', () => answers(p).length === 4, {
      timeoutMs: 10_000,
      detail: lines,
    });
    await drop(3);

    assert.deepEqual(
      (await admin.receivedMessages(sessionId)).map((m) => m.text),
      [hours, returns, lost],
      'each text reached the platform once',
    );
    assert.equal(byRole(p, 'agent').length, 4, `the greeting and three answers, each once: ${lines()}`);
    assert.deepEqual(
      byRole(p, 'user').map((l) => [l.text, l.note ?? null, l.fix?.kind ?? null]),
      [
        [hours, null, null],
        [lost, 'not confirmed', null],
        [returns, null, null],
        [lost, null, null],
      ],
      'each message once; "not confirmed" only on the one the platform never had, without a second Send again',
    );
    assert.deepEqual(byRole(p, 'system'), [], 'no red bubble for the typing indicator');
    const typingNotes = byRole(p, 'notice').filter((l) => /typing indicator/.test(l.text));
    assert.equal(typingNotes.length, 1, 'said once');
    assert.match(
      typingNotes[0]!.text,
      /^This platform does not take the typing indicator \(EVENT_TYPE_USER_TYPING: "Unknown event type or invalid message format"\), so it is not sent again in this session\.$/,
    );
    assert.ok(!typingNotes[0]!.error && !typingNotes[0]!.fix, 'quietly');
    assert.ok(!byRole(p, 'notice').some((l) => /did not understand an event/.test(l.text)), 'no advice about names');
    const refusals = p
      .snapshot(Number.MAX_SAFE_INTEGER)
      .inspector.filter((e) => e.direction === 'in' && e.label === 'EVENT_TYPE_SYSTEM_MESSAGE');
    assert.equal(refusals.length, 1, 'the typing indicator is not sent again once refused: one refusal');
  });

  test('an expired session is said once, with Start a new session', async () => {
    const p = await chat({ mode: 'messaging', streaming: false });
    await until('the greeting', () => answers(p).length === 1);
    await admin.advanceClock(11 * 60_000);
    try {
      await until('the session expired', () => p.snapshot().status.state === 'expired');
    } finally {
      await admin.advanceClock(-11 * 60_000);
    }
    const said = byRole(p, 'notice').filter((l) => /expired|ended|inactivity/i.test(l.text));
    assert.deepEqual(
      said.map((l) => [l.text, l.fix?.kind]),
      [['The messaging session expired after a period of inactivity. Start a new session.', 'newSession']],
    );
  });

  test('[MSG-17] the history batch under another key is read from its one list: after a reconnect the panel counts what the platform really replayed', async () => {
    await settings().update('serverEventNames', SPEC_ONLY_NAMES, vscode.ConfigurationTarget.Global);
    const p = await chat({ mode: 'messaging', streaming: false });
    await until('the greeting', () => answers(p).length === 1);
    await p.send('What are your opening hours on Sunday?');
    await until('the answer', () => answers(p).length === 2);
    await admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionIdOf(p), times: 1 });
    const line = await until('the reconnect caught up', () =>
      byRole(p, 'notice').find((l) => l.text.startsWith('Reconnected by itself') && CAUGHT_UP.test(l.text)),
    );
    const [, caught, replayed] = CAUGHT_UP.exec(line.text)!;
    // Without a cursor from the platform, the replay starts at the beginning: the joined event, the greeting and
    // the answer, all seen before.
    assert.ok(Number(replayed) >= 3, `the platform replayed ${replayed} events: ${line.text}`);
    assert.equal(Number(caught), 0, 'none of them new here');
    assert.ok(!/position/.test(line.text), 'no talk of positions');
    assert.deepEqual(
      p
        .snapshot()
        .lines.filter((l) => l.role === 'user' || l.role === 'agent')
        .map((l) => l.role),
      ['agent', 'user', 'agent'],
      'every line once',
    );
  });
});
