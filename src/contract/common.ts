import { z } from 'zod';

/** Shared bits of the contract used by several API families. */

/** The three environments of the platform. */
export const ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const;
export const environmentSchema = z.enum(ENVIRONMENTS);
export type Environment = z.infer<typeof environmentSchema>;

/** Error body of the runtime APIs (External Events, Concurrent Calls, ...). */
export const runtimeErrorBodySchema = z.looseObject({ error_message: z.string() });
export type RuntimeErrorBody = z.infer<typeof runtimeErrorBodySchema>;

/** Error body of the build APIs (Agents, Alerts): `message` plus `errors[{field, message}]`. */
export const buildErrorBodySchema = z.looseObject({
  message: z.string(),
  errors: z.array(z.looseObject({ field: z.string(), message: z.string() })).default([]),
});
export type BuildErrorBody = z.infer<typeof buildErrorBodySchema>;
