import { z } from 'zod';

/** Shared bits of the contract used by several API families. */

import { ENVIRONMENTS } from './environments';

export { ENVIRONMENTS, type Environment, isEnvironment } from './environments';
export const environmentSchema = z.enum(ENVIRONMENTS);

/** Error body of the runtime APIs (External Events, Concurrent Calls, ...). */
export const runtimeErrorBodySchema = z.looseObject({ error_message: z.string() });
export type RuntimeErrorBody = z.infer<typeof runtimeErrorBodySchema>;

/** Error body of the build APIs (Agents, Alerts): `message` plus `errors[{field, message}]`. */
export const buildErrorBodySchema = z.looseObject({
  message: z.string(),
  errors: z.array(z.looseObject({ field: z.string(), message: z.string() })).default([]),
});
export type BuildErrorBody = z.infer<typeof buildErrorBodySchema>;

// ---- tolerant reading of answers ----
// A response schema requires only what the spec shows. Everything else is read with these helpers, so that a
// platform answering less (or null, or a value of another kind) still parses, and unknown fields are kept.

/** A field the spec does not show (or shows as optional): absent, null or of another kind reads as undefined. */
export function extra<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** A field the spec does not show, with the value to use when the answer does not carry a readable one. */
/**
 * An object of any keys and values, kept as it came. A record schema builds a new object key by key, and a key named
 * `__proto__` (a conversation variable, an attribute or a metadata key is anyone's name) sets its prototype
 * instead: the key is gone. Here nothing is dropped.
 */
export const anyObjectSchema = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { error: 'must be an object' },
);

export function extraOr<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return schema
    .optional()
    .catch(undefined)
    .transform((v): z.output<T> => v ?? fallback);
}

/** An enum read from an answer: the known values are typed, an unknown value is kept as text, never rejected. */
export function openEnum<const V extends readonly [string, ...string[]]>(_values: V) {
  return z.string() as unknown as z.ZodType<V[number] | (string & {}), string>;
}

/** A value an answer may leave out or set to null (null is kept: "not known yet", as in-progress durations). */
export function nullish<T extends z.ZodType>(schema: T) {
  return schema.nullable().optional().catch(null);
}
