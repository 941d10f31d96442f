import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ChatSnapshot,
  isChatCommand,
  isChatNotification,
  isChatRequest,
  isChatSnapshot,
} from '../../../src/protocol/chat';
import { isCommand, isReady, isResponse } from '../../../src/protocol/envelope';
import { PendingRequests, RequestTimeoutError } from '../../../src/protocol/requests';

const snapshot: ChatSnapshot = {
  settings: { mode: 'messaging', streaming: true, target: { label: 'Support Desk', agentId: 'a1' } },
  lines: [{ id: 'msg:1', role: 'agent', text: 'Hello', time: '2026-01-01T00:00:00Z', custom: { order: 'A-1' } }],
  inspector: [
    {
      seq: 1,
      time: '2026-01-01T00:00:00Z',
      direction: 'in',
      label: 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
      json: '{}',
      latencyMs: 12,
    },
  ],
  status: { state: 'open', text: 'Connected', agentTyping: false, canSend: true },
};

describe('protocol: chat panel messages are checked before use', () => {
  it('accepts each well-formed command and refuses malformed ones', () => {
    assert.ok(isChatCommand({ type: 'send', text: 'hi', custom: { a: 1 } }));
    assert.ok(isChatCommand({ type: 'fix', lineId: 'sys:1' }));
    assert.ok(isChatCommand({ type: 'restart', settings: snapshot.settings }));
    assert.ok(isChatCommand({ type: 'painted', paints: [{ rev: 3, at: 1.5 }], elements: 20 }));
    assert.ok(!isChatCommand({ type: 'painted', paints: [{ rev: '3', at: 1.5 }], elements: 20 }));
    for (const bad of [
      { type: 'send' },
      { type: 'send', text: 42 },
      { type: 'send', text: 'x'.repeat(20_000) },
      { type: 'send', text: 'hi', custom: ['not', 'an', 'object'] },
      { type: 'restart', settings: { ...snapshot.settings, mode: 'telepathy' } },
      { type: 'evaluate', code: 'alert(1)' },
      { type: '__proto__' },
      null,
      'send',
    ])
      assert.equal(isChatCommand(bad), false, JSON.stringify(bad));
  });

  it('wraps commands, requests and responses in the envelope, and the ready handshake names its protocol', () => {
    assert.ok(isCommand(isChatCommand)({ kind: 'command', command: { type: 'endSession' } }));
    assert.equal(isCommand(isChatCommand)({ kind: 'request', command: { type: 'endSession' } }), false);
    assert.ok(isChatRequest({ type: 'save' }));
    assert.equal(isChatRequest({ type: 'deleteEverything' }), false);
    assert.ok(isResponse({ kind: 'response', id: 1, ok: true, result: {} }));
    assert.equal(isResponse({ kind: 'response', id: 1, ok: false }), false, 'a failure names its error');
    assert.ok(isReady({ kind: 'ready', protocol: 1 }));
    assert.equal(isReady({ kind: 'ready' }), false);
  });

  it('checks snapshots and notifications down to each line', () => {
    assert.ok(isChatSnapshot(snapshot));
    assert.ok(isChatNotification({ type: 'snapshot', snapshot }));
    assert.ok(isChatNotification({ type: 'line', line: snapshot.lines[0], rev: 1 }));
    assert.ok(
      isChatNotification({
        type: 'batch',
        notifications: [
          { type: 'line', line: snapshot.lines[0], rev: 1 },
          { type: 'draft', text: 'x' },
        ],
      }),
    );
    assert.equal(
      isChatNotification({ type: 'batch', notifications: [{ type: 'line', line: { id: 'x' }, rev: 1 }] }),
      false,
      'each notification of a batch is checked',
    );
    assert.equal(isChatSnapshot({ ...snapshot, lines: [{ ...snapshot.lines[0], role: 'html' }] }), false);
    assert.equal(isChatNotification({ type: 'line', line: { id: 'x' }, rev: 1 }), false);
    assert.equal(isChatSnapshot({ ...snapshot, status: { ...snapshot.status, state: 'open?' } }), false);
  });
});

describe('protocol: requests are answered or time out', () => {
  it('settles a request with its response, by id, and ignores a late or unknown one', async () => {
    const pending = new PendingRequests();
    let sentId = 0;
    const asked = pending.ask('save', (id) => (sentId = id), 1_000);
    assert.equal(pending.settle({ kind: 'response', id: sentId + 1, ok: true, result: 'other' }), false);
    assert.equal(pending.settle({ kind: 'response', id: sentId, ok: true, result: { file: 'a.chat.json' } }), true);
    assert.deepEqual(await asked, { file: 'a.chat.json' });
    assert.equal(pending.settle({ kind: 'response', id: sentId, ok: true, result: 'again' }), false);
  });

  it('fails with the error the other side gave, after a timeout when none answers, and on cancel', async () => {
    const pending = new PendingRequests();
    let id = 0;
    const failed = pending.ask('save', (i) => (id = i), 1_000);
    pending.settle({ kind: 'response', id, ok: false, error: 'No folder is open' });
    await assert.rejects(failed, /No folder is open/);
    await assert.rejects(
      pending.ask('copyConversationId', () => undefined, 20),
      (err: unknown) =>
        err instanceof RequestTimeoutError && /copyConversationId was not answered within 20 ms/.test(err.message),
    );
    const cancelled = pending.ask('save', () => undefined, 1_000);
    pending.cancelAll('the panel was closed');
    await assert.rejects(cancelled, /the panel was closed/);
  });
});
