import type { HttpError, RawBody } from './http';

export const JSON_CONTENT_TYPE_REQUIRED = 'Content-Type must be application/json';

/**
 * The one content-type rule of every JSON family: a body that is not empty says it is JSON
 * (`application/json`, or a `+json` type); an empty body may say anything. A body of another
 * media type is refused rather than guessed at.
 */
export function isJsonBody(raw: RawBody): boolean {
  return (
    raw.text.trim() === '' ||
    raw.contentType === 'application/json' ||
    /^application\/[\w.-]+\+json$/.test(raw.contentType)
  );
}

/** Throws the family's 415 when the body breaks the rule above. */
export function requireJsonContentType(raw: RawBody, unsupported: (message: string) => HttpError): void {
  if (!isJsonBody(raw)) throw unsupported(JSON_CONTENT_TYPE_REQUIRED);
}
