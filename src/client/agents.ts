import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { z } from 'zod';
import {
  type Agent,
  agentSchema,
  type Behavior,
  behaviorSchema,
  type Branch,
  branchSchema,
  type CreateAgentRequest,
  createAgentRequestSchema,
  type CreateAgentResponse,
  createAgentResponseSchema,
  type CreatedBranch,
  createdBranchSchema,
  type CreatedTopic,
  createdTopicSchema,
  createBranchRequestSchema,
  type CreateTopicRequest,
  createTopicRequestSchema,
  type Deployment,
  type DeploymentActionResult,
  deploymentActionResultSchema,
  deploymentSchema,
  E164_PATTERN,
  type ImportPhoneNumbersRequest,
  importPhoneNumbersRequestSchema,
  type ImportPhoneNumbersResponse,
  importPhoneNumbersResponseSchema,
  type ListAgentsQuery,
  listAgentsQuerySchema,
  type ListAgentsResponse,
  listAgentsResponseSchema,
  listBranchesResponseSchema,
  listDeploymentsResponseSchema,
  listPhoneNumbersResponseSchema,
  listRealtimeConfigsResponseSchema,
  listTopicsResponseSchema,
  type MergeConflict,
  mergeConflictBodySchema,
  type MergeResolution,
  mergeRequestSchema,
  type MergeResult,
  mergeResultSchema,
  type PhoneNumber,
  promoteRequestSchema,
  publishRequestSchema,
  type RealtimeConfig,
  realtimeConfigSchema,
  rollbackRequestSchema,
  type Topic,
  topicSchema,
  updatedTopicSchema,
  type UpdatedVariables,
  updatedVariablesSchema,
  type UpdateTopicRequest,
  updateTopicRequestSchema,
  updateVariablesRequestSchema,
  updateBehaviorRequestSchema,
} from '../contract/agents';
import { type Environment, environmentSchema, isEnvironment } from '../contract/common';
import type { ClientContext } from './context';
import { type Assumption, PlatformError } from './errors';
import { items, pagesByOffset } from './paging';
import { type AssumedEndpoint, encodePath, type FamilyCall } from './transport';
import { requireIds, validateInput } from './validate';

const AGENTS_AUTH_HEADER = 'x-api-key';

/** Endpoints the spec does not show (rows of docs/api-assumptions.md, Agents API). */
const ASSUMED = {
  listAgents: { row: 'List agents: not shown', manualPath: 'Enter the agent id by hand instead.' },
  getAgent: { row: 'Get agent: not shown', manualPath: 'Check the agent id, or open the agent in the studio.' },
  branches: { row: 'List and get branches: not shown', manualPath: 'Enter the branch id by hand instead.' },
  behavior: { row: 'Behavior read: not shown', manualPath: 'Copy the behavior from the studio into behavior.md.' },
  topics: {
    row: 'List, get, update and delete of topics: not shown',
    manualPath: 'Edit the topic in the studio instead.',
  },
  deployments: { row: 'List and get deployments: not shown', manualPath: 'Look up the deployment id in the studio.' },
  configs: {
    row: 'Allowed values of {config}: not shown; config records: not shown',
    manualPath: 'Enter the config name by hand instead.',
  },
} as const satisfies Record<string, Assumption>;

/** An assumed endpoint whose path names one resource: its 404 means that resource, not the endpoint. */
const item = (assumption: Assumption): AssumedEndpoint => ({ ...assumption, item: true });

/** The next environment of a promotion, for messages (one step per call, see docs/api-assumptions.md). */
const NEXT_ENVIRONMENT: Record<Environment, Environment | undefined> = {
  sandbox: 'pre-release',
  'pre-release': 'live',
  live: undefined,
};

/** The outcome of a merge: either main has the branch, or the diverged fields to resolve. */
export type MergeOutcome =
  | { merged: true; result: MergeResult }
  | {
      merged: false;
      /** One row per diverged field: ours is main, theirs the branch. Answer each with a resolution. */
      conflicts: MergeConflict[];
      /** The platform's words. */
      message: string;
      error: PlatformError;
    };

export interface MergeOptions {
  /** Answers to the conflicts of an earlier attempt; the merge stays refused while any remains. */
  resolutions?: MergeResolution[];
  /** The branch name, for messages. */
  branchName?: string;
}

