import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CaseTarget } from '../agentTests/runner';
import type { TestCase } from '../agentTests/format';
import type { AgentFolder, ChatRequest, ToolContext, ToolTestModel } from '../assistantTools/context';
import { AgentsClient } from '../client/agents';
import { AlertsClient } from '../client/alerts';
import { ConcurrencyClient } from '../client/concurrency';
import type { ClientContext } from '../client/context';
import { profilePlatformData } from '../client/localPlatformDiscovery';
import { ConversationsClient } from '../client/conversations';
import type { Agent } from '../contract/agents';
import { Redactor } from '../core/redact';
import { LintSession } from '../lint/engine';
import { findAgentFolders, readAgentFolder, readLintConfig } from '../lint/nodeFolder';
import { AGENT_MANIFEST, parseAgentManifest } from '../workspace/agentManifest';
import { NodeFileSystem } from '../workspace/fileSystem';
import { AgentMirror, OtherPlatformDataError } from '../workspace/mirror';
import { findTestFiles, readTestFile } from './testFiles';
import { type ModelFlags, modelOfRun, modelWords, NO_MODEL_FLAGS } from './testModel';

export interface CliToolContextOptions {
  /** The profile, credentials and transport every platform call uses. */
  readonly client: ClientContext;
  readonly connectionName: string;
  /** The folder agent folders are looked for in, and relative paths are read from. */
  readonly workspace: string;
  /** Every secret of the run: the redactor masks them in every answer. */
  readonly secrets: readonly string[];
  /** The Chat targets of the run (`local`, or the environment of the Chat keys) and how each reaches a case's agent. */
  readonly chatTargets: ReadonlyMap<string, (reach: Pick<TestCase, 'agent' | 'environment'>) => CaseTarget>;
  /**
   * The server runs a local platform of its own, started with it: a folder whose base does not record that
   * platform's data is refused too, since it cannot have been read from it.
   */
  readonly ownLocalPlatform?: boolean;
  /** The model flags (`--model-base-url`, `--model`, `--cassette`, the caps); without them nothing is judged. */
  readonly model?: ModelFlags;
}

const slash = (p: string): string => p.split(sep).join('/');

/**
 * The assistant tools' context on the command line: the platform through src/client with the run's profile, agent
 * folders found under the workspace folder and read by src/workspace, the checks and conversation tests run in
 * this process.
 */
export class CliToolContext implements ToolContext {
  readonly connectionName: string;
  private readonly redactor = new Redactor();
  private readonly agents: AgentsClient;
  private readonly alerts: AlertsClient;
  private readonly conversationsClient: ConversationsClient;
  private readonly concurrencyClient: ConcurrencyClient;

