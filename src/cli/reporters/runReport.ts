import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { junitXml } from '../../agentTests/junit';
import type { ModelSpend } from '../../agentTests/model/types';
import { type CaseResult, totalSpend } from '../../agentTests/runner';
import { closestWord } from '../../core/closest';
import { UsageError } from '../../core/commandLine';
import type { Shard } from '../shard';
import { colourFor, paint } from './colour';
import { caseLines, problemLine, summaryLines } from './line';
import { markdownReport } from './markdown';
import { Progress } from './progress';
import { caseRecord, countsOf, failing, type ProblemRecord, REPORT_VERSION, type SummaryRecord } from './records';

export const REPORTER_NAMES = ['line', 'json', 'junit', 'markdown'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** A reporter and where it writes: a file, or standard output when none is given. */
export interface ReporterSpec {
  readonly name: ReporterName;
  readonly file?: string;
}

/**
 * Reads `--reporter NAME[:FILE]` (repeatable; `line` on standard output when none is given) and the older
 * `--junit FILE`. At most one reporter writes to standard output.
 */
export function parseReporters(values: readonly string[], junit?: string): ReporterSpec[] {
  const specs: ReporterSpec[] = values.map((value) => {
    const at = value.search(/[:=]/);
    const name = at < 0 ? value : value.slice(0, at);
    const file = at < 0 ? undefined : value.slice(at + 1);
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      const near = closestWord(name, REPORTER_NAMES);
      throw new UsageError(
        `--reporter must be one of ${REPORTER_NAMES.join(', ')}, got "${name}".${near ? ` Did you mean ${near}?` : ''}`,
      );
    }
    if (file === '') throw new UsageError(`--reporter ${name}: names no file after "${value.slice(at, at + 1)}"`);
    return { name: name as ReporterName, ...(file !== undefined ? { file } : {}) };
  });
  if (junit !== undefined) specs.push({ name: 'junit', file: junit });
  const onStdout = specs.filter((s) => s.file === undefined);
  if (onStdout.length > 1)
    throw new UsageError(
      `Only one reporter can write to standard output, got ${onStdout.map((s) => s.name).join(' and ')}: give the others a file (--reporter junit:results.xml)`,
    );
  if (onStdout.length === 0) specs.unshift({ name: 'line' });
  return specs;
}

export interface RunReportOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  /** The shard this run is, or the shards a merged report joins. */
  readonly shard?: Shard;
  readonly shards?: readonly Shard[];
}

/**
 * A run's reports: the reporter on standard output writes as the run goes (a problem, a case as it finishes), the
 * others are written to their files at the end, and with GITHUB_STEP_SUMMARY set the Markdown summary is appended
 * to the job's page. Used alike by `test` and by `merge-reports`.
 */
export class RunReport {
  private readonly problems: ProblemRecord[] = [];
  private readonly live: ReporterName;
  private readonly colours;
  private progress: Progress | undefined;

  constructor(
    private readonly specs: readonly ReporterSpec[],
    private readonly options: RunReportOptions,
  ) {
    this.live = specs.find((s) => s.file === undefined)?.name ?? 'line';
    this.colours = paint(colourFor(options.stdout, options.env));
  }

  /** A problem of a test file; errors count against the run. */
  problem(p: ProblemRecord): void {
    this.problems.push(p);
    if (this.live === 'line') this.options.stdout.write(problemLine(p));
    else if (this.live === 'json') this.options.stdout.write(`${JSON.stringify(p)}\n`);
    else this.options.stderr.write(problemLine(p));
  }

  /** Progress on standard error from here on, for a run of this many cases. */
  started(total: number): void {
    this.progress = new Progress(total, this.options.stderr, this.options.env);
  }

  caseFinished(r: CaseResult): void {
    this.progress?.clear();
    if (this.live === 'line') this.options.stdout.write(caseLines(r, this.colours));
    else if (this.live === 'json') this.options.stdout.write(`${JSON.stringify(caseRecord(r))}\n`);
    this.progress?.caseFinished(r);
  }

  /** Writes the summary, the files and the step summary; resolves to the summary (its `ok` is the exit code). */
  finish(results: readonly CaseResult[], durationMs: number, spend: ModelSpend = totalSpend(results)): SummaryRecord {
    this.progress?.stop();
    const counts = countsOf(results, this.problems.filter((p) => p.severity === 'error').length);
    const summary: SummaryRecord = {
      type: 'summary',
      version: REPORT_VERSION,
      ...counts,
      ...(this.options.shard ? { shard: this.options.shard } : {}),
      ...(this.options.shards ? { shards: this.options.shards } : {}),
      durationMs: Math.round(durationMs),
      ok: !failing(counts),
    };
    const text = (name: ReporterName, live: boolean): string => {
      switch (name) {
        case 'line':
          return live
            ? summaryLines(results, summary, this.colours, spend)
            : [
                ...this.problems.map(problemLine),
                ...results.map((r) => caseLines(r, paint(false))),
                summaryLines(results, summary, paint(false), spend),
              ].join('');
        case 'json':
          return live
            ? `${JSON.stringify(summary)}\n`
            : [...this.problems, ...results.map(caseRecord), summary].map((r) => `${JSON.stringify(r)}\n`).join('');
        case 'junit':
          return junitXml(results, undefined, spend);
        case 'markdown':
          return markdownReport(results, summary, this.problems);
      }
    };
    writeReports(this.specs, text, this.options.stdout);
    const stepSummary = this.options.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) appendFileSync(stepSummary, markdownReport(results, summary, this.problems));
    return summary;
  }
}

/** Each reporter's text: the live one to standard output, the others to their files (folders made as needed). */
export function writeReports(
  specs: readonly ReporterSpec[],
  text: (name: ReporterName, live: boolean) => string,
  stdout: NodeJS.WritableStream,
): void {
  for (const spec of specs) {
    if (spec.file === undefined) stdout.write(text(spec.name, true));
    else {
      mkdirSync(dirname(spec.file), { recursive: true });
      writeFileSync(spec.file, text(spec.name, false));
    }
  }
}
