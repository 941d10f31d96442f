import { setMaxListeners } from 'node:events';
import type { TestCase } from '../agentTests/format';
import { type Side, type SideTarget, runComparison } from '../agentTests/compare/runComparison';
import { parseCommandLine, UsageError, wholeFlag } from '../core/commandLine';
import { environmentFlag } from './flags';
import { Transport } from '../client/transport';
import type { Environment } from '../contract/common';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { variabilityFlag } from '../localPlatform/engine/variability';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import { localSide, missingSideKeys, profileSide, sideVariables } from './compareTargets';
import { ComparisonReport } from './reporters/compareReport';
import { problemRecord } from './reporters/records';
import { parseReporters } from './reporters/runReport';
import { REPLAY_HELP, REPLAY_USAGE, replayTrafficCommand } from './replayTrafficCommand';
import { findTestFiles, noTestFiles, readTestFile } from './testFiles';
import { MODEL_HELP, MODEL_OPTIONS, type ModelFlags, modelFlagsOf, modelOfRun, usageExitCode } from './testModel';
import { CHAT_KEY_VARIABLE, CHAT_TOKEN_VARIABLE, readProfileFile } from './testTargets';

const HELP = `Compare two targets: run the same conversation tests against both, paired repeat by repeat, and say
what changed for callers and whether it is more than chance.

Usage: agent-workbench compare [paths...] --local [--base ENV] [--candidate ENV] [--responses full|minimal|spec-only]
                                [--variability RATE[:SEED]]
       agent-workbench compare [paths...] --profile-file F [--base ENV] [--candidate ENV]
       agent-workbench compare [paths...] --base-profile F --candidate-profile F [--base ENV] [--candidate ENV]
       [--tag T]... [--repeat N] [--concurrency N] [--alpha X] [--fail-on-flip]
       [--reporter NAME[:FILE]]... [--pass-with-no-tests]
       [--model-base-url URL --model NAME] [--cassette replay|record|live] [--max-model-calls N] ...
${REPLAY_USAGE}

  paths              test files, or folders searched for tests/*.yaml (default: the current folder)
  --base ENV         what a promotion would replace (default pre-release)
  --candidate ENV    what is being tried (default sandbox)
  --local            start the bundled local platform for this run and compare two of its environments
  --variability RATE[:SEED]
                     with --local: its agent answers as a language model agent does (see serve --help), to
                     see what noise alone reads as
  --profile-file F   a connection profile as JSON (as \`test\` reads it) for both sides
  --base-profile F, --candidate-profile F
                     a profile for each side (two projects, or two regions)
  Each side's Chat key and connector token are read from ${CHAT_KEY_VARIABLE}_<ENV> and
  ${CHAT_TOKEN_VARIABLE}_<ENV> (ENV upper-cased, - as _: ${sideVariables('pre-release').token}),
  else from ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE}. A connector token belongs to one environment.
  --tag T            only the cases with this tag (repeatable: any of them)
  --repeat N         run every case N times on each side instead of its own repeat (6 or more can be significant)
  --concurrency N    conversations open at once over both sides, at most (default 8)
  --alpha X          the significance level of the exact McNemar test (default 0.05)
  --fail-on-flip     also exit 1 when a case went from passing to failing, significant or not
  --reporter R[:F]   line (the default), json (a line per case, then the summary), junit or markdown (a report
                     fit for a pull request comment); to standard output, or to the file F. Repeatable
  --pass-with-no-tests  exit 0 when no test file is found

Every case runs on both sides whatever environment it names. Judged criteria (expect:, criteria:) and simulated
callers (scenario:) are run as \`test\` runs them, with the model of these flags:
${MODEL_HELP}
Without a model, judged criteria are skipped with that reason, and a case of judged criteria only is not compared.

Verdicts, per case and for the suite (every case's pairs pooled): "significant regression", "significant
improvement", "no significant change", "not enough runs to tell" (fewer paired runs differ than an exact test at
this alpha can ever call significant: 6 at 0.05), "not compared" (skipped or unreachable on a side).
With GITHUB_STEP_SUMMARY set, the Markdown report is appended to that file.
Exit codes: 0 no significant regression, 1 a significant regression (of a case or of the suite; with
--fail-on-flip also a flip), a side that could not be reached, a problem in a test file, or no test file found,
2 a wrong command line.

${REPLAY_HELP}`;

