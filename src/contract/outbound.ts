import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { extra, runtimeErrorBodySchema } from './common';

/** Outbound Calling API ({base_url}): place a call to a phone number with per-call metadata. */

export const OUTBOUND_CALL_PATH = '/v1/outbound-calling';
/** The credential header: the auth token of a connector configured for outbound calling. */
export const OUTBOUND_AUTH_HEADER = 'X-Service-Auth-Token';

export const OUTBOUND_ENCRYPTIONS = ['TLS/SRTP', 'TLS/RTP', 'UDP/SRTP', 'UDP/RTP'] as const;
export const outboundEncryptionSchema = z.enum(OUTBOUND_ENCRYPTIONS);
export type OutboundEncryption = z.infer<typeof outboundEncryptionSchema>;
export const DEFAULT_OUTBOUND_ENCRYPTION: OutboundEncryption = 'TLS/SRTP';

/**
 * "base64 form must be under 26 KB": the base64 text of the compact JSON of `metadata`
 * (UTF-8) must be shorter than this many bytes. See {@link metadataBase64Bytes}.
 */
export const OUTBOUND_METADATA_MAX_BASE64_BYTES = 26 * 1024;

export const CALL_SID_PREFIX = 'OUT-';

/** How long a call's status stays readable after the call ends (spec: about 2 hours). */
export const CALL_STATUS_RETENTION_MS = 2 * 60 * 60 * 1000;

/** Call status values we know of (the spec does not list them; see docs/api-assumptions.md). */
export const OUTBOUND_CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'failed'] as const;
export type OutboundCallStatusValue = (typeof OUTBOUND_CALL_STATUSES)[number];

/** The size the platform checks: length of base64(JSON.stringify(metadata)) in bytes. */
export function metadataBase64Bytes(metadata: Readonly<Record<string, string>>): number {
  const utf8 = new TextEncoder().encode(JSON.stringify(metadata)).length;
  return 4 * Math.ceil(utf8 / 3);
}

export type PhoneNumberResult =
  | {
      ok: true;
      e164: string;
      /** Whether libphonenumber-js knows the number as valid; the spec refuses only an unparseable one. */
      valid: boolean;
    }
  | { ok: false; field: 'to_number' | 'country_code'; message: string };

/**
 * Normalizes `to_number` to E.164. A number starting with `+` is read as E.164 and any
 * `country_code` is ignored; a national-format number needs `country_code`.
 */
export function normalizeToNumber(toNumber: string, countryCode?: string): PhoneNumberResult {
  const region = countryCode?.toUpperCase();
  if (region !== undefined && !isSupportedCountry(region)) {
    return {
      ok: false,
      field: 'country_code',
      message: `"${countryCode}" is not an ISO 3166-1 alpha-2 country code with a numbering plan`,
    };
  }
  const text = toNumber.trim();
  const international = text.startsWith('+');
  if (!international && region === undefined) {
    return {
      ok: false,
      field: 'to_number',
      message: 'is not in E.164 format (such as +14155550123); send country_code with a national-format number',
    };
  }
  const parsed = international
    ? parsePhoneNumberFromString(text)
    : parsePhoneNumberFromString(text, region as CountryCode);
  if (!parsed) {
    const where = international ? '' : ` for country ${region}`;
    return { ok: false, field: 'to_number', message: `could not be parsed as a phone number${where}` };
  }
  return { ok: true, e164: parsed.number, valid: parsed.isValid() };
}

/** The request body of `POST /v1/outbound-calling` (OUT-2..OUT-5). */
export const outboundCallRequestSchema = z
  .object({
    to_number: z.string({ error: 'is required and must be a string' }).trim().min(1, 'is required'),
    country_code: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US or GB')
      .optional(),
    metadata: z
      .record(z.string(), z.string({ error: (iss) => `must be a string, not ${describe(iss.input)}` }), {
        error: 'must be an object of string values',
      })
      .optional(),
    encryption: z.enum(OUTBOUND_ENCRYPTIONS, { error: `must be one of ${OUTBOUND_ENCRYPTIONS.join(', ')}` }).optional(),
  })
  .superRefine((body, ctx) => {
    const phone = normalizeToNumber(body.to_number, body.country_code);
    if (!phone.ok) ctx.addIssue({ code: 'custom', path: [phone.field], message: phone.message });
    if (body.metadata) {
      const size = metadataBase64Bytes(body.metadata);
      if (size >= OUTBOUND_METADATA_MAX_BASE64_BYTES) {
        ctx.addIssue({
          code: 'custom',
          path: ['metadata'],
          message: `is ${size} bytes in base64; it must be under ${OUTBOUND_METADATA_MAX_BASE64_BYTES} bytes (26 KB)`,
        });
      }
    }
  });
export type OutboundCallRequest = z.input<typeof outboundCallRequestSchema>;

/** Reply of `POST /v1/outbound-calling` (OUT-6). */
/** "always begins with OUT-": a call_sid that does not is kept as given (the call was placed). */
export const outboundCallReplySchema = z.looseObject({
  call_sid: z.string(),
});
export type OutboundCallReply = z.infer<typeof outboundCallReplySchema>;

/**
 * Reply of `GET /v1/outbound-calling/{call_sid}`. ASSUMED: "Get call status endpoint: path, parameters and
 * response not shown" (docs/api-assumptions.md, Outbound); only `status` is needed to show something.
 */
export const outboundCallStatusSchema = z.looseObject({
  call_sid: extra(z.string()),
  /** One of {@link OUTBOUND_CALL_STATUSES}; kept open so an unknown value from the platform still parses. */
  status: z.string(),
  to_number: extra(z.string()),
  from_number: extra(z.string().nullable()),
  encryption: extra(z.string()),
  conversation_id: extra(z.string().nullable()),
  created_at: extra(z.string()),
  ended_at: extra(z.string().nullable()),
  failure_reason: extra(z.string().nullable()),
});
export type OutboundCallStatus = z.infer<typeof outboundCallStatusSchema>;

/** Error body: `error_message` names the field; `field` is ours, for forms that highlight it. */
export const outboundErrorBodySchema = runtimeErrorBodySchema.extend({ field: z.string().optional() });
export type OutboundErrorBody = z.infer<typeof outboundErrorBodySchema>;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a nested object';
  return `a ${typeof v}`;
}
