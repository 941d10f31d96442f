import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAT_RESULTS, type ChatRequests } from '../../../src/protocol/chat';
import type { RequestOf, ResultOf } from '../../../src/protocol/envelope';
import { TRANSCRIPTS_RESULTS, type TranscriptsRequests } from '../../../src/protocol/transcripts';
import type { RequestHandlers } from '../../../src/ui/panels/panelHost';

/** Compiles only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>): Same<A, B> => proof;

describe("protocol: a request's answer follows from its name", () => {
  it('types each answer by the request that asks for it, on both sides (checked by the typecheck)', () => {
    same<ResultOf<TranscriptsRequests, 'export'>, { file?: string }>(true);
    same<ResultOf<ChatRequests, 'copyConversationId'>, { conversationId?: string }>(true);
    same<RequestOf<TranscriptsRequests, 'copyId'>, { type: 'copyId' } & { conversationId?: string }>(true);

    // A handler must answer with its own request's result.
    const handlers: RequestHandlers<ChatRequests> = {
      save: async () => ({ file: 'a.chat.json' }),
      // @ts-expect-error copyConversationId answers { conversationId?: string }, not a number
      copyConversationId: async () => 42,
    };
    // @ts-expect-error every request of the protocol has its handler
    const missing: RequestHandlers<TranscriptsRequests> = { export: async () => ({}) };
    // @ts-expect-error a request the protocol does not name is not a request
    const unknown: RequestOf<ChatRequests> = { type: 'deleteEverything' };
    assert.ok(handlers && missing && unknown);
  });

  it("checks each answer with its request's guard", () => {
    assert.ok(CHAT_RESULTS.save({ file: 'conversation.chat.json' }));
    assert.ok(CHAT_RESULTS.save({}));
    assert.equal(CHAT_RESULTS.save({ file: 3 }), false);
    assert.ok(CHAT_RESULTS.copyConversationId({ conversationId: 'c1' }));
    assert.equal(CHAT_RESULTS.copyConversationId('c1'), false);
    assert.ok(TRANSCRIPTS_RESULTS.export({ file: 'c.md' }));
    assert.equal(TRANSCRIPTS_RESULTS.export(null), false);
    assert.ok(TRANSCRIPTS_RESULTS.copyId({}));
    assert.equal(TRANSCRIPTS_RESULTS.copyId({ conversationId: false }), false);
  });
});
