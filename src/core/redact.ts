const MASK = '‹redacted›';

/** Headers whose values are secrets wherever they appear. */
export const SECRET_HEADERS = ['x-api-key', 'x-token', 'x-service-auth-token', 'authorization', 'x-host-token'];

const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\b/g;
const QUERY_SECRET = /([?&](?:access_token|token|api_key|key)=)[^&\s#"']+/gi;
const HEADER_LINE = new RegExp(`((?:${SECRET_HEADERS.join('|')})"?\\s*[:=]\\s*"?)(?:Bearer\\s+)?[^\\s",}]+`, 'gi');

/**
 * Removes secrets from text before it is logged or shown: every registered secret value,
 * JWTs, secret query parameters and secret header values.
 */
export class Redactor {
  private secrets: string[] = [];

  /** Registers secret values (short ones are ignored: they would mask ordinary words). */
  add(...values: Array<string | undefined>): void {
    for (const v of values) {
      if (v && v.length >= 6 && !this.secrets.includes(v)) this.secrets.push(v);
    }
    // Longest first, so a secret containing another is masked whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  remove(value: string): void {
    this.secrets = this.secrets.filter((s) => s !== value);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join(MASK);
    return out.replace(JWT, MASK).replace(QUERY_SECRET, `$1${MASK}`).replace(HEADER_LINE, `$1${MASK}`);
  }
}
