import { resolve } from 'node:path';
import { isJudged, type TestCase } from '../agentTests/format';
import { readRunLabels, withAdvisory } from '../agentTests/labelsRuntime';
import { type CaseResult, type CaseTarget, runCases, totalSpend } from '../agentTests/runner';
import { parseCommandLine, UsageError, wholeFlag } from '../core/commandLine';
import { Transport } from '../client/transport';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import { parseReporters, RunReport } from './reporters/runReport';
import { problemRecord } from './reporters/records';
import { casesOfShard, parseShard } from './shard';
import { findTestFiles, noTestFiles, readTestFile } from './testFiles';
import { MODEL_HELP, MODEL_OPTIONS, type ModelFlags, modelFlagsOf, modelOfRun, usageExitCode } from './testModel';
import {
  CHAT_KEY_VARIABLE,
  CHAT_TOKEN_VARIABLE,
  CONVERSATIONS_KEY_VARIABLE,
  localTargets,
  profileTargets,
  readProfileFile,
} from './testTargets';

const HELP = `Run conversation tests: each case a conversation through the Chat API whose answers are checked.

Usage: agent-workbench test [paths...] --local [--responses full|minimal|spec-only]
       agent-workbench test [paths...] --profile-file F --environment E
       [--reporter NAME[:FILE]]... [--shard I/N] [--repeat N] [--concurrency N] [--pass-with-no-tests]
       [--model-base-url URL --model NAME] [--cassette replay|record|live]
       [--max-model-calls N] [--max-model-cost X] [--prices F] [--record-wait S]

  paths              test files, or folders searched for tests/*.yaml (default: the current folder)
  --local            start the bundled local platform for this run (no credentials, nothing leaves the machine)
  --profile-file F   a connection profile as JSON: accountId, projectId, region (us, uk, eu) or runtimeUrl,
                     and the agentId its Chat keys reach. It holds no secrets: the Chat API key and connector
                     token are read from ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE}
  --environment E    the environment those keys are for (sandbox, pre-release, live); cases naming another
                     environment are skipped
  --reporter R[:F]   line (the default), json (a line per case, then the summary), junit or markdown; to
                     standard output, or to the file F. Repeatable: --reporter line --reporter junit:out.xml
  --junit FILE       also write the results as JUnit XML (--reporter junit:FILE)
  --shard I/N        run the I-th of N shares of the cases (from 1), split by each case's file and name, so
                     N jobs run every case once; join their --reporter json files with merge-reports
  --pass-with-no-tests  exit 0 when no test file is found
  --repeat N         run every case N times instead of its own repeat
  --concurrency N    conversations open at once, at most (default 4)

Judged criteria (expect:, criteria:) and simulated callers (scenario:) need a model:
${MODEL_HELP}
  --agreement-threshold X
                     below this share of labels agreeing with its judge (0 to 1, default 0.8), a criterion is
                     advisory; labels are the files tests/<name>.labels.json the editor writes
Without a model, judged criteria are skipped with that reason: never passed.

Record checks (state:, intents:, entities:, ood:, record_latency_ms:, handoff_reason:, num_ood:, metrics:) read
the conversation's record through the Conversations API, with the key in ${CONVERSATIONS_KEY_VARIABLE}
(--local needs none):
  --record-wait S    how long to wait for a record to appear and finish, in seconds (default 20)
A record check that cannot be made is "not checked", with the reason: never passed.

Prints one line per case and "N passed, N failed" last, progress on standard error. With GITHUB_STEP_SUMMARY
set, a Markdown summary is appended to that file. Colour on a terminal only (NO_COLOR, FORCE_COLOR).
Exit codes: 0 every case passed or was skipped, 1 a case failed or errored or a file has a problem (or no test file was
found), 2 a wrong command line.
`;

