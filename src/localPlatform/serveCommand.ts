import { parseCommandLine } from '../core/commandLine';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from './seed/credentials';
import { RESPONSES_MODES, type ResponsesMode } from './responsesMode';
import { SEED_NAMES, type SeedName } from './seed/seeds';
import { startLocalPlatform } from './server';
import { variabilityFlag } from './engine/variability';

const HELP = `Agent Workbench local platform: the whole platform interface on a loopback port.

Usage: node dist/cli.js serve [--port N] [--seed empty|base|demo] [--data-dir DIR] [--stream-delay MS] [--responses full|minimal|spec-only] [--variability RATE[:SEED]] [--json]

  --port N          port to listen on (default 4780; 0 picks a free one)
  --seed NAME       data to start with when there is no saved state (default demo)
  --data-dir DIR    keep state in DIR (a snapshot and a journal) and reload it on restart; every
                    acknowledged write is journaled before its answer; the journal is synced to
                    disk every second and at shutdown
  --stream-delay MS delay between streamed answer chunks (default 40)
  --responses MODE  full (default), minimal or spec-only. minimal: answers carry only the fields
                    the spec shows, and the Chat headers X-API-KEY and X-TOKEN must be sent in
                    that case. spec-only: that, and only the spec's endpoints exist (others
                    answer 404 or 405), the WebSocket does not echo the user's message and
                    names the events the spec does not name differently (see specOnlyEvents.ts)
  --variability RATE[:SEED]
                    answer as a language model agent does: a share RATE (0 to 1) of the answers is
                    reworded or, now and then, about another topic, and answers come up to 20 ms
                    later; the same SEED (default 1) gives the same answers to the same conversations.
                    Also the admin API's options variabilityRate, variabilitySeed, variabilityLatencyMs
  --json            print the addresses and credentials as one JSON line
`;

/** `serve`: starts the local platform and keeps it running until a signal (or the editor that forked it) ends it. */
export async function serve(args: string[]): Promise<void> {
  const { values } = parseCommandLine({
    args,
    options: {
      port: { type: 'string', default: '4780' },
      seed: { type: 'string', default: 'demo' },
      'data-dir': { type: 'string' },
      'stream-delay': { type: 'string' },
      responses: { type: 'string', default: 'full' },
      variability: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be a number from 0 to 65535, got "${values.port}"`);
  const seed = values.seed as SeedName;
  if (!SEED_NAMES.includes(seed)) fail(`--seed must be one of ${SEED_NAMES.join(', ')}, got "${values.seed}"`);
  const streamDelayMs = values['stream-delay'] === undefined ? undefined : Number(values['stream-delay']);
  if (streamDelayMs !== undefined && !(streamDelayMs >= 0))
    fail('--stream-delay must be a non-negative number of milliseconds');

  const responses = values.responses as ResponsesMode;
  if (!RESPONSES_MODES.includes(responses))
    fail(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);

  let variability: ReturnType<typeof variabilityFlag> | undefined;
  try {
    variability = values.variability === undefined ? undefined : variabilityFlag(values.variability);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }

  const lp = await startLocalPlatform({
    ...variability,
    port,
    seed,
    responses,
    demoAnchor: 'now',
    dataDir: values['data-dir'],
    ...(streamDelayMs !== undefined ? { streamDelayMs } : {}),
  }).catch((err: unknown) => {
    throw new Error(`The local platform could not start: ${err instanceof Error ? err.message : String(err)}`);
  });
  const info = {
    urls: lp.urls,
    accountId: LOCAL_ACCOUNT.slug,
    projectId: LOCAL_PROJECT.slug,
    keys: LOCAL_KEYS,
    connectors: LOCAL_CONNECTORS,
    projects: lp.credentials.projects ?? [],
  };
  if (values.json) {
    process.stdout.write(JSON.stringify(info) + '\n');
  } else {
    const lines = [
      `Agent Workbench local platform listening on ${lp.urls.origin}`,
      `  runtime   {base_url}        ${lp.urls.runtime}`,
      `  build     {build_base_url}  ${lp.urls.build}`,
      `  messaging {messaging_url}   ${lp.urls.messaging}`,
      `  admin                       ${lp.urls.admin}`,
      `Account ${LOCAL_ACCOUNT.slug} (${LOCAL_ACCOUNT.id}), project ${LOCAL_PROJECT.slug} (${LOCAL_PROJECT.id})`,
      'Demo credentials (they open only this local platform):',
      ...Object.entries(LOCAL_KEYS).map(([k, v]) => `  ${k.padEnd(22)} ${v}`),
      ...Object.entries(LOCAL_CONNECTORS).map(([k, v]) => `  ${k.padEnd(22)} ${v}`),
      ...info.projects
        .slice(1)
        .map((p) => `Project ${p.projectId} (${p.projectPrefixedId}) serves ${p.agentName}: chat key ${p.keys.chat}`),
      values['data-dir']
        ? `State is kept in ${values['data-dir']}`
        : 'State is in memory (use --data-dir DIR to keep it)',
      'Press Ctrl-C to stop.',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  const stop = (): void => {
    void lp.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by the editor (with an IPC channel): stop when the editor goes away, whatever way it goes.
  if (process.send) process.on('disconnect', stop);
}

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}
