/** What the integration entry writes for the host runners (test/host/*.mjs) to read. */
export interface TestFailure {
  title: string;
  message: string;
  stack: string;
}

export interface TestResults {
  passed: number;
  failed: number;
  pending: number;
  failures: TestFailure[];
  /** `vscode.version` of the host the suites ran in. */
  vscodeVersion: string;
  durationMs: number;
  /** Figures recorded by bench suites (name → value). */
  metrics: Record<string, number>;
}
