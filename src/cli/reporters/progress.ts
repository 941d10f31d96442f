import type { CaseResult } from '../../agentTests/runner';

/** How often a run that is not on a terminal says how far it is (AGENT_WORKBENCH_PROGRESS_MS changes it). */
const EVERY_MS = 15_000;

/**
 * Progress of a long run on standard error, never on standard output (which carries the report): on a terminal one
 * line redrawn in place, elsewhere (a CI log) a line every 15 seconds once the run has taken that long.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private drawn = false;
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly total: number,
    private readonly stderr: NodeJS.WriteStream,
    env: NodeJS.ProcessEnv,
    /** What is counted (cases of a run, conversations of a replay), and whether the line says how many are left. */
    private readonly items = 'cases',
    private readonly sayLeft = false,
  ) {
    if (total === 0) return;
    const every = Number(env.AGENT_WORKBENCH_PROGRESS_MS) || EVERY_MS;
    if (!stderr.isTTY) {
      this.timer = setInterval(() => this.stderr.write(`${this.text()}\n`), every);
      this.timer.unref();
    }
  }

  caseFinished(r: CaseResult): void {
    this.finished(r.outcome === 'failed');
  }

  /** One more done, failed or not. */
  finished(failed: boolean): void {
    this.done++;
    if (failed) this.failed++;
    if (this.stderr.isTTY) {
      this.stderr.write(`\r\x1b[K${this.text()}`);
      this.drawn = true;
    }
  }

  /** Takes the terminal's progress line away, before a report line is written or when the run ends. */
  clear(): void {
    if (this.drawn) this.stderr.write('\r\x1b[K');
    this.drawn = false;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }

  private text(): string {
    const seconds = Math.round((performance.now() - this.started) / 1000);
    const left = this.sayLeft ? `, ${this.total - this.done} left` : '';
    return `${this.done}/${this.total} ${this.items} done${left}, ${this.failed} failed (${seconds} s)`;
  }
}
