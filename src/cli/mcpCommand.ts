import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CaseTarget } from '../agentTests/runner';
import type { TestCase } from '../agentTests/format';
import { ClientContext } from '../client/context';
import { type ConnectionProfile, type CredentialId, LOCAL_PROFILE_ID } from '../client/profile';
import { Transport } from '../client/transport';
import { RESPONSES_MODES, type ResponsesMode } from '../localPlatform/responsesMode';
import { type LocalPlatform, startLocalPlatform } from '../localPlatform/server';
import { CREDENTIAL_VARIABLES, credentialsFromEnvironment } from './environmentCredentials';
import { CliToolContext } from './mcpContext';
import { assistantToolsServer, serveUntilClosed } from './mcpServer';
import { localTargets, profileTargets, readProfileFile } from './testTargets';

export const MCP_SUMMARY = 'serve the assistant tools over MCP (stdio) for Claude Code, Cursor and other assistants';

const variables = Object.entries(CREDENTIAL_VARIABLES)
  .map(([id, name]) => `  ${name.padEnd(40)} ${id}`)
  .join('\n');

const HELP = `Serve Agent Workbench's assistant tools over the Model Context Protocol on stdin and stdout.

Usage: node dist/cli.js mcp --local [--responses full|minimal|spec-only] [--workspace DIR] [--allow-writes]
       node dist/cli.js mcp --profile-file F [--environment E] [--workspace DIR] [--allow-writes]

  --local            start the bundled local platform for this server (no credentials, nothing leaves the machine)
  --profile-file F   a connection profile as JSON: id, accountId, projectId, region (us, uk, eu) or runtimeUrl and
                     buildUrl. It holds no secrets: they come from the environment variables below
  --environment E    the environment the Chat API key and connector token are for (sandbox, pre-release, live):
                     the target of conversations and test runs
  --workspace DIR    where agent folders (agent.json) are looked for (default: the current folder)
  --allow-writes     allow the change tools (pull, push, publish to sandbox, promote, create a branch); without it
                     they are listed and refused

Credentials (read from the environment only, never from a file or an argument):
${variables}

Only the protocol is written to stdout; what the server says of itself goes to stderr. See docs/assistants.md.
`;

class UsageError extends Error {}

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
    if (options.local) {
      // As `serve` does for people: the demo week ends at the current hour, so "the last 24 hours" has traffic.
      lp = await startLocalPlatform({
        port: 0,
        seed: 'demo',
        demoAnchor: 'now',
        responses: options.responses,
        streamDelayMs: 0,
      });
      const { keys, connectors, accountId, projectId } = lp.credentials;
      profile = {
        id: LOCAL_PROFILE_ID,
        name: 'Local platform',
        accountId,
        projectId,
        region: 'local',
        runtimeUrl: lp.urls.runtime,
        buildUrl: lp.urls.build,
        messagingUrl: lp.urls.messaging,
      };
      credentials = {
        agentsApiKey: keys.agents,
        conversationsApiKey: keys.conversations,
        alertsApiKey: keys.alerts,
        chatApiKey: keys.chat,
        chatConnectorToken: connectors.chatToken,
      };
      targets.set('local', localTargets(lp, transport));
      connectionName = `the local platform (${options.responses} answers)`;
    } else {
      const file = readProfileFile(options.profileFile!);
      profile = file.profile;
      credentials = credentialsFromEnvironment(env);
      if (options.environment !== undefined && credentials.chatApiKey && credentials.chatConnectorToken)
        targets.set(options.environment, profileTargets(file, options.environment, transport, env));
      connectionName = `the profile "${profile.name}" (${profile.accountId}/${profile.projectId})`;
    }
    const secrets = [
      ...Object.values(credentials),
      ...(lp ? [...Object.values(lp.credentials.keys), ...Object.values(lp.credentials.connectors)] : []),
    ].filter((v): v is string => typeof v === 'string' && v.length > 0 && v !== lp?.credentials.connectors.webchatHost);
    const client = new ClientContext(profile, async (id) => credentials[id], transport);
    const context = new CliToolContext({
      client,
      connectionName,
      workspace: options.workspace,
      secrets,
      chatTargets: targets,
    });
    const server = assistantToolsServer(context, {
      allowWrites: options.allowWrites,
      allowWritesHint: `node dist/cli.js mcp ${[...args.filter((a) => a !== '--allow-writes'), '--allow-writes'].join(' ')}`,
      version: '0.1.0',
    });
    const stdio = new StdioServerTransport();
    // The client ends the session by closing stdin; the SDK's transport does not notice that by itself.
    process.stdin.once('end', () => void server.close());
    process.once('SIGTERM', () => void server.close());
    process.once('SIGINT', () => void server.close());
    process.stderr.write(
      `Agent Workbench MCP server on stdio: ${connectionName}, agent folders under ${options.workspace}, change tools ${options.allowWrites ? 'allowed' : 'refused (start with --allow-writes to allow them)'}.\n`,
    );
    await serveUntilClosed(server, stdio);
    return 0;
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof Error && err.message.startsWith('The profile file')))
      throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  } finally {
    transport.dispose();
    await lp?.close();
  }
}

function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      local: { type: 'boolean', default: false },
      'profile-file': { type: 'string' },
      environment: { type: 'string' },
      responses: { type: 'string', default: 'full' },
      workspace: { type: 'string' },
      'allow-writes': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!values.help) {
    if (values.local === Boolean(values['profile-file']))
      throw new UsageError('Give either --local or --profile-file F (with the credentials in environment variables).');
    if (!RESPONSES_MODES.includes(values.responses as ResponsesMode))
      throw new UsageError(`--responses must be one of ${RESPONSES_MODES.join(', ')}, got "${values.responses}"`);
    if (values.environment !== undefined && !['sandbox', 'pre-release', 'live'].includes(values.environment))
      throw new UsageError(`--environment must be sandbox, pre-release or live, got "${values.environment}"`);
  }
  return {
    help: values.help,
    local: values.local,
    profileFile: values['profile-file'],
    environment: values.environment,
    responses: values.responses as ResponsesMode,
    workspace: resolve(values.workspace ?? '.'),
    allowWrites: values['allow-writes'],
  };
}
