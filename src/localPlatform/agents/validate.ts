import type { FieldProblem } from '../ownLimits';
import type { z } from 'zod';
import { buildError, type RequestContext } from '../http';
import { requireJsonContentType } from '../jsonBody';

/** `phoneNumbers[0]`, `resolutions[1].strategy`; the whole body is `body`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || 'body';
}

/** Issues of a failed parse as build-API `errors[{field, message}]`. */
export function fieldErrors(error: z.ZodError, prefix = ''): Array<{ field: string; message: string }> {
  return error.issues.map((issue) => ({ field: fieldPath(issue.path, prefix), message: issue.message }));
}

/** The JSON body checked by a schema: 400 naming each bad field. An empty body counts as `{}`. */
/** A 400 in the build shape for values over the local platform's own limits (ownLimits.ts); nothing when none. */
export function requireOwnLimits(problems: readonly FieldProblem[]): void {
  if (problems.length > 0) throw buildError(400, 'The request is over a limit of the local platform', [...problems]);
}

export function parseBody<S extends z.ZodType>(ctx: RequestContext, schema: S): z.output<S> {
  requireJsonContentType(ctx.raw, (message) =>
    buildError(415, message, [{ field: 'Content-Type', message: 'must be application/json' }]),
  );
  const raw = ctx.json() ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw buildError(400, 'The request body must be a JSON object', [
      { field: 'body', message: 'must be a JSON object' },
    ]);
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw buildError(400, 'The request is not valid', fieldErrors(result.error));
  return result.data;
}

const PAGING_PARAMS = ['limit', 'offset'] as const;

/** Query parameters checked by a schema: 400 naming each bad parameter. */
export function parseQuery<S extends z.ZodType>(ctx: RequestContext, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [k, v] of ctx.query) raw[k] = v;
  // Paging values are decimal integers only: `0x10`, `1e1` or `5.0` are refused rather than converted.
  const loose = PAGING_PARAMS.filter((name) => raw[name] !== undefined && !/^-?\d+$/.test(raw[name]));
  if (loose.length > 0)
    throw buildError(
      400,
      'The query is not valid',
      loose.map((field) => ({ field, message: 'must be a decimal integer' })),
    );
  const result = schema.safeParse(raw);
  if (!result.success) throw buildError(400, 'The query is not valid', fieldErrors(result.error));
  return result.data;
}

/** A path identifier: 422 when it does not match its pattern (malformed id). */
export function requireId(value: string | undefined, pattern: RegExp, field: string): string {
  if (value === undefined || !pattern.test(value)) {
    throw buildError(422, `Malformed ${field}: ${value ?? ''}`, [{ field, message: `must match ${pattern.source}` }]);
  }
  return value;
}
