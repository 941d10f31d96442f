import { resolve } from 'node:path';
import { parseCommandLine } from '../core/commandLine';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CaseTarget } from '../agentTests/runner';
import type { TestCase } from '../agentTests/format';
import { ClientContext } from '../client/context';
import { type ConnectionProfile, type CredentialId } from '../client/profile';
import { Transport } from '../client/transport';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import { announcedLocalPlatforms, isLoopback, readLocalConnection } from '../client/localPlatformDiscovery';
import type { LocalProjectCredentials } from '../localPlatform/seed/credentials';
import { CREDENTIAL_VARIABLES, credentialsFromEnvironment } from './environmentCredentials';
import { CliToolContext } from './mcpContext';
import { cliVersion } from './version';
import { MODEL_HELP, MODEL_OPTIONS, modelFlagsOf } from './testModel';
import { assistantToolsServer, serveUntilClosed } from './mcpServer';
import {
  localPlatformProfile,
  localTargets,
  profileTargets,
  type ReachedLocalPlatform,
  reachedLocalTargets,
  readProfileFile,
} from './testTargets';

const variables = Object.entries(CREDENTIAL_VARIABLES)
  .map(([id, name]) => `  ${name.padEnd(40)} ${id}`)
  .join('\n');

const HELP = `Serve Agent Workbench's assistant tools over the Model Context Protocol on stdin and stdout.

Usage: node <extension folder>/dist/cli.js mcp --local [--responses full|minimal|spec-only] [--workspace DIR] [--allow-writes]
       node <extension folder>/dist/cli.js mcp --local-url URL [--workspace DIR] [--allow-writes]
       node <extension folder>/dist/cli.js mcp --profile-file F [--environment E] [--workspace DIR] [--allow-writes]

  --local            use the local platform the editor runs (the window whose workspace holds --workspace first);
                     when no editor runs one, start the bundled local platform for this server (no credentials,
                     nothing leaves the machine). Folders read from another local platform are never pulled or pushed
  --local-url URL    use the local platform at URL (for example http://127.0.0.1:4780, as \`serve\` runs it)
  --responses MODE   the answers of a local platform this server starts itself (the editor's keeps its own)
  --profile-file F   a connection profile as JSON: id, accountId, projectId, region (us, uk, eu) or runtimeUrl and
                     buildUrl. It holds no secrets: they come from the environment variables below
  --environment E    the environment the Chat API key and connector token are for (sandbox, pre-release, live):
                     the target of conversations and test runs
  --workspace DIR    where agent folders (agent.json) are looked for (default: the current folder)
  --allow-writes     allow the change tools (pull, push, publish to sandbox, promote, create a branch); without it
                     they are listed and refused

The test tool's judged criteria (expect:, criteria:) and simulated callers (scenario:) need a model:
${MODEL_HELP}
Without a model, judged criteria are not judged, with that reason: never passed.

Credentials (read from the environment only, never from a file or an argument):
${variables}

Only the protocol is written to stdout; what the server says of itself goes to stderr. See docs/assistants.md.
`;

class UsageError extends Error {}

const OWN_PLATFORM_NOTE =
  "No local platform of the editor answered, so this server started its own: agent folders checked out in the editor are not pulled or pushed through it. To use the editor's, start the local platform there (Agent Workbench: Start Local Platform) and restart this server.";

