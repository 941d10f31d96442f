import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { buildErrorBodySchema, ENVIRONMENTS, environmentSchema, extra, extraOr, openEnum } from './common';

/**
 * Agents API (build and deploy), base {build_base_url}, prefix /v1/agents.
 * Answers require only what the spec shows; fields we chose (docs/api-assumptions.md, Agents rows)
 * are read with `extra`, so a platform without them (or with null) still parses. Answers to writes
 * that the spec describes only in words ("new branch", "topic") are filled by the client with what
 * it sent, so a created thing is known by its name even when the platform says nothing more.
 */

// ---- limits and identifier patterns (shared by the client, the UI and the local platform) ----

// Only the bounds the spec shows (agent name 1 to 128, at least 1 number per import) are here: the client
// checks them before sending. Limits the spec does not show are the local platform's own
// (src/localPlatform/ownLimits.ts) or this editor's (settings), never checked as the platform's.
import { AGENT_NAME_MAX, AGENT_NAME_MIN } from './agentLimits';

export { AGENT_NAME_MAX, AGENT_NAME_MIN, REALTIME_CONFIG_NAME_PATTERN } from './agentLimits';
export const PHONE_NUMBERS_MIN = 1;
export const AGENT_LIST_LIMIT_DEFAULT = 100;
export const AGENT_LIST_LIMIT_MAX = 1000;

export const AGENT_ID_PATTERN = /^ag_[A-Za-z0-9_]{1,64}$/;
export const BRANCH_ID_PATTERN = /^br_[A-Za-z0-9_]{1,64}$/;
export const TOPIC_ID_PATTERN = /^kt_[A-Za-z0-9_]{1,64}$/;
export const DEPLOYMENT_ID_PATTERN = /^dep_[A-Za-z0-9_]{1,64}$/;
/** E.164: a plus, a non-zero country digit, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;

/**
 * Why this editor does not send a number to import, or undefined when it does: numbers go out in E.164 form
 * (the spec shows no format for imports; numbers cannot be removed through the API, and one number written two
 * ways would be two records). Whether the number exists is the platform's to judge: a number in E.164 form is
 * sent even when libphonenumber-js does not know it (its tables lag behind new ranges).
 */
export function phoneNumberProblem(n: string): string | undefined {
  if (E164_PATTERN.test(n)) return undefined;
  const parsed = parsePhoneNumberFromString(n);
  return parsed?.isPossible()
    ? `write it as ${parsed.number}`
    : 'not in E.164 form (a +, the country code and the number)';
}

const agentName = z
  .string({ error: 'required, a string' })
  .min(AGENT_NAME_MIN, { error: `must be ${AGENT_NAME_MIN} to ${AGENT_NAME_MAX} characters` })
  .max(AGENT_NAME_MAX, { error: `must be ${AGENT_NAME_MIN} to ${AGENT_NAME_MAX} characters` });
const topicName = z.string({ error: 'required, a string' }).min(1, { error: 'must not be empty' });
const topicContent = z.string({ error: 'required, a string' });
const deploymentMessage = z.string({ error: 'must be a string' });

// ---- agents ----

export const createAgentRequestSchema = z.object({
  name: agentName,
  description: z.string({ error: 'must be a string' }).default(''),
  /** The project the agent is served under (slug or PROJECT-... form); the account's first project when absent. */
  projectId: z.string({ error: 'must be a string' }).min(1).optional(),
});
export type CreateAgentRequest = z.input<typeof createAgentRequestSchema>;

export const listAgentsQuerySchema = z.object({
  /** Case-insensitive part of the agent name. */
  name: z.string().optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be an integer' })
    .min(1, { error: `must be 1 to ${AGENT_LIST_LIMIT_MAX}` })
    .max(AGENT_LIST_LIMIT_MAX, { error: `must be 1 to ${AGENT_LIST_LIMIT_MAX}` })
    .default(AGENT_LIST_LIMIT_DEFAULT),
  offset: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be an integer' })
    .min(0, { error: 'must be 0 or more' })
    .default(0),
});
export type ListAgentsQuery = z.input<typeof listAgentsQuerySchema>;