/** `compare`: resolves to the exit code. */
export async function compareCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.includes('--replay-traffic')) return replayTrafficCommand(args, env, HELP);
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const cwd = process.cwd();
  const searched = options.paths.length > 0 ? options.paths : [cwd];
  const files = findTestFiles(searched).map((p) => readTestFile(p, cwd));
  const labels = { base: options.base, candidate: options.candidate };
  const report = new ComparisonReport(options.reporters, labels, {
    env,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  if (files.length === 0) {
    process.stderr.write(noTestFiles(searched, cwd, options.passWithNoTests));
    return options.passWithNoTests ? 0 : 1;
  }
  for (const file of files) for (const p of file.problems) report.problem(problemRecord(file.path, p));
  const problems = files.some((f) => f.problems.some((p) => p.severity === 'error'));
  const cases: TestCase[] = files
    .flatMap((f) => f.cases)
    .filter((c) => options.tags.length === 0 || c.tags.some((t) => options.tags.includes(t)));
  if (cases.length === 0 && options.tags.length > 0)
    process.stderr.write(`No case has the tag ${options.tags.join(' or ')}.\n`);

  const started = performance.now();
  const transport = new Transport();
  let lp: LocalPlatform | undefined;
  const controller = new AbortController();
  // Every open conversation listens to it: more than Node's warning level of 10 at a concurrency above it.
  setMaxListeners(Math.max(10, options.concurrency * 2), controller.signal);
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    let sides: Record<Side, SideTarget>;
    if (options.local) {
      lp = await startLocalPlatform({
        ...options.variability,
        port: 0,
        seed: 'demo',
        responses: options.responses,
        streamDelayMs: 0,
      });
      const platform = lp;
      sides = {
        base: localSide(platform, options.base, transport),
        candidate: localSide(platform, options.candidate, transport),
      };
    } else {
      const missing = [missingSideKeys(options.base, env), missingSideKeys(options.candidate, env)].filter(
        (m) => m !== undefined,
      );
      if (missing.length > 0) throw new UsageError(missing.join('\n'));
      const profileOf = (side: Side) => readProfileFile(options.profiles[side]);
      sides = {
        base: profileSide(profileOf('base'), options.base, transport, env),
        candidate: profileSide(profileOf('candidate'), options.candidate, transport, env),
      };
      process.stderr.write(
        `Comparing ${options.candidate} against ${options.base}: each run is a real conversation on each side.\n`,
      );
    }
    const model = modelOfRun(options.model, env);
    const suite = await runComparison(cases, {
      ...sides,
      model: model.run,
      concurrency: options.concurrency,
      signal: controller.signal,
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      settings: { alpha: options.alpha, confidence: 0.95 },
      listener: { caseCompared: (c) => report.caseCompared(c) },
    });
    await model.calls?.flush();
    const regression = suite.verdict.verdict === 'significant regression' || suite.counts['significant regression'] > 0;
    const flipped = options.failOnFlip && suite.cases.some((c) => c.verdict.passToFail > c.verdict.failToPass);
    // A side that could not be reached compared nothing: a job must not read that as a pass.
    const unreachable = suite.cases.some((c) => c.unreachable !== undefined);
    const ok = !regression && !flipped && !problems && !unreachable;
    report.finish(suite, performance.now() - started, ok);
    return ok ? 0 : 1;
  } catch (err) {
    return usageExitCode(err);
  } finally {
    process.off('SIGINT', interrupt);
    transport.dispose();
    await lp?.close();
  }
}

function parseOptions(args: string[]) {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      local: { type: 'boolean', default: false },
      base: { type: 'string', default: 'pre-release' },
      candidate: { type: 'string', default: 'sandbox' },
      'profile-file': { type: 'string' },
      'base-profile': { type: 'string' },
      'candidate-profile': { type: 'string' },
      responses: { type: 'string', default: 'full' },
      variability: { type: 'string' },
      tag: { type: 'string', multiple: true, default: [] },
      repeat: { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      alpha: { type: 'string', default: '0.05' },
      'fail-on-flip': { type: 'boolean', default: false },
      reporter: { type: 'string', multiple: true, default: [] },
      'pass-with-no-tests': { type: 'boolean', default: false },
      ...MODEL_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = wholeFlag;
  const environment = (name: 'base' | 'candidate'): Environment => environmentFlag(name, values[name]);
  const base = environment('base');
  const candidate = environment('candidate');
  const shared = values['profile-file'];
  const profiles = {
    base: values['base-profile'] ?? shared,
    candidate: values['candidate-profile'] ?? shared,
  };
  if (!values.help) {
    const remote = profiles.base !== undefined || profiles.candidate !== undefined;
    if (values.local === remote)
      throw new UsageError('Give either --local, or --profile-file F (or --base-profile and --candidate-profile).');
    if (remote && (profiles.base === undefined || profiles.candidate === undefined))
      throw new UsageError(
        `--${profiles.base === undefined ? 'base' : 'candidate'}-profile is missing: give a profile for each side, or --profile-file for both.`,
      );
    if (base === candidate && profiles.base === profiles.candidate)
      throw new UsageError(`--base and --candidate are both ${base} of the same profile: there is nothing to compare.`);
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
  }
  let variability: ReturnType<typeof variabilityFlag> | undefined;
  try {
    variability = values.variability === undefined ? undefined : variabilityFlag(values.variability);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const alpha = Number(values.alpha);
  if (!(alpha > 0 && alpha < 1))
    throw new UsageError(`--alpha must be a number between 0 and 1, got "${values.alpha}"`);
  return {
    help: values.help,
    paths: positionals,
    local: values.local,
    base,
    candidate,
    profiles: { base: profiles.base ?? '', candidate: profiles.candidate ?? '' },
    responses: values.responses as ResponsesMode,
    variability,
    tags: values.tag,
    repeat: whole('repeat', values.repeat),
    concurrency: whole('concurrency', values.concurrency) ?? 8,
    alpha,
    failOnFlip: values['fail-on-flip'],
    reporters: parseReporters(values.reporter),
    passWithNoTests: values['pass-with-no-tests'],
    model: values.help ? ({ cassette: 'replay' } satisfies ModelFlags) : modelFlagsOf(values),
  };
}
