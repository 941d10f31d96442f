import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { TestCase } from '../agentTests/format';
import { junitXml } from '../agentTests/junit';
import { caseLine, criterionLines, failureLines, summaryLine } from '../agentTests/report';
import { type CaseTarget, runCases, totalSpend } from '../agentTests/runner';
import { Transport } from '../client/transport';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import type { CassetteMode } from '../agentTests/model/types';
import { findTestFiles, readTestFile } from './testFiles';
import { CASSETTE_MODES, MODEL_KEY_VARIABLE, ModelFlagError, type ModelFlags, modelOfRun } from './testModel';
import { CHAT_KEY_VARIABLE, CHAT_TOKEN_VARIABLE, localTargets, profileTargets, readProfileFile } from './testTargets';

const HELP = `Run conversation tests: each case a conversation through the Chat API whose answers are checked.

Usage: node dist/cli.js test [paths...] --local [--responses full|minimal|spec-only]
       node dist/cli.js test [paths...] --profile-file F --environment E
       [--junit out.xml] [--repeat N] [--concurrency N]
       [--model-base-url URL --model NAME] [--cassette replay|record|live]
       [--max-model-calls N] [--max-model-cost X] [--prices F]

  paths              test files, or folders searched for tests/*.yaml (default: the current folder)
  --local            start the bundled local platform for this run (no credentials, nothing leaves the machine)
  --profile-file F   a connection profile as JSON: accountId, projectId, region (us, uk, eu) or runtimeUrl,
                     and the agentId its Chat keys reach. It holds no secrets: the Chat API key and connector
                     token are read from ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE}
  --environment E    the environment those keys are for (sandbox, pre-release, live); cases naming another
                     environment are skipped
  --junit FILE       also write the results as JUnit XML
  --repeat N         run every case N times instead of its own repeat
  --concurrency N    conversations open at once, at most (default 4)

Judged criteria (expect:, criteria:) and simulated callers (scenario:) need a model:
  --model-base-url URL  an OpenAI-compatible endpoint (a hosted service, Ollama, llama.cpp, vLLM, LM Studio);
                     its key, if it needs one, is read only from ${MODEL_KEY_VARIABLE}
  --model NAME       the model's name at that endpoint
  --cassette MODE    replay (default): answer from the cassettes beside the test files, call no model;
                     record: call the model and keep its answers; live: call without keeping
  --max-model-calls N, --max-model-cost X
                     the cap: the run stops asking the model there and keeps every result so far
  --prices F         a JSON price table that turns tokens into cost
Without a model, judged criteria are skipped with that reason: never passed.

Prints one line per case and "N passed, N failed" last; exits 1 when a case fails or a file has a problem.
`;

class UsageError extends Error {}

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
  const files = findTestFiles(options.paths.length > 0 ? options.paths : [cwd]).map((p) => readTestFile(p, cwd));
  let problems = 0;
  for (const file of files)
    for (const p of file.problems) {
      if (p.severity === 'error') problems++;
      process.stdout.write(
        `${file.path}:${p.range.startLine + 1}:${p.range.startCharacter + 1}: ${p.severity}: ${p.message}\n`,
      );
    }
  const cases: TestCase[] = files.flatMap((f) => f.cases);
  if (files.length === 0) process.stdout.write('No test files found (tests/*.yaml).\n');

  const transport = new Transport();
  let lp: LocalPlatform | undefined;
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    let target: (testCase: TestCase) => CaseTarget;
    if (options.local) {
      lp = await startLocalPlatform({ port: 0, seed: 'demo', responses: options.responses, streamDelayMs: 0 });
      target = localTargets(lp, transport);
    } else if (options.remote) {
      const { profileFile, environment } = options.remote;
      const profile = readProfileFile(profileFile);
      if (!env[CHAT_KEY_VARIABLE] || !env[CHAT_TOKEN_VARIABLE])
        throw new UsageError(
          `Set ${CHAT_KEY_VARIABLE} and ${CHAT_TOKEN_VARIABLE} to the Chat API key and connector token of ${environment}.`,
        );
      process.stdout.write(
        `Running against ${environment} of ${profile.profile.projectId}: each case is a real conversation.\n`,
      );
      target = profileTargets(profile, environment, transport, env);
    } else throw new UsageError('Give either --local or --profile-file F --environment E.');
    const model = modelOfRun(options.model, env);
    const results = await runCases(cases, {
      target,
      model: model.run,
      concurrency: options.concurrency,
      signal: controller.signal,
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      listener: {
        caseFinished: (r) => {
          process.stdout.write(`${caseLine(r)}\n`);
          for (const line of failureLines(r).slice(1)) process.stdout.write(`    ${line}\n`);
          for (const line of criterionLines(r)) process.stdout.write(`    ${line}\n`);
        },
      },
    });
    await model.calls?.flush();
    const spend = model.calls?.spent() ?? totalSpend(results);
    if (options.junit) writeFileSync(options.junit, junitXml(results, undefined, spend));
    process.stdout.write(`${summaryLine(results, spend)}${problems ? `, ${problems} problems in test files` : ''}\n`);
    return results.some((r) => r.outcome === 'failed' || r.outcome === 'errored' || r.outcome === 'cancelled') ||
      problems > 0
      ? 1
      : 0;
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof ModelFlagError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  } finally {
    process.off('SIGINT', interrupt);
    transport.dispose();
    await lp?.close();
  }
}

function parseOptions(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      local: { type: 'boolean', default: false },
      'profile-file': { type: 'string' },
      environment: { type: 'string' },
      responses: { type: 'string', default: 'full' },
      junit: { type: 'string' },
      repeat: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      'model-base-url': { type: 'string' },
      model: { type: 'string' },
      cassette: { type: 'string', default: 'replay' },
      'max-model-calls': { type: 'string' },
      'max-model-cost': { type: 'string' },
      prices: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--${name} must be a whole number of 1 or more, got "${text}"`);
    return n;
  };
  if (!values.help) {
    if (values.local === Boolean(values['profile-file']))
      throw new UsageError('Give either --local or --profile-file F --environment E.');
    if (values['profile-file'] && !values.environment)
      throw new UsageError('--environment names the environment the Chat keys are for (sandbox, pre-release, live).');
    if ((values['model-base-url'] === undefined) !== (values.model === undefined))
      throw new UsageError('Give both --model-base-url and --model (the endpoint and the model name at it).');
    if (!CASSETTE_MODES.includes(values.cassette as CassetteMode))
      throw new UsageError(`--cassette must be one of ${CASSETTE_MODES.join(', ')}, got "${values.cassette}"`);
    const cost = values['max-model-cost'];
    if (cost !== undefined && !(Number(cost) >= 0))
      throw new UsageError(`--max-model-cost must be a number of 0 or more, got "${cost}"`);
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
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
    junit: values.junit,
    repeat: whole('repeat', values.repeat),
    concurrency: whole('concurrency', values.concurrency) ?? 4,
    model: {
      ...(values['model-base-url'] !== undefined ? { baseUrl: values['model-base-url'] } : {}),
      ...(values.model !== undefined ? { name: values.model } : {}),
      cassette: values.cassette as CassetteMode,
      ...(values['max-model-calls'] !== undefined
        ? { maxCalls: whole('max-model-calls', values['max-model-calls']) }
        : {}),
      ...(values['max-model-cost'] !== undefined ? { maxCost: Number(values['max-model-cost']) } : {}),
      ...(values.prices !== undefined ? { pricesFile: values.prices } : {}),
    } satisfies ModelFlags,
  };
}
