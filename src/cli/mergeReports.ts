import { readFileSync } from 'node:fs';
import type { CaseResult } from '../agentTests/runner';
import { parseCommandLine, UsageError } from '../core/commandLine';
import { type CaseRecord, type ProblemRecord, resultOfRecord, type SummaryRecord } from './reporters/records';
import { parseReporters, type ReporterSpec, RunReport } from './reporters/runReport';
import type { Shard } from './shard';

const HELP = `Join the JSON reports of a sharded run (test --shard I/N --reporter json:FILE) into one report.

Usage: agent-workbench merge-reports FILE... [--reporter NAME[:FILE]]... [--junit FILE]

  FILE               the JSON report of each shard (one line per case, then the summary)
  --reporter R[:F]   line (the default), json, junit or markdown; to standard output, or to the file F. Repeatable:
                     --reporter junit:results.xml --reporter markdown:summary.md
  --junit FILE       also write JUnit XML (--reporter junit:FILE)

The cases come in the order of their files and names, whatever shard ran them. A shard missing from the files, a
shard given twice or a case reported by two shards is an error. With GITHUB_STEP_SUMMARY set, the Markdown summary
is appended to that file.
Exit codes: 0 every case passed or was skipped, 1 a case failed, a test file has a problem or the reports do not
join, 2 a wrong command line.
`;

/** What the shards' reports hold together. */
export interface MergedReports {
  readonly problems: readonly ProblemRecord[];
  readonly cases: readonly CaseRecord[];
  readonly shards: readonly Shard[];
  readonly durationMs: number;
}

/** Reads the lines of one JSON report; throws what is wrong with it. */
export function readReport(
  path: string,
  text: string,
): { records: (ProblemRecord | CaseRecord)[]; summary: SummaryRecord } {
  const records: (ProblemRecord | CaseRecord)[] = [];
  let summary: SummaryRecord | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${path}:${i + 1}: not a line of a JSON report (--reporter json)`);
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'summary') summary = value as SummaryRecord;
    else if (type === 'case' || type === 'problem') records.push(value as CaseRecord | ProblemRecord);
    else throw new Error(`${path}:${i + 1}: a line of type ${JSON.stringify(type)}, not case, problem or summary`);
  }
  if (!summary) throw new Error(`${path}: has no summary line: the run that wrote it did not finish`);
  return { records, summary };
}

/**
 * Joins the shards' reports: every shard of 1..N once, each case once (sorted by file, then its order in the file,
 * as one run lists them), and each problem of a test file once (every shard reports them).
 */
export function mergeReports(reports: readonly { path: string; text: string }[]): MergedReports {
  const read = reports.map((r) => ({ path: r.path, ...readReport(r.path, r.text) }));
  const shards = read.map((r) => r.summary.shard);
  const totals = new Set(shards.map((s) => s?.total));
  if (totals.size > 1 || totals.has(undefined))
    throw new Error(
      `The reports are not shards of one run: ${read.map((r) => `${r.path} is ${r.summary.shard ? `shard ${r.summary.shard.index}/${r.summary.shard.total}` : 'not a shard'}`).join(', ')}`,
    );
  const total = shards[0]?.total ?? 0;
  const seen = new Map<number, string>();
  for (const r of read) {
    const index = r.summary.shard?.index ?? 0;
    const before = seen.get(index);
    if (before) throw new Error(`Shard ${index}/${total} is given twice: ${before} and ${r.path}`);
    seen.set(index, r.path);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new Error(
      `Shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: no report given for it`,
    );

  const cases = new Map<string, { record: CaseRecord; path: string }>();
  const problems = new Map<string, ProblemRecord>();
  for (const r of read)
    for (const record of r.records) {
      if (record.type === 'problem') {
        problems.set(JSON.stringify(record), record);
        continue;
      }
      const before = cases.get(record.id);
      if (before)
        throw new Error(`The case ${record.file} › ${record.name} is in two shards: ${before.path} and ${r.path}`);
      cases.set(record.id, { record, path: r.path });
    }
  const ordered = [...cases.values()]
    .map((c) => c.record)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return {
    problems: [...problems.values()],
    cases: ordered,
    shards: [...seen.keys()].sort((a, b) => a - b).map((index) => ({ index, total })),
    durationMs: Math.max(0, ...read.map((r) => r.summary.durationMs)),
  };
}

/** `merge-reports`: resolves to the exit code. */
export async function mergeReportsCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let files: string[];
  let specs: ReporterSpec[];
  try {
    const { values, positionals } = parseCommandLine({
      args,
      allowPositionals: true,
      options: {
        reporter: { type: 'string', multiple: true, default: [] },
        junit: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('Give the JSON reports of the shards to merge.');
    files = positionals;
    specs = parseReporters(values.reporter, values.junit);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`);
    return 2;
  }
  let merged: MergedReports;
  try {
    merged = mergeReports(files.map((path) => ({ path, text: readFileSync(path, 'utf8') })));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const report = new RunReport(specs, { env, stdout: process.stdout, stderr: process.stderr, shards: merged.shards });
  for (const p of merged.problems) report.problem(p);
  const results: CaseResult[] = merged.cases.map(resultOfRecord);
  for (const r of results) report.caseFinished(r);
  return report.finish(results, merged.durationMs).ok ? 0 : 1;
}
