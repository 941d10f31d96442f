/** What the integration entry (test/integration/index.ts) writes for the host runners (test/host/*.mjs) to read. */
export interface TestFailure {
  title: string;
  message: string;
  stack: string;
}

/** A test that failed once and was run again (its own `this.retries(1)`), with the first attempt's error. */
export interface TestRetry {
  title: string;
  /** The first line of the first attempt's error. */
  firstError: string;
}

export interface TestResults {
  passed: number;
  failed: number;
  pending: number;
  failures: TestFailure[];
  /** Each second attempt of the run, whatever it ended in: a run with two of them fails (docs/testing.md). */
  retried: TestRetry[];
  /** `vscode.version` of the host the suites ran in. */
  vscodeVersion: string;
  durationMs: number;
  /** Figures recorded by bench suites (name → value). */
  metrics: Record<string, number>;
}