  constructor(private readonly options: CliToolContextOptions) {
    this.connectionName = options.connectionName;
    this.redactor.add(...options.secrets);
    this.agents = new AgentsClient(options.client);
    this.alerts = new AlertsClient(options.client);
    this.conversationsClient = new ConversationsClient(options.client);
    this.concurrencyClient = new ConcurrencyClient(options.client);
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  async agentFolders(): Promise<readonly AgentFolder[]> {
    const root = this.options.workspace;
    const found: AgentFolder[] = [];
    for (const path of await findAgentFolders(root)) {
      const text = await readFile(join(path, AGENT_MANIFEST), 'utf8').catch(() => undefined);
      const manifest = text === undefined ? undefined : parseAgentManifest(text);
      if (!manifest) continue;
      found.push({
        path,
        label: slash(relative(root, path)) || '.',
        manifest,
        sameConnection: manifest.profile === this.options.client.profile.id,
      });
    }
    return found;
  }

  /**
   * The folder's mirror, which knows which data the platform holds (the local platform's data id): a folder read
   * from other data is neither pulled nor pushed, nor compared with this platform.
   */
  private mirror(path: string): AgentMirror {
    const profile = this.options.client.profile;
    return new AgentMirror(new NodeFileSystem(path), this.agents, {
      platformData: (signal) => profilePlatformData(profile, signal),
      refuseUnrecorded: this.options.ownLocalPlatform === true,
    });
  }

  /** The mirror's refusal of a folder read from other data, with what this server can do about it. */
  private async guarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof OtherPlatformDataError)) throw err;
      throw new Error(
        `${err.message} ${
          this.options.ownLocalPlatform
            ? 'This MCP server runs a local platform of its own, started with it, because no local platform of the editor answered: start the local platform in the editor (Agent Workbench: Start Local Platform), then restart this server, which then uses it; or name one with --local-url.'
            : `This server uses ${this.connectionName}.`
        }`,
        { cause: err },
      );
    }
  }

  async folderStatus(path: string, remote: boolean, signal?: AbortSignal) {
    const mirror = this.mirror(path);
    return this.guarded(async () => {
      if (remote) await mirror.checkPlatformData(signal);
      return mirror.status({ remote, ...(signal ? { signal } : {}) });
    });
  }

  pull(path: string, signal?: AbortSignal) {
    return this.guarded(() => this.mirror(path).pull(signal));
  }

  push(path: string, signal?: AbortSignal) {
    return this.guarded(() => this.mirror(path).push(signal));
  }

  async listAgents(signal?: AbortSignal): Promise<readonly Agent[]> {
    const out: Agent[] = [];
    for await (const agent of this.agents.allAgents({}, signal ? { signal } : {})) out.push(agent);
    return out;
  }

  agent(agentId: string, signal?: AbortSignal) {
    return this.agents.getAgent(agentId, signal);
  }

  branches(agentId: string, signal?: AbortSignal) {
    return this.agents.listBranches(agentId, signal);
  }

  deployments(agentId: string, signal?: AbortSignal) {
    return this.agents.listDeployments(agentId, undefined, signal);
  }

  numbers(agentId: string, signal?: AbortSignal) {
    return this.agents.listPhoneNumbers(agentId, undefined, signal);
  }

  conversations(query: Parameters<ToolContext['conversations']>[0], signal?: AbortSignal) {
    return this.conversationsClient.page(query, signal);
  }

  concurrency(query: Parameters<ToolContext['concurrency']>[0], signal?: AbortSignal) {
    return this.concurrencyClient.query(query, signal);
  }

  currentAlerts(signal?: AbortSignal) {
    return this.alerts.currentAlerts({}, signal);
  }

  chatTargets(): readonly string[] {
    return [...this.options.chatTargets.keys()];
  }

  async chat(request: ChatRequest): Promise<CaseTarget> {
    const reach = this.options.chatTargets.get(request.target);
    if (!reach) return { skip: `${request.target} is not a target of this connection` };
    return reach({
      ...(request.agentId !== undefined ? { agent: request.agentId } : {}),
      ...(request.environment !== undefined ? { environment: request.environment } : {}),
    });
  }

  async testFiles(paths: readonly string[]) {
    const root = this.options.workspace;
    const roots =
      paths.length > 0
        ? paths.map((p) => (isAbsolute(p) ? p : resolve(root, p)))
        : (await this.agentFolders()).map((f) => f.path);
    if (roots.length === 0) return [];
    return findTestFiles(roots).map((file) => readTestFile(file, root));
  }

  async testModel(judged: readonly TestCase[]): Promise<ToolTestModel> {
    const flags = this.options.model;
    if (flags?.baseUrl === undefined) return { run: { none: NO_MODEL_FLAGS } };
    // The cases' files are named relative to the workspace folder, and so are their cassettes.
    const { run, calls } = modelOfRun(flags, process.env, this.options.workspace);
    if (!calls) return { run };
    return {
      run,
      said: modelWords(flags, judged, calls.modelId),
      finish: () =>
        calls.flush().then(
          () => undefined,
          (err: unknown) => `The cassettes could not be written: ${err instanceof Error ? err.message : String(err)}`,
        ),
    };
  }

  async diagnostics(path: string) {
    const { config } = await readLintConfig(path);
    return new LintSession().lint(await readAgentFolder(path), config, this.options.secrets);
  }

  publish(agentId: string, signal?: AbortSignal) {
    return this.agents.publish(agentId, 'sandbox', '', signal);
  }

  promote(agentId: string, deployment: { id: string; environment?: string; version?: string }, signal?: AbortSignal) {
    return this.agents.promote(
      agentId,
      deployment.id,
      {
        ...(deployment.environment !== undefined ? { environment: deployment.environment } : {}),
        ...(deployment.version !== undefined ? { version: deployment.version } : {}),
      },
      signal,
    );
  }

  createBranch(agentId: string, name: string, signal?: AbortSignal) {
    return this.agents.createBranch(agentId, name, signal);
  }
}
