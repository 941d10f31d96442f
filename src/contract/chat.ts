import { z } from 'zod';
import { anyObjectSchema, extra } from './common';

/**
 * Chat API (base {base_url}): `/{version}/{account_id}/{project_id}/chat/create|respond|close`,
 * headers X-API-KEY and X-TOKEN. Requests are checked by the local platform with these schemas;
 * replies are parsed by the client with them.
 */

/** Versions of the Chat API path segment in use. */
export const CHAT_VERSIONS = ['v1'] as const;
export type ChatVersion = (typeof CHAT_VERSIONS)[number];

/** The channel label chat conversations are recorded with. */
export const CHAT_CHANNEL = 'CHAT';

/** Header names, exactly as the spec writes them. */
export const CHAT_API_KEY_HEADER = 'X-API-KEY';
export const CHAT_TOKEN_HEADER = 'X-TOKEN';

/** A language code such as `en`, `en-GB` or `es-419`. */
export const LANGUAGE_CODE_PATTERN = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

const attributesSchema = anyObjectSchema;
const languageCode = (field: string) =>
  z.string().regex(LANGUAGE_CODE_PATTERN, { error: `${field} must be a language code such as en or en-GB` });

export const VARIANT_ONLY_ON_CREATE = 'variant_id is accepted only on create and cannot be changed later';

/** POST .../chat/create: the body is optional. */
export const chatCreateRequestSchema = z.looseObject({
  variant_id: z.string().min(1, { error: 'variant_id must be a non-empty string' }).optional(),
  /** Arbitrary key/values for project functions; null is the same as absent. */
  integration_attributes: attributesSchema.nullable().optional(),
});
export type ChatCreateRequest = z.infer<typeof chatCreateRequestSchema>;

export const chatCreateReplySchema = z.looseObject({
  conversation_id: z.string(),
  response: z.string(),
});
export type ChatCreateReply = z.infer<typeof chatCreateReplySchema>;

/** POST .../chat/respond. */
export const chatRespondRequestSchema = z.looseObject({
  conversation_id: z.string({ error: 'conversation_id is required' }).min(1, { error: 'conversation_id is required' }),
  /** Any length: the spec shows no maximum (the local platform has one of its own). */
  message: z.string().optional(),
  integration_attributes: attributesSchema.nullable().optional(),
  /** Per-message values readable by project functions during this turn. */
  metadata: attributesSchema.nullable().optional(),
  asr_lang_code: languageCode('asr_lang_code').optional(),
  tts_lang_code: languageCode('tts_lang_code').optional(),
  /** Rejected: the variant is fixed when the conversation is created (CHAT-2). */
  variant_id: z.undefined({ error: VARIANT_ONLY_ON_CREATE }).optional(),
});
export type ChatRespondRequest = z.infer<typeof chatRespondRequestSchema>;

/** Both fields are named by the spec, neither is said to be always there: a handoff without one is still a handoff. */
export const chatHandoffSchema = z.looseObject({
  destination: z.string().optional(),
  reason: z.string().optional(),
});
export type ChatHandoff = z.infer<typeof chatHandoffSchema>;

/** `handoff` is optional: absent, null or unreadable all read as "no handoff" (an unreadable one stays in the raw answer). */
export const chatRespondReplySchema = z.looseObject({
  conversation_id: z.string(),
  response: z.string(),
  end_conversation: z.boolean(),
  handoff: extra(chatHandoffSchema),
});
export type ChatRespondReply = z.infer<typeof chatRespondReplySchema>;

/** PUT .../chat/close. */
export const chatCloseRequestSchema = z.looseObject({
  conversation_id: z.string({ error: 'conversation_id is required' }).min(1, { error: 'conversation_id is required' }),
});
export type ChatCloseRequest = z.infer<typeof chatCloseRequestSchema>;

export const chatCloseReplySchema = z.looseObject({
  success: z.boolean(),
});
export type ChatCloseReply = z.infer<typeof chatCloseReplySchema>;

/**
 * Error body of the Chat API (not shown by the spec; ours): the runtime family's
 * `error_message`, plus `field` naming the offending request field when there is one.
 */
export const chatErrorBodySchema = z.looseObject({
  error_message: z.string(),
  field: z.string().optional(),
});
export type ChatErrorBody = z.infer<typeof chatErrorBodySchema>;