const branchFields = {
  name: z.string(),
  agentId: extra(z.string()),
  /** True for the agent's default branch, main. */
  isDefault: extra(z.boolean()),
  createdAt: extra(z.string()),
  createdBy: extra(z.string()),
  updatedAt: extra(z.string()),
  updatedBy: extra(z.string()),
  mergedAt: extra(z.string().nullable()),
};

/** A branch as the assumed read endpoints give it: its id is what every later call needs. */
export const branchSchema = z.looseObject({ branchId: z.string(), ...branchFields });
export type Branch = z.infer<typeof branchSchema>;

/** The answer to creating a branch ("new branch", fields beyond the name not shown): the id may be missing. */
export const createdBranchSchema = z.looseObject({ branchId: extra(z.string()), ...branchFields });
export type CreatedBranch = z.infer<typeof createdBranchSchema>;

const agentFields = {
  description: extraOr(z.string(), ''),
  accountId: extra(z.string()),
  projectId: extra(z.string()),
  defaultBranchId: extra(z.string()),
  createdAt: extra(z.string()),
  createdBy: extra(z.string()),
  updatedAt: extra(z.string()),
};

export const agentSchema = z.looseObject({ agentId: z.string(), name: z.string(), ...agentFields });
export type Agent = z.infer<typeof agentSchema>;

/** "agentId and the default main branch": only agentId is certain; the client fills name and description from its request. */
export const createAgentResponseSchema = z.looseObject({
  agentId: z.string(),
  name: extraOr(z.string(), ''),
  ...agentFields,
  defaultBranch: extra(branchSchema),
});
export type CreateAgentResponse = z.infer<typeof createAgentResponseSchema>;

export const listAgentsResponseSchema = z.looseObject({
  agents: z.array(agentSchema),
  total: extra(z.number().int()),
  /** Offset of the next page; null on the last page. */
  nextOffset: extra(z.number().int().nullable()),
});
export type ListAgentsResponse = z.infer<typeof listAgentsResponseSchema>;

// ---- branches, behavior, knowledge-base topics ----

export const createBranchRequestSchema = z.object({
  name: z.string({ error: 'required, a string' }).min(1, { error: 'must not be empty' }),
});
export type CreateBranchRequest = z.input<typeof createBranchRequestSchema>;

export const listBranchesResponseSchema = z.looseObject({ branches: z.array(branchSchema) });
export type ListBranchesResponse = z.infer<typeof listBranchesResponseSchema>;

export const updateBehaviorRequestSchema = z.object({
  behavior: z.string({ error: 'required, a string' }),
});
export type UpdateBehaviorRequest = z.input<typeof updateBehaviorRequestSchema>;

export const behaviorSchema = z.looseObject({
  behavior: z.string(),
  branchId: extra(z.string()),
  updatedAt: extra(z.string()),
  updatedBy: extra(z.string()),
});
export type Behavior = z.infer<typeof behaviorSchema>;

export const createTopicRequestSchema = z.object({ name: topicName, content: topicContent });
export type CreateTopicRequest = z.input<typeof createTopicRequestSchema>;

export const updateTopicRequestSchema = z
  .object({ name: topicName.optional(), content: topicContent.optional() })
  .refine((b) => b.name !== undefined || b.content !== undefined, {
    error: 'send name, content or both',
    path: ['body'],
  });
export type UpdateTopicRequest = z.input<typeof updateTopicRequestSchema>;

const topicFields = {
  name: z.string(),
  content: z.string(),
  branchId: extra(z.string()),
  createdAt: extra(z.string()),
  createdBy: extra(z.string()),
  updatedAt: extra(z.string()),
  updatedBy: extra(z.string()),
};
export const topicSchema = z.looseObject({ topicId: z.string(), ...topicFields });
export type Topic = z.infer<typeof topicSchema>;
/** The answer to creating a topic ("topic", fields beyond name and content not shown): the id may be missing. */
export const createdTopicSchema = z.looseObject({ topicId: extra(z.string()), ...topicFields });
export type CreatedTopic = z.infer<typeof createdTopicSchema>;
/** The answer to a topic update (an assumed endpoint): the client fills the id and what it changed. */
export const updatedTopicSchema = topicSchema;

