import { setMaxListeners } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replayedCasesFile } from '../agentTests/compare/replayPlan';
import { TRAFFIC_FLAG_OPTIONS, trafficFiltersOf } from '../agentTests/compare/trafficFlags';
import { replayTraffic, type ReplayResult } from '../agentTests/compare/replayTraffic';
import type { SideTarget } from '../agentTests/compare/runComparison';
import {
  filterWords,
  selectTraffic,
  type TrafficFilters,
  trafficQuery,
  type TrafficLister,
} from '../agentTests/compare/trafficSelection';
import { parseCommandLine, UsageError, wholeFlag } from '../core/commandLine';
import { environmentFlag } from './flags';
import { Transport } from '../client/transport';
import type { Environment } from '../contract/common';
import { variabilityFlag } from '../localPlatform/engine/variability';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import { localSide, localTraffic, missingSideKeys, profileSide } from './compareTargets';
import { ReplayReport } from './reporters/replayReport';
import { parseReporters } from './reporters/runReport';
import { MODEL_OPTIONS, ModelFlagError, type ModelFlags, modelFlagsOf, modelOfRun, usageExitCode } from './testModel';
import { CONVERSATIONS_KEY_VARIABLE, profileTraffic, readProfileFile } from './testTargets';

export const REPLAY_USAGE = `       agent-workbench compare --replay-traffic (--local | --profile-file F) [--source ENV] [--candidate ENV]
                                [--since T] [--until T] [--channel C]... [--variant NAME | --variant-id ID]
                                [--handoff | --no-handoff] [--ood | --no-ood] [--search TEXT]
                                [--sample N | --limit N] [--save-cases FILE] [--fail-on-change]`;

export const REPLAY_HELP = `Replaying real traffic (--replay-traffic): conversations of the source of truth, read through the
Conversations API, are sent again to the candidate through the Chat API, their caller's lines with their
variant, attributes and metadata, and what differs from each original is grouped: handoff changed, ended
earlier, ended later, out of domain now, no longer out of domain, answer changed (the differing words marked;
with a model, an answer whose words changed is judged on whether it still means the same).
  --source ENV       the environment whose conversations are replayed (default live)
  --candidate ENV    what they are replayed against (default sandbox)
  --since T, --until T
                     started from T, and before T: ISO 8601 (2026-01-05, 2026-01-05T09:00Z) or a time ago
                     (30m, 24h, 7d)
  --channel C        only this channel (VOICE-SIP, WEBCHAT, CHAT; repeatable: any of them)
  --variant NAME, --variant-id ID
                     only this variant
  --handoff, --no-handoff
                     only conversations handed off, or only those not handed off (read from each record)
  --ood, --no-ood    only conversations with an out-of-domain turn, or only those without one
  --search TEXT      only conversations whose transcript has every word of TEXT
  --sample N         a random sample of N conversations; --limit N: the first N in time (default 100)
  --agent ID         with --local: the agent whose project's traffic is replayed (default the support desk)
  --save-cases FILE  write the conversations that changed as test cases (YAML), named after each conversation
                     id: their lines, and checks that pin what the original did
  --fail-on-change   exit 1 when a conversation changed
  --record-wait S    how long to wait for a replay's record, for its out-of-domain marks (default 20)
  The traffic is read with the Conversations API key in ${CONVERSATIONS_KEY_VARIABLE} (--local needs none);
  the candidate is reached with its Chat keys as above. A conversation whose record lists no turns
  (transcript visibility off) or whose caller said nothing is not replayed, and counted with the reason.
  Exit codes: 0 the replay finished, 1 nothing matched, a conversation failed, the candidate could not be
  reached (what finished is kept and reported), or with --fail-on-change a change; 2 a wrong command line.
`;

