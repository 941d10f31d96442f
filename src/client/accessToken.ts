const MASK = '‹redacted›';

/**
 * A messaging access token. The value is a secret: it is kept out of `JSON.stringify`,
 * `console.log` and string conversion, and read only through `reveal()` where it is sent.
 */
export class AccessToken {
  readonly #value: string;
  /** When it stops being accepted, by this machine's clock (ms since the epoch). */
  readonly expiresAt: number;

  constructor(
    value: string,
    readonly expiresInSeconds: number,
    receivedAt: number = Date.now(),
  ) {
    this.#value = value;
    this.expiresAt = receivedAt + expiresInSeconds * 1000;
  }

  reveal(): string {
    return this.#value;
  }

  /** True when it expires within `marginMs` from now. */
  expiresWithin(marginMs: number, now: number = Date.now()): boolean {
    return this.expiresAt - now <= marginMs;
  }

  toJSON(): { accessToken: string; expiresAt: string } {
    return { accessToken: MASK, expiresAt: new Date(this.expiresAt).toISOString() };
  }

  toString(): string {
    return `AccessToken(${MASK})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