/** `mcp`: resolves when the client closes the connection (to the exit code), or at once to 0 or 2. */
export async function mcpCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    // Asked for help, the command is not serving: stdout carries no protocol.
    process.stdout.write(HELP);
    return 0;
  }
  const transport = new Transport();
  let lp: LocalPlatform | undefined;
  try {
    let profile: ConnectionProfile;
    let credentials: Partial<Record<CredentialId, string>>;
    const targets = new Map<string, (reach: Pick<TestCase, 'agent' | 'environment'>) => CaseTarget>();
    let connectionName: string;
    let reachedSecrets: string[] = [];
    let ownLocalPlatform = false;
    let note = '';
    const reached = options.localUrl
      ? await reachLocalPlatform(options.localUrl)
      : options.local
        ? await editorLocalPlatform(options.workspace, env)
        : undefined;
    if (reached) {
      const own = reached.projects.find((p) => p.projectId === reached.projectId) ?? reached.projects[0];
      profile = localPlatformProfile(reached.accountId, reached.projectId, reached.urls);
      credentials = {
        agentsApiKey: reached.keys.agents,
        conversationsApiKey: reached.keys.conversations,
        alertsApiKey: reached.keys.alerts,
        chatApiKey: own?.keys.chat ?? reached.keys.chat,
        chatConnectorToken: own?.connectors.chatToken ?? reached.connectors.chatToken,
      };
      reachedSecrets = reached.secrets;
      targets.set('local', reachedLocalTargets(reached, transport));
      connectionName = options.localUrl
        ? `the local platform at ${reached.urls.origin}`
        : `the local platform the editor runs at ${reached.urls.origin}`;
    } else if (options.local) {
      // As `serve` does for people: the demo week ends at the current hour, so "the last 24 hours" has traffic.
      lp = await startLocalPlatform({
        port: 0,
        seed: 'demo',
        demoAnchor: 'now',
        responses: options.responses,
        streamDelayMs: 0,
      });
      const { keys, connectors, accountId, projectId } = lp.credentials;
      profile = localPlatformProfile(accountId, projectId, lp.urls);
      credentials = {
        agentsApiKey: keys.agents,
        conversationsApiKey: keys.conversations,
        alertsApiKey: keys.alerts,
        chatApiKey: keys.chat,
        chatConnectorToken: connectors.chatToken,
      };
      targets.set('local', localTargets(lp, transport));
      ownLocalPlatform = true;
      connectionName = `a local platform of its own at ${lp.urls.origin} (${options.responses} answers)`;
      note = OWN_PLATFORM_NOTE;
    } else {
      const file = readProfileFile(options.profileFile ?? '');
      profile = file.profile;
      credentials = credentialsFromEnvironment(env);
      if (options.environment !== undefined && credentials.chatApiKey && credentials.chatConnectorToken)
        targets.set(options.environment, profileTargets(file, options.environment, transport, env));
      connectionName = `the profile "${profile.name}" (${profile.accountId}/${profile.projectId})`;
    }
    const secrets = [
      ...Object.values(credentials),
      ...(lp ? [...Object.values(lp.credentials.keys), ...Object.values(lp.credentials.connectors)] : []),
      ...reachedSecrets,
    ].filter((v): v is string => typeof v === 'string' && v.length > 0 && v !== lp?.credentials.connectors.webchatHost);
    const client = new ClientContext(profile, async (id) => credentials[id], transport);
    const context = new CliToolContext({
      client,
      connectionName,
      workspace: options.workspace,
      secrets,
      chatTargets: targets,
      ownLocalPlatform,
      ...(options.model ? { model: options.model } : {}),
    });
    const server = assistantToolsServer(context, {
      allowWrites: options.allowWrites,
      allowWritesHint: `node ${cliPath()} mcp ${[...args.filter((a) => a !== '--allow-writes'), '--allow-writes'].join(' ')}`,
      version: cliVersion(),
      connectionName: `${connectionName}${note ? `. ${note}` : ''}`,
    });
    const stdio = new StdioServerTransport();
    // The client ends the session by closing stdin; the SDK's transport does not notice that by itself.
    process.stdin.once('end', () => void server.close());
    process.once('SIGTERM', () => void server.close());
    process.once('SIGINT', () => void server.close());
    process.stderr.write(
      `Agent Workbench MCP server on stdio: ${connectionName}, agent folders under ${options.workspace}, change tools ${options.allowWrites ? 'allowed' : 'refused (start with --allow-writes to allow them)'}.${note ? ` ${note}` : ''}\n`,
    );
    await serveUntilClosed(server, stdio);
    return 0;
  } catch (err) {
    if (
      !(err instanceof UsageError) &&
      !(err instanceof Error && /^(The profile file|No local platform answers)/.test(err.message))
    )
      throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  } finally {
    transport.dispose();
    await lp?.close();
  }
}

