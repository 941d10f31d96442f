import {
  CHAT_API_KEY_HEADER,
  CHAT_TOKEN_HEADER,
  type ChatCloseReply,
  chatCloseReplySchema,
  chatCloseRequestSchema,
  type ChatCreateReply,
  chatCreateReplySchema,
  type ChatCreateRequest,
  chatCreateRequestSchema,
  type ChatRespondReply,
  chatRespondReplySchema,
  type ChatRespondRequest,
  chatRespondRequestSchema,
} from '../contract/chat';
import type { ClientContext } from './context';
import { validateInput } from './validate';

/**
 * Chat API: turn-based conversation. Create and respond start or advance a conversation, so
 * they are never repeated automatically (a repeat would be a second turn).
 */
export class ChatClient {
  constructor(
    private readonly ctx: ClientContext,
    private readonly version = 'v1',
  ) {}

  private async headers(operation: string): Promise<Record<string, string>> {
    const key = await this.ctx.credential('chatApiKey', 'chat', operation);
    const token = await this.ctx.credential('chatConnectorToken', 'chat', operation);
    return { [CHAT_API_KEY_HEADER]: key, [CHAT_TOKEN_HEADER]: token };
  }

  private path(op: 'create' | 'respond' | 'close'): string {
    return `/${encodeURIComponent(this.version)}${this.ctx.projectPath}/chat/${op}`;
  }

  async create(request: ChatCreateRequest = {}, signal?: AbortSignal): Promise<ChatCreateReply> {
    const operation = 'Start a chat conversation';
    const body = validateInput(chatCreateRequestSchema, request, 'chat', operation);
    const res = await this.ctx.transport.request({
      family: 'chat',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'POST',
      path: this.path('create'),
      headers: await this.headers(operation),
      body,
      schema: chatCreateReplySchema,
      retry: 'never',
      signal,
    });
    return res.body;
  }

  async respond(request: ChatRespondRequest, signal?: AbortSignal): Promise<ChatRespondReply> {
    const operation = 'Send a chat message';
    const body = validateInput(chatRespondRequestSchema, request, 'chat', operation);
    const res = await this.ctx.transport.request({
      family: 'chat',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'POST',
      path: this.path('respond'),
      headers: await this.headers(operation),
      body,
      schema: chatRespondReplySchema,
      retry: 'never',
      signal,
    });
    return res.body;
  }

  async close(conversationId: string, signal?: AbortSignal): Promise<ChatCloseReply> {
    const operation = 'Close the chat conversation';
    const body = validateInput(chatCloseRequestSchema, { conversation_id: conversationId }, 'chat', operation);
    const res = await this.ctx.transport.request({
      family: 'chat',
      operation,
      baseUrl: this.ctx.base('runtime'),
      method: 'PUT',
      path: this.path('close'),
      headers: await this.headers(operation),
      body,
      schema: chatCloseReplySchema,
      retry: 'safe',
      signal,
    });
    return res.body;
  }
}
