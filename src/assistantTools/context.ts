import type { CaseTarget } from '../agentTests/runner';
import type { TestCase, TestFile } from '../agentTests/format';
import type { RunModel } from '../agentTests/judging';
import type { Agent, Branch, CreatedBranch, Deployment, DeploymentActionResult, PhoneNumber } from '../contract/agents';
import type { CurrentAlert } from '../contract/alerts';
import type { ConcurrencyQueryInput, ConcurrencyReply } from '../contract/concurrency';
import type { ConversationsPageV3, ConversationsQueryInput } from '../contract/conversations';
import type { Problem } from '../lint/problem';
import type { AgentManifest } from '../workspace/agentManifest';
import type { PullReport, PushReport } from '../workspace/mirror';
import type { FileStatus } from '../workspace/status';

/** An agent folder of the workspace (a folder with agent.json). */
export interface AgentFolder {
  /** Absolute path: what the folder methods below take. */
  readonly path: string;
  /** The path as a person names it: relative to the workspace, with forward slashes. */
  readonly label: string;
  readonly manifest: AgentManifest;
  /** False when the folder was checked out with another connection profile: the sync tools refuse it. */
  readonly sameConnection: boolean;
}

/** A deployment as a promotion names it (what is known of it beyond its id makes the messages precise). */
export interface DeploymentRef {
  readonly id: string;
  readonly environment?: string;
  readonly version?: string;
}

/** Where the Chat API is reached: `local` (the local platform) or an environment whose Chat key the connection has. */
export interface ChatRequest {
  readonly target: string;
  /** The agent the conversation is with (a case's agent, or the tool's input), when named. */
  readonly agentId?: string;
  /** The only environment a conversation test runs against, when it names one. */
  readonly environment?: string;
}

/**
 * What the assistant tools reach the platform, the workspace and the engines through. The editor implements it on
 * its model (src/ui/model: reads served and writes invalidated there, pull and push through Source Control) and
 * the command line on src/client and src/workspace directly (src/cli/mcp). Every method:
 * - throws the platform's own error (`PlatformError`, whose message is the sentence the person sees) or an `Error`
 *   whose message says what to do; the tools turn it into their answer, never a stack;
 * - stops when `signal` aborts, where it takes one;
 * - returns what the platform or the files hold, unshortened: the tools page and truncate their answers.
 *
 * - `connectionName`: the connection profile the tools act with, in the person's words ("Local platform").
 * - `redact(text)`: `text` with every secret the connection knows masked (keys, tokens, and what the redactor of
 *   src/core/redact.ts finds by shape); each answer passes it, and input holding a secret is refused with it.
 * - `agentFolders()`: every agent folder of the workspace (agent.json), as the editor's index or a folder scan finds.
 * - `folderStatus(path, remote)`: the file mirror's status of one folder (`AgentMirror.status`); with `remote` the
 *   platform is read too, so a file changed there shows as modifiedRemotely or conflict.
 * - `pull(path)`, `push(path)`: the file mirror's pull and push of one folder (`AgentMirror.pull`, `.push`), with
 *   what the editor does around them (Source Control refreshed, the model's documents forgotten).
 * - `listAgents()`, `agent(id)`, `branches(id)`, `deployments(id)`, `numbers(id)`: the Agents API reads
 *   (`AgentsClient.listAgents` walked to the end, `getAgent`, `listBranches`, `listDeployments`, `listPhoneNumbers`).
 * - `conversations(query)`: one page of the Conversations API v3 (`ConversationsClient.page`).
 * - `concurrency(query)`: the Concurrent Calls API (`ConcurrencyClient.query`).
 * - `currentAlerts()`: GET /v1/alerts (`AlertsClient.currentAlerts`).
 * - `chatTargets()`: the names `chat` accepts as `target`, first the one to use when none is named.
 * - `chat(request)`: the Chat API of `request.target` reaching `request.agentId`, or `{ skip }` saying why not
 *   (another agent's keys, another environment, no Chat key); the same reach conversation tests use.
 * - `testFiles(paths)`: the conversation test files (tests/*.yaml; in the editor, those of the setting
 *   agentWorkbench.tests.include, as the Testing view lists them) at or below each path (absolute, or relative to
 *   the workspace), or of every agent folder when `paths` is empty, each read with its problems
 *   (agentTests/parse); a case naming no agent reaches its folder's agent.
 * - `diagnostics(path)`: the checks of one agent folder (src/lint, with the folder's lint.json and the connection's
 *   credentials), paths relative to the folder.
 * - `publish(agentId)`: publishes main's draft to sandbox; `promote(agentId, deployment)`: one step towards live;
 *   `createBranch(agentId, name)`. Each tells the editor's model what changed.
 */
export interface ToolContext {
  readonly connectionName: string;
  redact(text: string): string;

  agentFolders(signal?: AbortSignal): Promise<readonly AgentFolder[]>;
  folderStatus(path: string, remote: boolean, signal?: AbortSignal): Promise<readonly FileStatus[]>;
  pull(path: string, signal?: AbortSignal): Promise<PullReport>;
  push(path: string, signal?: AbortSignal): Promise<PushReport>;

  listAgents(signal?: AbortSignal): Promise<readonly Agent[]>;
  agent(agentId: string, signal?: AbortSignal): Promise<Agent>;
  branches(agentId: string, signal?: AbortSignal): Promise<readonly Branch[]>;
  deployments(agentId: string, signal?: AbortSignal): Promise<readonly Deployment[]>;
  numbers(agentId: string, signal?: AbortSignal): Promise<readonly PhoneNumber[]>;

  conversations(query: ConversationsQueryInput, signal?: AbortSignal): Promise<ConversationsPageV3>;
  concurrency(query: ConcurrencyQueryInput, signal?: AbortSignal): Promise<ConcurrencyReply>;
  currentAlerts(signal?: AbortSignal): Promise<readonly CurrentAlert[]>;

  chatTargets(): readonly string[];
  chat(request: ChatRequest): Promise<CaseTarget>;
  testFiles(paths: readonly string[], signal?: AbortSignal): Promise<readonly TestFile[]>;
  /**
   * The model of a test run's judged criteria and simulated callers, as the person set it (the editor's settings, or
   * the command line's flags), priced before it spends; `none` says why there is none (they are then not judged).
   */
  testModel(judged: readonly TestCase[], signal?: AbortSignal): Promise<ToolTestModel>;
  diagnostics(path: string, signal?: AbortSignal): Promise<readonly Problem[]>;

  publish(agentId: string, signal?: AbortSignal): Promise<DeploymentActionResult>;
  promote(agentId: string, deployment: DeploymentRef, signal?: AbortSignal): Promise<DeploymentActionResult>;
  createBranch(agentId: string, name: string, signal?: AbortSignal): Promise<CreatedBranch>;
}

/** A test run's model, for an assistant's run: what it is, what was said before it spent, and its end. */
export interface ToolTestModel {
  readonly run: RunModel;
  /** Said in the answer before the results: the estimate, or that the answers come from the cassettes. */
  readonly said?: string;
  /** After the run: the cassettes written; what to say when they could not be. */
  finish?(): Promise<string | undefined>;
}
