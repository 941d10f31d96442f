import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { BACK, type ScriptedPrompts, type Shown } from '../support/editor/prompts';
import { call } from '../support/http';
import type { LocalPlatformUrls } from '../support/editor/extension';
import type { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

type Placed = { callSid: string; toNumber: string; encryption: string; metadata: Record<string, string> } | undefined;

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/** The test call, number reservation and external event tools against the local platform: what was sent, and what the person saw. */
suite('Runtime tools', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const calls = () => admin.outboundCalls();
  const reservations = () => admin.dniReservations();
  const fault = (path: string, status: number) => admin.addFault({ family: 'runtime', path, status, times: 1 });

  /**
   * The person types or picks these answers, in order, into the boxes and picks; messages get `onMessage`.
   * An answer refused by a box's validation ends the command there (the person presses Escape).
   */
  function answer(steps: string[], onMessage: (s: Shown) => string | undefined = () => undefined): void {
    const queue = [...steps];
    ui.setAnswer((s) => (s.kind === 'input' || s.kind === 'pick' ? queue.shift() : onMessage(s)));
  }
  const inputs = () => ui.shown.filter((s) => s.kind === 'input');
  const infos = () => ui.shown.filter((s) => s.kind === 'info').map((s) => s.message);
  /** What `read` gives once `ok` holds for it. */
  const waitFor = <T>(what: string, read: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> =>
    until(
      what,
      async () => {
        const v = await read();
        return ok(v) && { v };
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    ).then((r) => r.v);

  // The platform's reset before each test clears its faults too.
  const editor = editorSuite();
  suiteSetup(() => ({ urls, admin, ui } = editor));

  suite('Place Test Call', () => {
    test('a national number with its country is sent in E.164 with its metadata and encryption; the call id is shown and copied', async () => {
      answer(['(415) 555-0123', 'us', 'campaign=spring', 'order=42', '', 'UDP/RTP'], (s) =>
        s.kind === 'info' ? 'Copy' : undefined,
      );
      const placed = await exec<Placed>('placeTestCall');
      assert.ok(placed, ui.lastError());
      assert.equal(placed.toNumber, '+14155550123');
      assert.deepEqual(placed.metadata, { campaign: 'spring', order: '42' });
      const onPlatform = await calls();
      assert.deepEqual(
        onPlatform.map((c) => [c.call_sid, c.to_number, c.encryption]),
        [[placed.callSid, '+14155550123', 'UDP/RTP']],
      );
      assert.match(placed.callSid, /^OUT-/);
      assert.ok(
        infos().some((m) => m.includes(placed.callSid) && m.includes('+14155550123')),
        infos().join('\n'),
      );
      await waitFor(
        'the call id on the clipboard',
        () => Promise.resolve(vscode.env.clipboard.readText()),
        (t) => t === placed.callSid,
      );
      assert.equal(await vscode.env.clipboard.readText(), placed.callSid);
      // The encoded size was shown as each pair was typed, against the 26 KB limit.
      const notes = inputs()
        .map((s) => s.note ?? '')
        .filter(Boolean);
      assert.ok(
        notes.some((n) => /once encoded \(base64\)/.test(n) && n.includes('26 KB')),
        notes.join('\n'),
      );
    });

    test("Open Conversation shows the call's conversation in the transcript viewer, found by the call id it keeps", async () => {
      answer(['+14155550123', '', 'UDP/RTP'], (s) =>
        s.kind === 'info' && /^Call OUT-/.test(s.message) ? 'Open Conversation' : undefined,
      );
      const placed = await exec<Placed>('placeTestCall');
      assert.ok(placed, ui.lastError());
      const conversationId = (
        await waitFor('the connected call', calls, (cs) => cs.some((c) => c.conversation_id !== null))
      )[0]?.conversation_id;
      assert.ok(conversationId, 'the local platform connected the call');
      // The panel the person opened from the notification is the one Open Conversation returns for the same id.
      type Detail = { shown?: { conversationId?: string; id?: string }; loaded: Promise<void>; dispose(): void };
      const panel = await waitFor(
        'the conversation panel',
        async () => exec<Detail | undefined>('openConversation', { conversationId: placed.callSid }),
        (p) => p !== undefined,
      );
      assert.ok(panel, 'a conversation panel is open for the call');
      const shown = await waitFor(
        'the conversation shown',
        () => Promise.resolve(panel.shown),
        (d) => d !== undefined,
      );
      assert.ok(shown, 'the conversation was found and shown');
      assert.ok(JSON.stringify(shown).includes(conversationId), JSON.stringify(shown).slice(0, 300));
      panel.dispose();
    });

    test('Back from the country of a national number goes to the number, kept as typed, and the call goes to the number typed then', async () => {
      answer(['020 7183 8750', BACK, '+442071838750', '', 'TLS/SRTP']);
      const placed = await exec<Placed>('placeTestCall');
      assert.ok(placed, ui.lastError());
      const asked = inputs().map((s) => [s.step, s.value]);
      // The counter keeps its total as the country step comes and goes.
      assert.deepEqual(asked.slice(0, 3), [
        ['1/4', ''],
        ['2/4', ''],
        ['1/4', '020 7183 8750'],
      ]);
      assert.deepEqual(
        (await calls()).map((c) => c.to_number),
        ['+442071838750'],
      );
    });

    for (const [what, steps, refusal] of [
      ['a number that is not a phone number', ['+1 555'], /This number could not be parsed/],
      [
        'a national number in a country without that number',
        ['020 7183 8750', 'US'],
        /This number could not be parsed as a valid phone number for country US/,
      ],
      ['a country code that is not one', ['020 7183 8750', 'XX'], /"XX" is not a country code/],
      ['a metadata line without =', ['+442071838750', 'spring'], /key=value/],
      ['metadata over 26 KB once encoded', ['+442071838750', `notes=${'x'.repeat(20_000)}`], /Too large: .* of 26 KB/],
    ] as const) {
      test(`refuses ${what}, and nothing is sent`, async () => {
        answer([...steps]);
        assert.equal(await exec<Placed>('placeTestCall'), undefined);
        const refused = inputs().find((s) => s.refused)?.refused ?? '';
        assert.match(refused, refusal);
        assert.deepEqual(await calls(), []);
      });
    }

    test("[OUT-2] refuses a number libphonenumber-js does not know as valid as this editor's check, naming its setting", async () => {
      answer(['+12001234567']);
      assert.equal(await exec<Placed>('placeTestCall'), undefined);
      const refused = inputs().find((s) => s.refused)?.refused ?? '';
      assert.match(
        refused,
        /this editor checks it before a phone rings \(setting agentWorkbench\.outbound\.checkNumberValidity\)/,
      );
      assert.deepEqual(await calls(), []);
    });

    test('[OUT-2] with agentWorkbench.outbound.checkNumberValidity off, that number is sent and the platform answers', async () => {
      const config = vscode.workspace.getConfiguration('agentWorkbench.outbound');
      await config.update('checkNumberValidity', false, vscode.ConfigurationTarget.Global);
      try {
        answer(['+12001234567', '', 'TLS/SRTP']);
        assert.equal(await exec<Placed>('placeTestCall'), undefined);
        assert.ok(!inputs().some((s) => s.refused), 'nothing was refused before sending');
        assert.match(ui.lastError(), /\+12001234567 .*the local platform calls only those \(a rule of its own/);
        assert.deepEqual(await calls(), []);
      } finally {
        await config.update('checkNumberValidity', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    for (const [status, meaning] of [
      [400, /the number could not be parsed, or the metadata is not string-only or is over 26 KB/],
      [401, /the outbound auth token is invalid or missing.*Set Credential/],
    ] as const) {
      test(`explains a ${status} and offers no Retry`, async () => {
        await fault('/v1/outbound-calling', status);
        answer(['+442071838750', '', 'TLS/SRTP']);
        assert.equal(await exec<Placed>('placeTestCall'), undefined);
        const error = ui.shown.find((s) => s.kind === 'error')!;
        assert.match(error.message, meaning);
        assert.ok(!error.items.includes('Retry'), error.items.join(', '));
        assert.deepEqual(await calls(), []);
      });
    }

    test('a 500 places nothing, is not retried by itself, and Retry places the call once', async () => {
      await fault('/v1/outbound-calling', 500);
      let retry = false;
      answer(['+442071838750', '', 'TLS/SRTP'], (s) => (s.kind === 'error' && retry ? 'Retry' : undefined));
      const since = await admin.lastRequestSeq();
      assert.equal(await exec<Placed>('placeTestCall'), undefined);
      const error = ui.shown.find((s) => s.kind === 'error')!;
      assert.match(error.message, /the call could not be placed/);
      assert.ok(error.items.includes('Retry'));
      // What the editor sent reached the platform before a marker request sent now: the one refused call.
      const placing = (await admin.sentBeforeMarker(since)).filter((r) => r.path.endsWith('/outbound-calling'));
      assert.deepEqual(
        placing.map((r) => r.method),
        ['POST'],
        'not retried by itself',
      );
      assert.deepEqual(await calls(), [], 'nothing placed');

      await fault('/v1/outbound-calling', 500);
      retry = true;
      ui.shown.length = 0;
      answer(['+442071838750', '', 'TLS/SRTP'], (s) => {
        if (s.kind !== 'error') return undefined;
        const once = retry;
        retry = false;
        return once ? 'Retry' : undefined;
      });
      await exec<Placed>('placeTestCall');
      const placed = await waitFor('the placed call', calls, (c) => c.length > 0);
      assert.equal(placed.length, 1);
      assert.equal(placed[0]!.to_number, '+442071838750');
    });
  });

  suite('Test calls reach a final state or say why not', () => {
    type Detail = {
      status: { text: string; error?: string };
      shown?: { row: { inProgress: boolean } };
      refresh(): Promise<void>;
      dispose(): void;
    };
    const openCall = (callSid: string, extra: Record<string, unknown> = {}) =>
      exec<Detail>('openConversation', { conversationId: callSid, callSid, awaitRecordingMs: 60_000, ...extra });

    test('[OUT-8] a call the platform cannot place says so in words a person reads, without advice meant for developers', async () => {
      answer(['+15005550001', '', 'TLS/SRTP']);
      assert.equal(await exec<Placed>('placeTestCall'), undefined);
      const error = ui.lastError();
      assert.match(error, /the call could not be placed/);
      assert.match(error, /\+15005550001 could not be reached/);
      assert.doesNotMatch(error, /backoff|Call placement failed/i);
    });

    test('a busy call ends without a conversation, and its conversation says so instead of waiting to be recorded', async () => {
      answer(['+15005550002', '', 'TLS/SRTP']);
      const placed = await exec<Placed>('placeTestCall');
      assert.ok(placed, ui.lastError());
      const d = await openCall(placed.callSid);
      try {
        if ((await admin.responses()).mode === 'spec-only') {
          // Without the (assumed) call status endpoint, the view can only say it waits for the recording.
          await until('the waiting note', () => /Waiting for conversation/.test(d.status.text), { timeoutMs: 10_000 });
          return;
        }
        const said = await waitFor(
          'the reason',
          () => Promise.resolve(d.status.error ?? ''),
          (e) => e !== '',
        );
        assert.match(said, /ended without a conversation \(failed: busy\): nothing was recorded/);
      } finally {
        d.dispose();
      }
    });

    test('a call nobody hangs up is no longer read again after a while and says why; Refresh reads its end', async () => {
      answer(['+14155550123', '', 'TLS/SRTP']);
      const placed = await exec<Placed>('placeTestCall');
      assert.ok(placed, ui.lastError());
      const d = await openCall(placed.callSid, { idleMs: 1_000 });
      try {
        const text = await until('the idle note', () => /no longer read again/.test(d.status.text) && d.status.text, {
          timeoutMs: 30_000,
        });
        assert.match(
          text,
          /Still in progress with no new turn for 1 s: the call is still connected, nobody has hung up/,
        );
        const hungUp = await call('POST', `${urls.admin}/outbound/calls/${placed.callSid}/hangup`);
        assert.equal(hungUp.status, 200);
        await d.refresh();
        assert.equal(d.shown?.row.inProgress, false);
        assert.match(d.status.text, /Finished/);
      } finally {
        d.dispose();
      }
    });
  });

  suite('Reserve Phone Number', () => {
    test('reserves with the attributes as a JSON object and shows the number with Copy', async () => {
      answer(['{"campaign": "spring", "visitor": {"id": 7}}'], (s) => (s.kind === 'info' ? 'Copy' : undefined));
      const reserved = await exec<{ number: string; attributes: unknown }>('reserveNumber');
      assert.ok(reserved, ui.lastError());
      const onPlatform = await reservations();
      assert.deepEqual(
        onPlatform.map((r) => [r.dni, r.attributes]),
        [[reserved.number, { campaign: 'spring', visitor: { id: 7 } }]],
      );
      assert.ok(infos().some((m) => m.includes(`Reserved ${reserved.number}`)));
      assert.ok(ui.shown.find((s) => s.kind === 'info')!.items.includes('Copy'));
      assert.equal(
        await waitFor(
          'the number on the clipboard',
          () => Promise.resolve(vscode.env.clipboard.readText()),
          (t) => t === reserved.number,
        ),
        reserved.number,
      );
    });

    for (const [what, typed, refusal] of [
      ['text that is not JSON', '{campaign: spring}', /not valid JSON/],
      ['a JSON list', '["spring"]', /Write a JSON object.*a list/],
      ['a JSON string', '"spring"', /Write a JSON object/],
    ] as const) {
      test(`refuses ${what}, and nothing is sent`, async () => {
        answer([typed]);
        assert.equal(await exec('reserveNumber'), undefined);
        assert.match(inputs()[0]!.refused ?? '', refusal);
        assert.deepEqual(await reservations(), []);
      });
    }

    test('names the agent the number routes to, in the box and in what it says after', async () => {
      answer(['{"campaign": "spring"}']);
      const reserved = await exec<{ number: string; agent?: string }>('reserveNumber');
      assert.ok(reserved, ui.lastError());
      assert.equal(reserved.agent, 'Support Desk');
      assert.match(inputs()[0]!.message, /Support Desk/, 'the box says whose attributes they are');
      assert.ok(
        infos().some((m) => m.startsWith(`Reserved ${reserved.number} for Support Desk.`)),
        JSON.stringify(infos()),
      );
    });

    for (const [what, typed, said] of [
      ['a comma before }', '{"campaign": "spring",\n}', /line 2, column 1: remove the comma before \}/],
      [
        'a name without quotes',
        '{\n  campaign: "spring"}',
        /line 2, column 3: write campaign in double quotes \("campaign"\)/,
      ],
      ['single quotes', "{'campaign': 'spring'}", /line 1, column 2: JSON writes text in double quotes/],
      ['a missing }', '{"campaign": "spring"', /line 1, column 22: a closing \} is missing/],
      ['text after the object', '{"campaign": "spring"} x', /line 1, column 24: nothing may follow the object/],
    ] as const) {
      test(`says where the JSON goes wrong and what to fix, not the parser's position: ${what}`, async () => {
        answer([typed]);
        assert.equal(await exec('reserveNumber'), undefined);
        const refused = inputs()[0]!.refused ?? '';
        assert.match(refused, said);
        assert.doesNotMatch(refused, /position|Unexpected token/);
        assert.deepEqual(await reservations(), []);
      });
    }

    test('explains a 401 from the platform', async () => {
      await fault('/v1/conversations/dni-reservation', 401);
      answer(['{}']);
      assert.equal(await exec('reserveNumber'), undefined);
      assert.match(ui.lastError(), /DNI key is missing or was not accepted/);
      assert.deepEqual(await reservations(), []);
    });
  });

  suite('Send External Event', () => {
    const events = () => admin.externalEvents();
    /** A placed call whose conversation waits on an event id, as when the agent starts a booking. */
    async function waitingConversation(eventId: string): Promise<string> {
      const placed = await call<{ call_sid: string }>('POST', `${urls.runtime}/v1/outbound-calling`, {
        headers: { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken },
        body: { to_number: '+442071838750' },
      });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      await admin.awaitExternalEvent({ conversation_id: placed.body.call_sid, event_id: eventId });
      return placed.body.call_sid;
    }

    test('delivers a JSON result whose id is at a dotted path of the payload, and shows the 201', async () => {
      const conversation = await waitingConversation('evt_booking_1');
      answer(['{"booking": {"id": "evt_booking_1", "status": "confirmed"}}', 'JSON', 'payload', 'booking.id']);
      const sent = await exec<{ eventId?: string; status: string }>('sendExternalEvent');
      assert.ok(sent, ui.lastError());
      assert.deepEqual(
        (await events()).delivered.map((d) => [d.event_id, d.conversation_id]),
        [['evt_booking_1', conversation]],
      );
      assert.ok(
        infos().some((m) => /accepted event evt_booking_1 \(201 Created/.test(m)),
        infos().join('\n'),
      );
    });

    test('asks the body first; the content type is read from it and a typed media type is kept; the last values are offered next time', async () => {
      await waitingConversation('evt_first_1');
      answer(['{"booking": {"event_id": "evt_first_1"}}', 'JSON', 'payload', 'booking.event_id']);
      assert.ok(await exec('sendExternalEvent'), ui.lastError());
      const asked = ui.shown.filter((s) => s.kind === 'input' || s.kind === 'pick');
      assert.match(asked[0]!.message, /The result to deliver/, 'the body is asked first');
      assert.equal(asked[1]!.items[0], 'JSON', 'the content type read from the body comes first');
      assert.ok(asked[1]!.items.includes('Another content type…'), 'a media type of its own can be typed');

      // Next time, the last body and path are offered; the content type may be one typed by the person.
      await waitingConversation('evt_first_2');
      ui.shown.length = 0;
      answer([
        '{"booking": {"event_id": "evt_first_2"}}',
        'Another content type…',
        'application/json; charset=utf-8',
        'payload',
        'booking.event_id',
      ]);
      assert.ok(await exec('sendExternalEvent'), ui.lastError());
      const again = ui.shown.filter((s) => s.kind === 'input' || s.kind === 'pick');
      assert.equal(again[0]!.value, '{"booking": {"event_id": "evt_first_1"}}', 'the last body is offered');
      assert.equal(again.at(-1)!.value, 'booking.event_id', 'the last path is offered');
      assert.deepEqual(
        (await events()).delivered.map((d) => [d.event_id, d.content_type]),
        [
          ['evt_first_1', 'application/json'],
          // The platform keeps the media type without its parameters.
          ['evt_first_2', 'application/json'],
        ],
      );
    });

    test('sends the id in a header, with a form body', async () => {
      await waitingConversation('evt_pay_9');
      answer(['amount=12.50&currency=EUR', 'Form', 'headers', 'X-Payment-Ref', 'evt_pay_9']);
      assert.ok(await exec('sendExternalEvent'), ui.lastError());
      const delivered = (await events()).delivered;
      assert.deepEqual(
        delivered.map((d) => [d.event_id, d.content_type]),
        [['evt_pay_9', 'application/x-www-form-urlencoded']],
      );
    });

    for (const [what, steps, refusal] of [
      ['a JSON body that does not parse', ['{booking'], /not valid JSON/],
      [
        'a JSON body without the id at the path',
        ['{"booking": {}}', 'JSON', 'payload', 'booking.id'],
        /no event id at booking\.id/,
      ],
      ['a form body without the id field', ['amount=3', 'Form', 'payload', 'ref'], /no field ref/],
    ] as const) {
      test(`refuses ${what}, and nothing is sent`, async () => {
        await waitingConversation('evt_x');
        answer([...steps]);
        assert.equal(await exec('sendExternalEvent'), undefined);
        assert.match(inputs().find((s) => s.refused)?.refused ?? '', refusal);
        assert.deepEqual((await events()).delivered, []);
      });
    }

    test("[EXT-2] sends a dotted path with an empty part, and shows the local platform's own refusal", async () => {
      await waitingConversation('evt_x');
      answer(['paid', 'Text', 'querystring', 'booking..id', 'evt_x']);
      assert.equal(await exec('sendExternalEvent'), undefined);
      assert.match(ui.lastError(), /event_id_path: .*without empty parts \(a rule of its own\)/);
      assert.deepEqual((await events()).delivered, []);
    });

    test('shows the error_message of a 400 (no conversation waits on that id)', async () => {
      answer(['paid', 'Text', 'querystring', 'ref', 'evt_nobody_waits']);
      assert.equal(await exec('sendExternalEvent'), undefined);
      assert.match(ui.lastError(), /the event id could not be found or is invalid.*evt_nobody_waits/);
      assert.deepEqual((await events()).delivered, []);
    });

    test('delivers an XML result, its id read below the root element', async () => {
      const conversation = await waitingConversation('evt_xml_7');
      answer(['<result><event_id>evt_xml_7</event_id><status>paid</status></result>', 'XML', 'payload', 'event_id']);
      assert.ok(await exec('sendExternalEvent'), ui.lastError());
      assert.deepEqual(
        (await events()).delivered.map((d) => [d.event_id, d.conversation_id, d.content_type]),
        [['evt_xml_7', conversation, 'application/xml']],
      );
      assert.ok(
        infos().some((m) => /accepted (event evt_xml_7 )?\(?.*201 Created/.test(m)),
        infos().join('\n'),
      );
    });

    test('delivers a text result, its id in the query string', async () => {
      const conversation = await waitingConversation('evt_text_3');
      answer(['paid in full', 'Text', 'querystring', 'ref', 'evt_text_3']);
      assert.ok(await exec('sendExternalEvent'), ui.lastError());
      assert.deepEqual(
        (await events()).delivered.map((d) => [d.event_id, d.conversation_id, d.content_type]),
        [['evt_text_3', conversation, 'text/plain']],
      );
    });

    test('explains a 401 (the key), offers no Retry, and delivers nothing', async () => {
      await waitingConversation('evt_key');
      await fault('/v1/external-events/webhook', 401);
      answer(['{"id": "evt_key"}', 'JSON', 'payload', 'id']);
      assert.equal(await exec('sendExternalEvent'), undefined);
      const error = ui.shown.find((s) => s.kind === 'error')!;
      assert.match(error.message, /External Events key is missing or was not accepted.*Set Credential/);
      assert.ok(!error.items.includes('Retry'), error.items.join(', '));
      assert.deepEqual((await events()).delivered, []);
    });

    test('a 500 offers Retry and sends nothing by itself', async () => {
      await waitingConversation('evt_retry');
      await fault('/v1/external-events/webhook', 500);
      answer(['{"id": "evt_retry"}', 'JSON', 'payload', 'id']);
      assert.equal(await exec('sendExternalEvent'), undefined);
      const error = ui.shown.find((s) => s.kind === 'error')!;
      assert.match(error.message, /transient processing error/);
      assert.ok(error.items.includes('Retry'));
      assert.deepEqual((await events()).delivered, []);
    });
  });

  teardown(() => {
    const everything = JSON.stringify(ui.shown);
    for (const secret of [...Object.values(LOCAL_KEYS), LOCAL_CONNECTORS.outboundToken])
      assert.ok(!everything.includes(secret), 'a credential was shown');
  });
});
