import { LOCAL_LIMITS, overLocalLimit } from '../ownLimits';
import type { z } from 'zod';
import {
  CHAT_CHANNEL,
  type ChatCloseReply,
  chatCloseRequestSchema,
  type ChatCreateReply,
  chatCreateRequestSchema,
  type ChatRespondReply,
  chatRespondRequestSchema,
} from '../../contract/chat';
import { ConversationEndedError, engineOf } from '../engine/agentEngine';
import type { Family, FamilyContext } from '../family';
import { type RequestContext, Router } from '../http';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';
import { authenticateChat, type ChatCaller, requireJsonBody } from './chatAuth';
import { chatError, chatValidationError } from './chatErrors';

const PREFIX = '/:version/:account/:project/chat';

/** Chat API: turn-based conversations with an agent over REST (CHAT-1..7). */
export function createChatFamily({ platform }: FamilyContext): Family {
  const engine = engineOf(platform);
  const router = new Router();

  router.post(`${PREFIX}/create`, (ctx) => {
    const caller = authenticateChat(platform, ctx);
    const body = parseBody(ctx, chatCreateRequestSchema, true);
    const { connector, project } = caller;
    const variantId = body.variant_id ?? connector.variantId ?? null;
    if (variantId && !platform.state.variants.some((v) => v.id === variantId && v.projectId === project.id)) {
      throw chatError(400, `variant_id: no variant ${variantId} in this project`, 'variant_id');
    }
    if (!platform.state.agents.agents[connector.agentId])
      throw chatError(404, 'The agent of this connector no longer exists');
    const { conversation, greeting } = engine.start({
      agentId: connector.agentId,
      environment: connector.environment,
      channel: CHAT_CHANNEL,
      source: 'chat',
      accountId: project.accountId,
      projectId: project.id,
      variantId,
      integrationAttributes: body.integration_attributes ?? null,
      handoffDestination: connector.handoffDestination ?? null,
    });
    const reply: ChatCreateReply = { conversation_id: conversation.id, response: greeting };
    return { body: reply };
  });

  router.post(`${PREFIX}/respond`, async (ctx) => {
    const caller = authenticateChat(platform, ctx);
    const body = parseBody(ctx, chatRespondRequestSchema, false);
    if (body.message !== undefined && body.message.length > LOCAL_LIMITS.chatMessage)
      throw chatError(400, `message: ${overLocalLimit(LOCAL_LIMITS.chatMessage, 'characters')}`, 'message');
    const conversation = chatConversation(platform, caller, body.conversation_id);
    if (!conversation.in_progress) throw closedError(conversation.id);
    try {
      const turn = engine.respond(conversation, {
        message: body.message ?? '',
        ...(body.metadata ? { metadata: body.metadata } : {}),
        ...(body.integration_attributes ? { integrationAttributes: body.integration_attributes } : {}),
        ...(body.asr_lang_code ? { asrLangCode: body.asr_lang_code } : {}),
        ...(body.tts_lang_code ? { ttsLangCode: body.tts_lang_code } : {}),
        handoffDestination: caller.connector.handoffDestination ?? null,
      });
      // Variability's varying latency: the answer is ready, and comes this much later.
      if (turn.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
      const reply: ChatRespondReply = {
        conversation_id: conversation.id,
        response: turn.response,
        end_conversation: turn.endConversation,
        ...(turn.handoff ? { handoff: turn.handoff } : {}),
      };
      return { body: reply };
    } catch (err) {
      if (err instanceof ConversationEndedError) throw closedError(conversation.id);
      throw err;
    }
  });

  router.put(`${PREFIX}/close`, (ctx) => {
    const caller = authenticateChat(platform, ctx);
    const body = parseBody(ctx, chatCloseRequestSchema, false);
    const conversation = chatConversation(platform, caller, body.conversation_id);
    // Closing is idempotent: a conversation already closed or ended stays so.
    engine.end(conversation, 'caller');
    const reply: ChatCloseReply = { success: true };
    return { body: reply };
  });

  return { name: 'chat', base: 'runtime', router };
}

function parseBody<S extends z.ZodType>(ctx: RequestContext, schema: S, optional: boolean): z.output<S> {
  requireJsonBody(ctx);
  const raw = ctx.json(() => chatError(400, 'Request body is not valid JSON', 'body'));
  const parsed = schema.safeParse(raw === undefined && optional ? {} : (raw ?? {}));
  if (!parsed.success) throw chatValidationError(parsed.error);
  return parsed.data;
}

/** A chat conversation of the caller's project, or 404. */
function chatConversation(platform: Platform, caller: ChatCaller, id: string): StoredConversation {
  const conversation = platform.findConversation(id);
  if (!conversation || conversation.source !== 'chat' || conversation.project_id !== caller.project.id) {
    throw chatError(404, `Conversation not found: ${id}`, 'conversation_id');
  }
  return conversation;
}

/** Respond after close (the spec leaves it open): 409, the conversation cannot take turns any more. */
function closedError(id: string) {
  return chatError(409, `Conversation ${id} is closed; create a new conversation to continue`, 'conversation_id');
}