function parseOptions(args: string[], now: Date) {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    // The options of `compare --replay-traffic`.
    options: {
      'replay-traffic': { type: 'boolean', default: false },
      local: { type: 'boolean', default: false },
      source: { type: 'string', default: 'live' },
      candidate: { type: 'string', default: 'sandbox' },
      'profile-file': { type: 'string' },
      'base-profile': { type: 'string' },
      'candidate-profile': { type: 'string' },
      responses: { type: 'string', default: 'full' },
      variability: { type: 'string' },
      ...TRAFFIC_FLAG_OPTIONS,
      agent: { type: 'string' },
      'save-cases': { type: 'string' },
      'fail-on-change': { type: 'boolean', default: false },
      'record-wait': { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '8' },
      reporter: { type: 'string', multiple: true, default: [] },
      ...MODEL_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const environment = (name: 'source' | 'candidate'): Environment => environmentFlag(name, values[name]);
  const profiles = {
    source: values['base-profile'] ?? values['profile-file'],
    candidate: values['candidate-profile'] ?? values['profile-file'],
  };
  if (!values.help) {
    if (positionals.length > 0)
      throw new UsageError(
        `--replay-traffic reads recorded conversations, not test files: leave out ${positionals.join(' ')}`,
      );
    const remote = profiles.source !== undefined || profiles.candidate !== undefined;
    if (values.local === remote)
      throw new UsageError('Give either --local, or --profile-file F (or --base-profile and --candidate-profile).');
    if (remote && (profiles.source === undefined || profiles.candidate === undefined))
      throw new UsageError(
        `--${profiles.source === undefined ? 'base' : 'candidate'}-profile is missing: give a profile for each side, or --profile-file for both.`,
      );
    if (values.agent !== undefined && !values.local)
      throw new UsageError('--agent names a local agent (with --local); a profile file names its own agentId.');
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
    if (!(Number(values['record-wait']) >= 0))
      throw new UsageError(`--record-wait must be a number of seconds, 0 or more, got "${values['record-wait']}"`);
  }
  const filters: TrafficFilters = {
    source: environment('source'),
    ...(values.help ? {} : trafficFiltersOf(values, now)),
  };
  let variability: ReturnType<typeof variabilityFlag> | undefined;
  try {
    variability = values.variability === undefined ? undefined : variabilityFlag(values.variability);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  return {
    help: values.help,
    local: values.local,
    candidate: environment('candidate'),
    profiles,
    responses: values.responses as ResponsesMode,
    variability,
    filters,
    agent: values.agent,
    saveCases: values['save-cases'],
    failOnChange: values['fail-on-change'],
    recordWaitMs: Number(values['record-wait']) * 1000,
    concurrency: wholeFlag('concurrency', values.concurrency) ?? 8,
    reporters: parseReporters(values.reporter),
    model: values.help ? ({ cassette: 'replay' } satisfies ModelFlags) : modelFlagsOf(values),
  };
}

/** `compare --replay-traffic`: resolves to the exit code. `help` is the whole of compare's help. */
export async function replayTrafficCommand(args: string[], env: NodeJS.ProcessEnv, help: string): Promise<number> {
  const now = new Date();
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args, now);
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof ModelFlagError)) throw err;
    process.stderr.write(`${err.message}\n\n${help}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(help);
    return 0;
  }
  const source = options.filters.source ?? 'live';
  const labels = { source, candidate: options.candidate };
  const report = new ReplayReport(options.reporters, labels, { env, stdout: process.stdout, stderr: process.stderr });
  const started = performance.now();
  const transport = new Transport();
  let lp: LocalPlatform | undefined;
  const controller = new AbortController();
  setMaxListeners(Math.max(10, options.concurrency * 2), controller.signal);
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    let traffic: TrafficLister;
    let candidate: SideTarget;
    let agentId: string | undefined;
    if (options.local) {
      // Its clock is this machine's (the demo week ends now): --since 7d and the replays' records line up with it.
      lp = await startLocalPlatform({
        ...options.variability,
        port: 0,
        seed: 'demo',
        demoAnchor: 'now',
        responses: options.responses,
        streamDelayMs: 0,
      });
      const reached = localTraffic(lp, options.agent, transport);
      if ('none' in reached) throw new UsageError(reached.none);
      traffic = reached;
      const side = localSide(lp, options.candidate, transport);
      agentId = options.agent ?? lp.platform.state.connectors.find((c) => c.kind === 'chat')?.agentId;
      candidate = (testCase) => side({ ...testCase, ...(agentId !== undefined ? { agent: agentId } : {}) });
    } else {
      const key = env[CONVERSATIONS_KEY_VARIABLE];
      const missing = [
        key
          ? undefined
          : `No Conversations API key to read the traffic of ${source} with: set ${CONVERSATIONS_KEY_VARIABLE}.`,
        missingSideKeys(options.candidate, env),
      ].filter((m) => m !== undefined);
      if (missing.length > 0) throw new UsageError(missing.join('\n'));
      const sourceProfile = readProfileFile(options.profiles.source ?? '');
      const candidateProfile = readProfileFile(options.profiles.candidate ?? '');
      traffic = profileTraffic(sourceProfile.profile, key ?? '', transport);
      candidate = profileSide(candidateProfile, options.candidate, transport, env);
      agentId = candidateProfile.agentId;
      process.stderr.write(
        `Replaying conversations of ${source} against ${options.candidate}: each is a real conversation on the candidate.\n`,
      );
    }
    const query = trafficQuery(options.filters, now);
    const filters = filterWords(options.filters, query);
    const selection = await selectTraffic(traffic, options.filters, { signal: controller.signal, now });
    const facts = { filters, scanned: selection.scanned };
    if (selection.nothingFound !== undefined) {
      process.stderr.write(`${selection.nothingFound}\n`);
      const empty = await replayTraffic([], { candidate, concurrency: 1 });
      report.finish(empty, { ...facts, nothingFound: selection.nothingFound }, performance.now() - started, false);
      return 1;
    }
    const model = modelOfRun(options.model, env);
    report.started(selection.conversations.length);
    const result = await replayTraffic(selection.conversations, {
      candidate,
      concurrency: options.concurrency,
      signal: controller.signal,
      model: model.run,
      recordWait: { waitMs: options.recordWaitMs, pollMs: Math.min(500, Math.max(1, options.recordWaitMs)) },
      listener: { conversationReplayed: (c, p) => report.conversationReplayed(c, p) },
    });
    await model.calls?.flush();
    const saved = options.saveCases !== undefined ? saveCases(options.saveCases, result, agentId) : undefined;
    const ok =
      result.unreachable === undefined &&
      result.counts.failed === 0 &&
      !result.cancelled &&
      !(options.failOnChange && result.counts.changed > 0);
    report.finish(result, { ...facts, ...(saved ? { savedCases: saved } : {}) }, performance.now() - started, ok);
    if (saved) process.stderr.write(`Wrote ${saved.count} test case(s) to ${saved.file}.\n`);
    return ok ? 0 : 1;
  } catch (err) {
    return usageExitCode(err);
  } finally {
    process.off('SIGINT', interrupt);
    transport.dispose();
    await lp?.close();
  }
}

/** The conversations that changed, as a test file; none changed writes no file. */
function saveCases(
  file: string,
  result: ReplayResult,
  agentId: string | undefined,
): { file: string; count: number } | undefined {
  const changed = result.conversations.filter((c) => c.status === 'replayed' && c.groups.length > 0 && c.recorded);
  if (changed.length === 0) {
    process.stderr.write(`No conversation changed: ${file} was not written.\n`);
    return undefined;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, replayedCasesFile(changed, agentId));
  return { file, count: changed.length };
}