function parseOptions(args: string[]) {
  const { values } = parseCommandLine({
    args,
    options: {
      local: { type: 'boolean', default: false },
      'local-url': { type: 'string' },
      'profile-file': { type: 'string' },
      environment: { type: 'string' },
      responses: { type: 'string', default: 'full' },
      workspace: { type: 'string' },
      'allow-writes': { type: 'boolean', default: false },
      ...MODEL_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!values.help) {
    if ([values.local, Boolean(values['local-url']), Boolean(values['profile-file'])].filter(Boolean).length !== 1)
      throw new UsageError(
        'Give one of --local, --local-url URL or --profile-file F (with the credentials in environment variables).',
      );
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
    if (values.environment !== undefined && !['sandbox', 'pre-release', 'live'].includes(values.environment))
      throw new UsageError(`--environment must be sandbox, pre-release or live, got "${values.environment}"`);
  }
  return {
    help: values.help,
    local: values.local,
    localUrl: values['local-url'],
    profileFile: values['profile-file'],
    environment: values.environment,
    responses: values.responses as ResponsesMode,
    workspace: resolve(values.workspace ?? '.'),
    allowWrites: values['allow-writes'],
    model: values.help ? undefined : modelFlagsOf(values),
  };
}

/** The command line as this process runs it, for the words of a hint (the bundle, or the source entry in tests). */
function cliPath(): string {
  return process.argv[1] ?? 'dist/cli.js';
}

/** A running local platform as the server reaches it: addresses, the account's credentials, its projects. */
interface ReachedPlatform extends ReachedLocalPlatform {
  readonly urls: ReachedLocalPlatform['urls'] & { readonly origin: string };
  readonly projectId: string;
  readonly keys: Record<string, string>;
  readonly connectors: Record<string, string>;
  /** Every key and token it named, for the redactor. */
  readonly secrets: string[];
}

async function reachAt(origin: string): Promise<ReachedPlatform | undefined> {
  const base = origin.replace(/\/+$/, '');
  const reply = await readLocalConnection(base);
  if (!reply) return undefined;
  const projects = (reply.projects ?? []) as LocalProjectCredentials[];
  return {
    urls: {
      origin: base,
      runtime: base + reply.bases.runtime,
      build: base + reply.bases.build,
      messaging: base + reply.bases.messaging,
    },
    accountId: reply.accountId,
    projectId: reply.projectId,
    keys: reply.keys,
    connectors: reply.connectors,
    projects,
    secrets: [
      ...Object.values(reply.keys),
      ...Object.entries(reply.connectors)
        .filter(([k]) => k !== 'webchatHost')
        .map(([, v]) => v),
      ...projects.flatMap((p) => [...Object.values(p.keys), p.connectors.chatToken, p.connectors.webchatToken]),
    ],
  };
}

/** The local platform at `--local-url`; an error saying so when nothing answers there as one. */
async function reachLocalPlatform(origin: string): Promise<ReachedPlatform> {
  if (!isLoopback(origin))
    throw new UsageError(
      `--local-url must be an address on this machine (127.0.0.1, localhost or [::1]), got "${origin}"`,
    );
  const found = await reachAt(origin);
  if (!found)
    throw new Error(
      `No local platform answers at ${origin} (GET /_local/connection): start it (node dist/cli.js serve, or Start Local Platform in the editor) or check the address.`,
    );
  return found;
}

/** The local platform an editor window runs (docs/assistants.md), the one whose workspace holds `workspace` first. */
async function editorLocalPlatform(workspace: string, env: NodeJS.ProcessEnv): Promise<ReachedPlatform | undefined> {
  for (const a of await announcedLocalPlatforms(workspace, env)) {
    const found = await reachAt(a.origin);
    if (found) return found;
  }
  return undefined;
}
