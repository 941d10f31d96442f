// Entry of the integration suites, loaded by VS Code as `extensionTestsPath`. The same contract as
// @vscode/test-electron: VS Code calls run() inside the extension host and treats a rejection as failure.
// Besides rejecting, run() writes its results to the JSON file named by AGENT_WORKBENCH_TEST_RESULTS,
// because the web workbench reports a failed run only after a long delay.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import type { TestFailure, TestResults, TestRetry } from '../support/editor/results';

// Every test/integration/*.test.ts and *.bench.ts, found by the bundler (esbuild.mjs), the secret scan last.
// Suites are imported after mocha has set up its globals (`suite`, `test`), so their bodies register.
import { benchSuites as BENCH_SUITES, suites as SUITES } from 'integration-suites';

export async function run(): Promise<void> {
  const started = Date.now();
  // No test is run a second time unless it says so itself (`this.retries(1)` with its reason beside it); each second
  // attempt is counted and named in the results, and the host runner fails a run with two (docs/testing.md).
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec' });
  const grep = process.env.AGENT_WORKBENCH_TEST_GREP;
  if (grep) mocha.grep(grep);
  const bench = process.env.AGENT_WORKBENCH_TEST_MODE === 'bench';
  const metrics: Record<string, number> = {};
  (globalThis as { agentWorkbenchMetrics?: Record<string, number> }).agentWorkbenchMetrics = metrics;

  mocha.suite.emit('pre-require', globalThis, 'integration', mocha);
  for (const load of Object.values(bench ? BENCH_SUITES : SUITES)) await load();

  const failures: TestFailure[] = [];
  const retried: TestRetry[] = [];
  let passed = 0;
  let pending = 0;
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', () => passed++);
    runner.on('pending', () => pending++);
    runner.on('retry', (test, err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      retried.push({ title: test.fullTitle(), firstError: e.message.split('\n')[0] ?? '' });
    });
    runner.on('fail', (test, err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      failures.push({ title: test.fullTitle(), message: e.message, stack: e.stack ?? '' });
    });
  });

  const results: TestResults = {
    passed,
    failed: failures.length,
    pending,
    failures,
    retried,
    vscodeVersion: vscode.version,
    durationMs: Date.now() - started,
    metrics,
  };
  for (const r of retried) console.log(`Run a second time after a first failure: ${r.title}: ${r.firstError}`);
  console.log(
    `Integration suites ran in VS Code ${vscode.version}: ${passed} passed, ${failures.length} failed, ${retried.length} retried`,
  );
  const out = process.env.AGENT_WORKBENCH_TEST_RESULTS;
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(results, null, 2));
  }
  if (failures.length > 0) throw new Error(`${failures.length} integration test(s) failed`);
}
