import type { z } from 'zod';
import { type ApiFamily, PlatformError } from './errors';

/**
 * Checks a request against the contract before anything is sent. A problem becomes an
 * `invalidInput` error that names each field and says what to fix.
 */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, family: ApiFamily, operation: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new PlatformError({
    family,
    kind: 'invalidInput',
    operation,
    fieldErrors: result.error.issues.map((i) => ({ field: i.path.length ? i.path.map(String).join('.') : '(request)', message: i.message })),
  });
}
