import type { Base } from './family';
import { HttpError } from './http';
import { SPEC_ANSWERS } from './minimal';

/**
 * The spec-only mode of the local platform (`--responses spec-only`): it stands in for a platform that has
 * only what the specification shows. Besides the minimal mode's shaping (answers with only the shown fields,
 * the Chat headers matched with their case), every endpoint the spec does not show answers 404, or 405 where
 * the spec shows another method on the same path; and the WebSocket neither echoes a user's message nor uses
 * our names for the events the spec does not name (see specOnlyEvents.ts). A product that works against this
 * mode does not lean on any of our assumptions.
 */

/** One endpoint of the spec's "Endpoints" part: its method and path, as the spec writes them. */
export interface SpecEndpoint {
  readonly base: Base;
  readonly method: string;
  readonly name: string;
  readonly path: RegExp;
}

const SEGMENT = '[^/]+';
const endpoint = (base: Base, method: string, name: string): SpecEndpoint => ({
  base,
  method,
  name,
  path: new RegExp(`^${name.replace(/\{[^}]+\}/g, SEGMENT).replace(/\//g, '\\/')}$`),
});

/**
 * Every endpoint the spec shows: those whose answer it shows (minimal.ts), the current alerts (whose answer's
 * shape it does not show) and the messaging WebSocket.
 */
export const SPEC_ENDPOINTS: readonly SpecEndpoint[] = [
  ...SPEC_ANSWERS.map((a) => endpoint(a.base, a.method, a.name)),
  endpoint('build', 'GET', '/v1/alerts'),
  endpoint('messaging', 'GET', '/ws'),
];

export const NOT_FOUND_BODY = { message: 'Not Found' } as const;
export const METHOD_NOT_ALLOWED_BODY = { message: 'Method Not Allowed' } as const;

/**
 * In the spec-only mode, the refusal of a request the spec does not show: 404 `{"message":"Not Found"}` when
 * no spec endpoint has its path, 405 `{"message":"Method Not Allowed"}` when one has it under another method;
 * undefined for a spec endpoint. The bodies are a generic gateway's, the same for every family.
 */
export function refuseUnshown(base: Base, method: string, path: string): HttpError | undefined {
  const onPath = SPEC_ENDPOINTS.filter((e) => e.base === base && e.path.test(path));
  if (onPath.some((e) => e.method === method)) return undefined;
  if (onPath.length > 0)
    return new HttpError(405, METHOD_NOT_ALLOWED_BODY, { allow: [...new Set(onPath.map((e) => e.method))].join(', ') });
  return new HttpError(404, NOT_FOUND_BODY);
}