/** `test`: resolves to the exit code. */
export async function testCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
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
  const report = new RunReport(options.reporters, {
    env,
    stdout: process.stdout,
    stderr: process.stderr,
    ...(options.shard ? { shard: options.shard } : {}),
  });
  for (const file of files) for (const p of file.problems) report.problem(problemRecord(file.path, p));
  const cases: TestCase[] = casesOfShard(
    files.flatMap((f) => f.cases),
    options.shard,
  );
  if (files.length === 0) {
    process.stderr.write(noTestFiles(searched, cwd, options.passWithNoTests));
    report.finish([], 0);
    return options.passWithNoTests ? 0 : 1;
  }
  const started = performance.now();

  const transport = new Transport();
  let lp: LocalPlatform | undefined;
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    let target: (testCase: TestCase) => CaseTarget;
    if (options.local) {
      // Its clock is this machine's (the demo week ends now): record checks find a record by when it started.
      lp = await startLocalPlatform({
        port: 0,
        seed: 'demo',
        demoAnchor: 'now',
        responses: options.responses,
        streamDelayMs: 0,
      });
      target = localTargets(lp, transport);
    } else if (options.remote) {
      const { profileFile, environment } = options.remote;
      const profile = readProfileFile(profileFile);
      if (!env[CHAT_KEY_VARIABLE] || !env[CHAT_TOKEN_VARIABLE])
        throw new UsageError(
          `Set ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE} to the Chat API key and connector token of ${environment}.`,
        );
      process.stderr.write(
        `Running against ${environment} of ${profile.profile.projectId}: each case is a real conversation.\n`,
      );
      target = profileTargets(profile, environment, transport, env);
    } else throw new UsageError('Give either --local or --profile-file F --environment E.');
    const model = modelOfRun(options.model, env);
    // The labels beside the test files: each labelled criterion says how often its judge agreed, and one below the
    // threshold is advisory (reported; a promotion gate does not block on it).
    const labelled = cases.some(isJudged) ? await readRunLabels(cases.map((c) => resolve(cwd, c.file))) : new Map();
    const marked = (r: CaseResult): CaseResult =>
      withAdvisory(r, labelled.get(resolve(cwd, r.testCase.file)), options.agreementThreshold);
    report.started(cases.length);
    const results = await runCases(cases, {
      target,
      model: model.run,
      concurrency: options.concurrency,
      signal: controller.signal,
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      recordWait: { waitMs: options.recordWaitMs, pollMs: Math.min(500, options.recordWaitMs) },
      listener: { caseFinished: (r) => report.caseFinished(marked(r)) },
    }).then((all) => all.map(marked));
    await model.calls?.flush();
    const spend = model.calls?.spent() ?? totalSpend(results);
    return report.finish(results, performance.now() - started, spend).ok ? 0 : 1;
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
      'profile-file': { type: 'string' },
      environment: { type: 'string' },
      responses: { type: 'string', default: 'full' },
      junit: { type: 'string' },
      reporter: { type: 'string', multiple: true, default: [] },
      shard: { type: 'string' },
      'pass-with-no-tests': { type: 'boolean', default: false },
      ...MODEL_OPTIONS,
      'agreement-threshold': { type: 'string', default: '0.8' },
      repeat: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      'record-wait': { type: 'string', default: '20' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = wholeFlag;
  if (!values.help) {
    if (values.local === Boolean(values['profile-file']))
      throw new UsageError('Give either --local or --profile-file F --environment E.');
    if (values['profile-file'] && !values.environment)
      throw new UsageError('--environment names the environment the Chat keys are for (sandbox, pre-release, live).');
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
    const threshold = Number(values['agreement-threshold']);
    if (!(threshold >= 0 && threshold <= 1))
      throw new UsageError(
        `--agreement-threshold must be a number from 0 to 1, got "${values['agreement-threshold']}"`,
      );
    if (!(Number(values['record-wait']) >= 0))
      throw new UsageError(`--record-wait must be a number of seconds, 0 or more, got "${values['record-wait']}"`);
  }
  const profileFile = values['profile-file'];
  const environment = values.environment;
  return {
    help: values.help,
    paths: positionals,
    local: values.local,
    /** The profile file and environment of a run against a platform other than the local one. */
    remote: profileFile !== undefined && environment !== undefined ? { profileFile, environment } : undefined,
    responses: values.responses as ResponsesMode,
    reporters: parseReporters(values.reporter, values.junit),
    shard: values.shard === undefined ? undefined : parseShard(values.shard),
    passWithNoTests: values['pass-with-no-tests'],
    repeat: whole('repeat', values.repeat),
    concurrency: whole('concurrency', values.concurrency) ?? 4,
    agreementThreshold: Number(values['agreement-threshold']),
    recordWaitMs: Number(values['record-wait']) * 1000,
    model: values.help ? ({ cassette: 'replay' } satisfies ModelFlags) : modelFlagsOf(values),
  };
}