export const listTopicsResponseSchema = z.looseObject({ topics: z.array(topicSchema) });
export type ListTopicsResponse = z.infer<typeof listTopicsResponseSchema>;

// ---- merge ----

export const MERGE_STRATEGIES = ['ours', 'theirs', 'base'] as const;
export const mergeStrategySchema = z.enum(MERGE_STRATEGIES);
export type MergeStrategy = z.infer<typeof mergeStrategySchema>;

/** A topic as merges see it; null where the topic does not exist on that side. */
export const mergeTopicValueSchema = z.looseObject({ name: z.string(), content: z.string() });
/** A string for `behavior` and topic fields, a topic or null for a whole topic. */
export const mergeValueSchema = z.union([z.string(), mergeTopicValueSchema, z.null()]);
export type MergeValue = z.infer<typeof mergeValueSchema>;

/**
 * One diverged field: `ours` is main (the parent), `theirs` the branch. Paths: `behavior`,
 * `knowledge-base/topics/{topicId}` (added or deleted on a side), `.../{topicId}/name`, `.../{topicId}/content`.
 */
export const mergeConflictSchema = z.looseObject({
  path: z.string(),
  base: mergeValueSchema,
  ours: mergeValueSchema,
  theirs: mergeValueSchema,
});
export type MergeConflict = z.infer<typeof mergeConflictSchema>;

export const mergeResolutionSchema = z.object({
  path: z.string({ error: 'required, a conflict path' }),
  strategy: mergeStrategySchema,
  /** A value of one's own; when present it is the result and the strategy is only a note. */
  value: mergeValueSchema.optional(),
});
export type MergeResolution = z.infer<typeof mergeResolutionSchema>;

/** The spec's merge body is none; `resolutions` is ours and sent only when there are some. */
export const mergeRequestSchema = z.object({ resolutions: z.array(mergeResolutionSchema).optional() });
export type MergeRequest = z.input<typeof mergeRequestSchema>;

/** The 409 body of a merge whose state has diverged. */
export const mergeConflictBodySchema = buildErrorBodySchema.extend({ conflicts: z.array(mergeConflictSchema) });
export type MergeConflictBody = z.infer<typeof mergeConflictBodySchema>;

export const MERGE_CHANGE_KINDS = ['added', 'changed', 'deleted'] as const;
export const mergeChangeSchema = z.looseObject({
  path: z.string(),
  change: openEnum(MERGE_CHANGE_KINDS),
  /** `branch` for a change taken from the branch, `resolution` for a resolved conflict. */
  source: extra(z.string()),
});
export type MergeChange = z.infer<typeof mergeChangeSchema>;

/** "merge result", not shown: a 2xx means the branch is merged, whatever else the answer says. */
export const mergeResultSchema = z.looseObject({
  merged: extraOr(z.boolean(), true),
  branchId: extra(z.string()),
  mainBranchId: extra(z.string()),
  mergedAt: extra(z.string()),
  /** What changed on main. Empty when main already had everything. */
  changes: extra(z.array(mergeChangeSchema)),
  main: extra(branchSchema),
});
export type MergeResult = z.infer<typeof mergeResultSchema>;

// ---- deployments ----

/** The spec's body is `environment`; `deploymentMessage` is ours and sent only when a person gives one. */
export const publishRequestSchema = z.object({
  environment: environmentSchema,
  deploymentMessage: deploymentMessage.optional(),
});
export type PublishRequest = z.input<typeof publishRequestSchema>;
/** The spec's promote body is none; `deploymentMessage` is ours and sent only when a person gives one. */
export const promoteRequestSchema = z.object({ deploymentMessage: deploymentMessage.optional() });
export type PromoteRequest = z.input<typeof promoteRequestSchema>;
export const rollbackRequestSchema = z.object({ deploymentMessage: deploymentMessage.default('') });
export type RollbackRequest = z.input<typeof rollbackRequestSchema>;

