/**
 * Asks a local platform that runs outside the editor whether it still answers, every few seconds, for as long as
 * the editor uses it: a process stopped in its terminal or killed sends the editor nothing, so only asking tells.
 * Two failed answers in a row count as gone (one may be a busy machine); once gone, it keeps asking, more slowly,
 * so the editor takes the platform up again when it is started again at the same address.
 */
export class AnswerWatch<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private gone = false;
  private stopped = false;
  private checking = false;

  constructor(
    private readonly ask: () => Promise<T>,
    private readonly on: { lost(): void; back(answer: T): void },
    private readonly everyMs = 5_000,
    private readonly goneEveryMs = 10_000,
  ) {
    this.next();
  }

  private next(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check(), this.gone ? this.goneEveryMs : this.everyMs);
  }

  /**
   * A request to the platform found nothing answering: asks at once rather than at the next turn, so the person
   * hears of it now. That failed request counts as the first of the two failures.
   */
  askNow(): void {
    if (this.stopped || this.gone || this.checking) return;
    clearTimeout(this.timer);
    this.failures = Math.max(this.failures, 1);
    void this.check();
  }

  private async check(): Promise<void> {
    this.checking = true;
    try {
      await this.checkOnce();
    } finally {
      this.checking = false;
    }
  }

  private async checkOnce(): Promise<void> {
    let answer: T;
    try {
      answer = await this.ask();
    } catch {
      if (this.stopped) return;
      this.failures++;
      if (!this.gone && this.failures >= 2) {
        this.gone = true;
        this.on.lost();
      }
      this.next();
      return;
    }
    if (this.stopped) return;
    this.failures = 0;
    if (this.gone) {
      this.gone = false;
      this.on.back(answer);
    }
    this.next();
  }

  dispose(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
