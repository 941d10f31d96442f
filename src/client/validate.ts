import type { z } from 'zod';
import { type ApiFamily, PlatformError } from './errors';

/**
 * Checks a request against the contract before anything is sent. A problem becomes an
 * `invalidInput` error that names each field and says what to fix.
 */
export function validateInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  family: ApiFamily,
  operation: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new PlatformError({
    family,
    kind: 'invalidInput',
    operation,
    fieldErrors: result.error.issues.map((i) => ({
      field: i.path.length ? i.path.map(String).join('.') : '(request)',
      message: i.message,
    })),
  });
}

/**
 * Checks ids that go into a path. Only emptiness is checked: an empty id would address the
 * collection instead (DELETE /v1/alert-rules/), while id formats are the platform's to judge.
 */
export function requireIds(ids: Readonly<Record<string, string>>, family: ApiFamily, operation: string): void {
  const fieldErrors = Object.entries(ids)
    .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
    .map(([field]) => ({ field, message: 'is required' }));
  if (fieldErrors.length > 0) throw new PlatformError({ family, kind: 'invalidInput', operation, fieldErrors });
}