export const deploymentSchema = z.looseObject({
  id: z.string(),
  accountId: z.string(),
  agentId: z.string(),
  environment: openEnum(ENVIRONMENTS),
  artifactVersion: z.string(),
  version: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  metadata: extraOr(z.record(z.string(), z.unknown()), {}),
  /** True while this deployment is what its environment serves. */
  active: extra(z.boolean()),
});
export type Deployment = z.infer<typeof deploymentSchema>;

/** testRunIds: rollback "may" return them; read as none when absent. */
export const deploymentActionResultSchema = z.looseObject({
  deployment: deploymentSchema,
  testRunIds: extraOr(z.array(z.string()), []),
});
export type DeploymentActionResult = z.infer<typeof deploymentActionResultSchema>;

export const listDeploymentsResponseSchema = z.looseObject({ deployments: z.array(deploymentSchema) });
export type ListDeploymentsResponse = z.infer<typeof listDeploymentsResponseSchema>;

// ---- real-time configs ----

export const updateVariablesRequestSchema = z.object({
  variables: z.record(z.string(), z.unknown(), { error: 'required, an object of runtime values' }),
});
export type UpdateVariablesRequest = z.input<typeof updateVariablesRequestSchema>;

/** "updated values": the client fills `variables` with what it sent when the answer does not list them. */
export const updatedVariablesSchema = z.looseObject({
  variables: z.record(z.string(), z.unknown()),
  name: extra(z.string()),
  updatedAt: extra(z.string()),
  updatedBy: extra(z.string()),
});
export type UpdatedVariables = z.infer<typeof updatedVariablesSchema>;

export const realtimeConfigSchema = updatedVariablesSchema.extend({
  name: z.string(),
  /** The JSON Schema the variables are checked against. */
  schema: z.record(z.string(), z.unknown()),
});
export type RealtimeConfig = z.infer<typeof realtimeConfigSchema>;

export const listRealtimeConfigsResponseSchema = z.looseObject({ configs: z.array(realtimeConfigSchema) });
export type ListRealtimeConfigsResponse = z.infer<typeof listRealtimeConfigsResponseSchema>;

// ---- telephony ----

export const phoneNumberSchema = z.looseObject({
  number: z.string(),
  projectId: z.string(),
  accountId: z.string(),
  clientEnv: z.string(),
  connectorId: z.string(),
});
export type PhoneNumber = z.infer<typeof phoneNumberSchema>;

export const listPhoneNumbersResponseSchema = z.looseObject({ phoneNumbers: z.array(phoneNumberSchema) });
export type ListPhoneNumbersResponse = z.infer<typeof listPhoneNumbersResponseSchema>;

export const importPhoneNumbersRequestSchema = z.object({
  phoneNumbers: z
    .array(z.string({ error: 'must be a string' }), { error: 'required, a list of phone numbers' })
    .min(PHONE_NUMBERS_MIN, { error: `must hold at least ${PHONE_NUMBERS_MIN} number` }),
  clientEnv: environmentSchema.default('live'),
  /** The telephony connector the numbers route through; the agent's voice connector of clientEnv when absent. */
  connectorId: z.string().min(1).optional(),
});
export type ImportPhoneNumbersRequest = z.input<typeof importPhoneNumbersRequestSchema>;

export const SKIP_REASONS = ['duplicate', 'already-imported', 'taken'] as const;
export const importPhoneNumbersResponseSchema = z.looseObject({
  imported: z.array(z.string()),
  /** Numbers not imported and why: repeated in the request, already on this agent, or on another agent. */
  skipped: extra(z.array(z.looseObject({ number: z.string(), reason: z.string() }))),
});
export type ImportPhoneNumbersResponse = z.infer<typeof importPhoneNumbersResponseSchema>;
