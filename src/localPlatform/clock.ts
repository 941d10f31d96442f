/** The platform's clock. Tests and demos move it forward through the admin API. */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Sets the clock so that now() is `epochMs`. */
  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }

  get offset(): number {
    return this.offsetMs;
  }
}
