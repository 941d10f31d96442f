import type { z } from 'zod';
import { buildError, type HttpError, type RequestContext } from '../http';
import { requireJsonContentType } from '../jsonBody';

export interface FieldError {
  field: string;
  message: string;
}

/** The build error body's `errors` for a failed parse: one entry per field, in order. */
export function fieldErrors(
  issues: readonly z.core.$ZodIssue[],
  readOnly: readonly string[],
  what: string,
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string) => {
    if (seen.has(field)) return;
    seen.add(field);
    out.push({ field, message });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, readOnly.includes(key) ? 'is read-only' : `is not a field of ${what}`);
      continue;
    }
    add(fieldName(issue.path), issue.message);
  }
  return out;
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** 400 whose message names every bad field. */
export function validationError(what: string, errors: readonly FieldError[]): HttpError {
  return buildError(400, `Invalid ${what}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, [...errors]);
}

/** The JSON body as an object, or 400 naming `body`. */
export function objectBody(ctx: RequestContext): Record<string, unknown> {
  requireJsonContentType(ctx.raw, (message) =>
    buildError(415, message, [{ field: 'Content-Type', message: 'must be application/json' }]),
  );
  const body = ctx.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw buildError(400, 'The request body must be a JSON object', [
      { field: 'body', message: 'must be a JSON object' },
    ]);
  }
  return body as Record<string, unknown>;
}

/** 422 for a path id that does not match its pattern. */
export function requireIdFormat(id: string, pattern: RegExp, field: string, what: string): void {
  if (!pattern.test(id)) {
    throw buildError(422, `Malformed ${what} id "${id}": it must match ${pattern.source}`, [
      { field, message: `must match ${pattern.source}` },
    ]);
  }
}

/** A boolean query filter: `true` or `false`, 400 otherwise. */
export function booleanFilter(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw buildError(400, `Invalid filter ${name}: must be true or false`, [
    { field: name, message: 'must be true or false' },
  ]);
}