/** What the caller knows about a deployment, so messages read "Promote release 3 from sandbox to pre-release". */
export interface DeploymentContext {
  /** Sent only when a person gave one (the spec's promote body is none). */
  deploymentMessage?: string;
  version?: string;
  /** As the deployment names it; an environment this client does not know is kept as text. */
  environment?: string;
}

/**
 * Agents API (build and deploy). Reads and idempotent changes (PATCH, DELETE) are retried on
 * transient failures; creating, merging, deploying and importing are sent once, because a
 * repeat would act twice.
 */
export class AgentsClient {
  constructor(private readonly ctx: ClientContext) {}

  // ---- agents ----

  /** One page of agents, sorted by name; `nextOffset` is null on the last page. */
  async listAgents(query: ListAgentsQuery = {}, signal?: AbortSignal): Promise<ListAgentsResponse> {
    const operation = query.name ? `List agents named like "${query.name}"` : 'List agents';
    const q = validateInput(listAgentsQuerySchema, query, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: '/v1/agents',
      query: q,
      schema: listAgentsResponseSchema,
      retry: 'safe',
      assumption: ASSUMED.listAgents,
      signal,
    });
  }

  /** Every agent of the workspace, page by page (the filter stays the same on every page). */
  allAgents(
    query: Omit<ListAgentsQuery, 'offset'> = {},
    opts: { signal?: AbortSignal; maxPages?: number } = {},
  ): AsyncGenerator<Agent, void, void> {
    const pages = pagesByOffset(async (offset) => {
      const page = await this.listAgents({ ...query, offset }, opts.signal);
      return { items: page.agents, nextOffset: page.nextOffset ?? undefined };
    }, opts);
    return items(pages);
  }

  async getAgent(agentId: string, signal?: AbortSignal): Promise<Agent> {
    const operation = `Open agent ${agentId}`;
    requireIds({ agentId }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}`,
      schema: agentSchema,
      retry: 'safe',
      assumption: item(ASSUMED.getAgent),
      signal,
    });
  }

  /** Creates an agent with its default branch main (name 1 to 128 characters, checked before sending). */
  async createAgent(request: CreateAgentRequest, signal?: AbortSignal): Promise<CreateAgentResponse> {
    const operation = `Create agent${quoted(request.name)}`;
    const body = validateInput(createAgentRequestSchema, request, 'agents', operation);
    return this.send({
      operation,
      method: 'POST',
      path: '/v1/agents',
      body,
      fill: { name: body.name, description: body.description },
      schema: createAgentResponseSchema,
      retry: 'never',
      signal,
    });
  }

  // ---- branches ----

  /** Branches of an agent, main first. */
  async listBranches(agentId: string, signal?: AbortSignal): Promise<Branch[]> {
    const operation = `List the branches of agent ${agentId}`;
    requireIds({ agentId }, 'agents', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/branches`,
      schema: listBranchesResponseSchema,
      retry: 'safe',
      assumption: ASSUMED.branches,
      signal,
    });
    return res.branches;
  }

  async getBranch(agentId: string, branchId: string, signal?: AbortSignal): Promise<Branch> {
    const operation = `Open branch ${branchId}`;
    requireIds({ agentId, branchId }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}`,
      schema: branchSchema,
      retry: 'safe',
      assumption: item(ASSUMED.branches),
      signal,
    });
  }

  /** The new branch; its `branchId` is missing when the platform did not say it (list the branches to find it). */
  async createBranch(agentId: string, name: string, signal?: AbortSignal): Promise<CreatedBranch> {
    const operation = `Create branch${quoted(name)}`;
    requireIds({ agentId }, 'agents', operation);
    const body = validateInput(createBranchRequestSchema, { name }, 'agents', operation);
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/branches`,
      body,
      fill: { name: body.name },
      schema: createdBranchSchema,
      retry: 'never',
      signal,
    });
  }

  /**
   * Merges a branch into main. A 409 with conflict rows comes back as `{merged: false, conflicts}`
   * so a person can choose per field and merge again with resolutions; other failures throw.
   */
  async merge(agentId: string, branchId: string, opts: MergeOptions = {}, signal?: AbortSignal): Promise<MergeOutcome> {
    const resolutions = opts.resolutions ?? [];
    const what = `Merge branch ${opts.branchName ?? branchId} into main`;
    const operation = resolutions.length > 0 ? `${what} with ${resolutions.length} resolution(s)` : what;
    requireIds({ agentId, branchId }, 'agents', operation);
    // The spec's merge body is none: resolutions (ours) go out only when there are some.
    const body =
      resolutions.length > 0 ? validateInput(mergeRequestSchema, { resolutions }, 'agents', operation) : undefined;
    try {
      const result = await this.send({
        operation,
        method: 'POST',
        path: encodePath`/v1/agents/${agentId}/branches/${branchId}/merge`,
        body,
        schema: mergeResultSchema,
        retry: 'never',
        signal,
      });
      return { merged: true, result };
    } catch (err) {
      if (err instanceof PlatformError && err.status === 409) {
        const parsed = mergeConflictBodySchema.safeParse(err.body);
        if (parsed.success && parsed.data.conflicts.length > 0)
          return { merged: false, conflicts: parsed.data.conflicts, message: parsed.data.message, error: err };
      }
      throw err;
    }
  }

  // ---- behavior and knowledge-base topics (branch-scoped) ----

  async getBehavior(agentId: string, branchId: string, signal?: AbortSignal): Promise<Behavior> {
    const operation = `Read the behavior of branch ${branchId}`;
    requireIds({ agentId, branchId }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/behavior`,
      schema: behaviorSchema,
      retry: 'safe',
      assumption: ASSUMED.behavior,
      signal,
    });
  }

  async updateBehavior(agentId: string, branchId: string, behavior: string, signal?: AbortSignal): Promise<Behavior> {
    const operation = `Save the behavior of branch ${branchId}`;
    requireIds({ agentId, branchId }, 'agents', operation);
    const body = validateInput(updateBehaviorRequestSchema, { behavior }, 'agents', operation);
    return this.send({
      operation,
      method: 'PATCH',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/behavior`,
      body,
      fill: { behavior: body.behavior, branchId },
      schema: behaviorSchema,
      retry: 'safe',
      signal,
    });
  }

  async listTopics(agentId: string, branchId: string, signal?: AbortSignal): Promise<Topic[]> {
    const operation = `List the knowledge-base topics of branch ${branchId}`;
    requireIds({ agentId, branchId }, 'agents', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`,
      schema: listTopicsResponseSchema,
      retry: 'safe',
      assumption: ASSUMED.topics,
      signal,
    });
    return res.topics;
  }

  async getTopic(agentId: string, branchId: string, topicId: string, signal?: AbortSignal): Promise<Topic> {
    const operation = `Open topic ${topicId}`;
    requireIds({ agentId, branchId, topicId }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`,
      schema: topicSchema,
      retry: 'safe',
      assumption: item(ASSUMED.topics),
      signal,
    });
  }

  /** The new topic; its `topicId` is missing when the platform did not say it (list the topics to find it). */
  async createTopic(
    agentId: string,
    branchId: string,
    topic: CreateTopicRequest,
    signal?: AbortSignal,
  ): Promise<CreatedTopic> {
    const operation = `Create topic${quoted(topic.name)}`;
    requireIds({ agentId, branchId }, 'agents', operation);
    const body = validateInput(createTopicRequestSchema, topic, 'agents', operation);
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`,
      body,
      fill: { ...body, branchId },
      schema: createdTopicSchema,
      retry: 'never',
      signal,
    });
  }

  /** Sends only what changed: name, content or both. */
  async updateTopic(
    agentId: string,
    branchId: string,
    topicId: string,
    change: UpdateTopicRequest,
    signal?: AbortSignal,
  ): Promise<Topic> {
    const operation = `Save topic${quoted(change.name) || ` ${topicId}`}`;
    requireIds({ agentId, branchId, topicId }, 'agents', operation);
    const body = validateInput(updateTopicRequestSchema, change, 'agents', operation);
    return this.send({
      operation,
      method: 'PATCH',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`,
      body,
      fill: { ...body, topicId },
      schema: updatedTopicSchema,
      retry: 'safe',
      assumption: item(ASSUMED.topics),
      signal,
    });
  }

  async deleteTopic(agentId: string, branchId: string, topicId: string, signal?: AbortSignal): Promise<void> {
    const operation = `Delete topic ${topicId}`;
    requireIds({ agentId, branchId, topicId }, 'agents', operation);
    await this.send({
      operation,
      method: 'DELETE',
      path: encodePath`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`,
      schema: undefined,
      retry: 'safe',
      assumption: item(ASSUMED.topics),
      signal,
    });
  }

  // ---- deployments (never retried: each action makes a release or moves one) ----

  /** Deployments newest first, optionally of one environment. */
  async listDeployments(agentId: string, environment?: Environment, signal?: AbortSignal): Promise<Deployment[]> {
    const operation = environment
      ? `List the ${environment} deployments of agent ${agentId}`
      : `List the deployments of agent ${agentId}`;
    requireIds({ agentId }, 'agents', operation);
    if (environment !== undefined) validateInput(environmentSchema, environment, 'agents', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/deployments`,
      query: { environment },
      schema: listDeploymentsResponseSchema,
      retry: 'safe',
      assumption: ASSUMED.deployments,
      signal,
    });
    return res.deployments;
  }

  async getDeployment(agentId: string, deploymentId: string, signal?: AbortSignal): Promise<Deployment> {
    const operation = `Open deployment ${deploymentId}`;
    requireIds({ agentId, deploymentId }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/deployments/${deploymentId}`,
      schema: deploymentSchema,
      retry: 'safe',
      assumption: item(ASSUMED.deployments),
      signal,
    });
  }

  /** Publishes main's current draft (to sandbox; later environments are reached by promoting). The message goes out only when given. */
  async publish(
    agentId: string,
    environment: Environment = 'sandbox',
    deploymentMessage = '',
    signal?: AbortSignal,
  ): Promise<DeploymentActionResult> {
    const operation = `Publish to ${environment}`;
    requireIds({ agentId }, 'agents', operation);
    const body = validateInput(
      publishRequestSchema,
      { environment, ...(deploymentMessage !== '' ? { deploymentMessage } : {}) },
      'agents',
      operation,
    );
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/deployments/publish`,
      body,
      schema: deploymentActionResultSchema,
      retry: 'never',
      signal,
    });
  }

  async promote(
    agentId: string,
    deploymentId: string,
    context: DeploymentContext = {},
    signal?: AbortSignal,
  ): Promise<DeploymentActionResult> {
    const next = isEnvironment(context.environment) ? NEXT_ENVIRONMENT[context.environment] : undefined;
    const operation = `Promote ${describeDeployment(deploymentId, context)}${context.environment && next ? ` from ${context.environment} to ${next}` : ''}`;
    requireIds({ agentId, deploymentId }, 'agents', operation);
    // The spec's promote body is none: a body goes out only with a message the person gave.
    const message = context.deploymentMessage ?? '';
    const body =
      message !== ''
        ? validateInput(promoteRequestSchema, { deploymentMessage: message }, 'agents', operation)
        : undefined;
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/deployments/${deploymentId}/promote`,
      body,
      schema: deploymentActionResultSchema,
      retry: 'never',
      signal,
    });
  }

  async rollback(
    agentId: string,
    deploymentId: string,
    context: DeploymentContext = {},
    signal?: AbortSignal,
  ): Promise<DeploymentActionResult> {
    const operation = `Roll back ${describeDeployment(deploymentId, context)}${context.environment ? ` in ${context.environment}` : ''}`;
    requireIds({ agentId, deploymentId }, 'agents', operation);
    const body = validateInput(
      rollbackRequestSchema,
      { deploymentMessage: context.deploymentMessage ?? '' },
      'agents',
      operation,
    );
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/deployments/${deploymentId}/rollback`,
      body,
      schema: deploymentActionResultSchema,
      retry: 'never',
      signal,
    });
  }

  // ---- real-time configs ----

  async listRealtimeConfigs(agentId: string, signal?: AbortSignal): Promise<RealtimeConfig[]> {
    const operation = `List the real-time configs of agent ${agentId}`;
    requireIds({ agentId }, 'agents', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/real-time-configs`,
      schema: listRealtimeConfigsResponseSchema,
      retry: 'safe',
      assumption: ASSUMED.configs,
      signal,
    });
    return res.configs;
  }

  async getRealtimeConfig(agentId: string, config: string, signal?: AbortSignal): Promise<RealtimeConfig> {
    const operation = `Open real-time config ${config}`;
    requireIds({ agentId, config }, 'agents', operation);
    return this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/real-time-configs/${config}`,
      schema: realtimeConfigSchema,
      retry: 'safe',
      assumption: item(ASSUMED.configs),
      signal,
    });
  }

  /**
   * Sets runtime values at once, without publishing: each named variable is set, null removes it.
   * Values the config's JSON Schema refuses come back as a 422 whose fieldErrors name each one.
   */
  async updateVariables(
    agentId: string,
    config: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<UpdatedVariables> {
    const operation = `Save the variables of real-time config ${config}`;
    requireIds({ agentId, config }, 'agents', operation);
    const body = validateInput(updateVariablesRequestSchema, { variables }, 'agents', operation);
    return this.send({
      operation,
      method: 'PATCH',
      path: encodePath`/v1/agents/${agentId}/real-time-configs/${config}/variables`,
      body,
      fill: { variables: body.variables },
      schema: updatedVariablesSchema,
      retry: 'safe',
      signal,
    });
  }

  // ---- telephony ----

  async listPhoneNumbers(agentId: string, connectorId?: string, signal?: AbortSignal): Promise<PhoneNumber[]> {
    const operation = `List the phone numbers of agent ${agentId}`;
    requireIds({ agentId }, 'agents', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: encodePath`/v1/agents/${agentId}/telephony/phone-numbers`,
      query: { connectorId },
      schema: listPhoneNumbersResponseSchema,
      retry: 'safe',
      signal,
    });
    return res.phoneNumbers;
  }

  /** Imports numbers; each must be E.164 (checked before sending, nothing is sent otherwise). */
  async importPhoneNumbers(
    agentId: string,
    request: ImportPhoneNumbersRequest,
    signal?: AbortSignal,
  ): Promise<ImportPhoneNumbersResponse> {
    const count = Array.isArray(request.phoneNumbers) ? request.phoneNumbers.length : 0;
    const operation = `Import ${count} phone number${count === 1 ? '' : 's'}`;
    requireIds({ agentId }, 'agents', operation);
    const body = validateInput(importPhoneNumbersRequestSchema, request, 'agents', operation);
    const fieldErrors = body.phoneNumbers.flatMap((n, i) =>
      E164_PATTERN.test(n) ? [] : [{ field: `phoneNumbers[${i}]`, message: notE164(n) }],
    );
    if (fieldErrors.length > 0)
      throw new PlatformError({ family: 'agents', kind: 'invalidInput', operation, fieldErrors });
    return this.send({
      operation,
      method: 'POST',
      path: encodePath`/v1/agents/${agentId}/telephony/phone-numbers`,
      body,
      schema: importPhoneNumbersResponseSchema,
      retry: 'never',
      signal,
    });
  }

  private async send<S extends z.ZodType | undefined>(
    call: FamilyCall<S>,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const key = await this.ctx.credential('agentsApiKey', 'agents', call.operation);
    const res = await this.ctx.transport.request({
      ...call,
      family: 'agents',
      baseUrl: this.ctx.base('build'),
      headers: { [AGENTS_AUTH_HEADER]: key },
    });
    return res.body as S extends z.ZodType ? z.output<S> : undefined;
  }
}

function describeDeployment(deploymentId: string, context: DeploymentContext): string {
  return context.version !== undefined ? `release ${context.version}` : `deployment ${deploymentId}`;
}

function notE164(n: string): string {
  const parsed = parsePhoneNumberFromString(n);
  if (parsed?.isValid()) return `must be in E.164 form, for example ${parsed.number}`;
  return 'must be in E.164 form: +, the country code and the number, no spaces';
}

/** ` "name"` for operation names, or nothing when the name is empty or not text (it is then refused anyway). */
function quoted(name: unknown): string {
  return typeof name === 'string' && name.trim() !== ''
    ? ` "${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`
    : '';
}
