import type { Deployment, DeploymentActionResult } from '../../contract/agents';
import { isEnvironment } from '../../contract/environments';
import type { DeploymentRef, ToolContext } from '../context';
import { failureText } from '../failure';
import { defineTool } from '../tool';
import { AGENT_ID_PROPERTY, lines, resolveAgentId } from './common';

const NEXT: Record<string, string | undefined> = { sandbox: 'pre-release', 'pre-release': 'live', live: undefined };

/** The agent's name for messages, or its id where the record cannot be read. */
async function agentName(context: ToolContext, agentId: string, signal?: AbortSignal): Promise<string> {
  const plain = await plainName(context, agentId, signal);
  return plain === agentId ? agentId : `${plain} (${agentId})`;
}

/** The agent's name as the person types it to confirm a change to live; its id where the name cannot be read. */
async function plainName(context: ToolContext, agentId: string, signal?: AbortSignal): Promise<string> {
  try {
    return (await context.agent(agentId, signal)).name;
  } catch {
    return agentId;
  }
}

function resultLines(verb: string, r: DeploymentActionResult): string {
  const d = r.deployment;
  return lines(
    `${verb}: deployment ${d.id}, version ${d.version}, now in ${d.environment} (artifact ${d.artifactVersion}, by ${d.createdBy} at ${d.createdAt}).`,
    r.testRunIds.length > 0 && `Test runs the platform started: ${r.testRunIds.join(', ')}.`,
  );
}

export const publishTool = defineTool<{ agentId?: string }>({
  name: 'agentWorkbench_publishToSandbox',
  title: 'Publish to sandbox',
  description:
    "Publishes the agent's current draft (main) to sandbox, making a new deployment there. Later environments are reached by promoting that deployment (agentWorkbench_promote). Asks the person first.",
  kind: 'change',
  inputSchema: { type: 'object', properties: { agentId: AGENT_ID_PROPERTY }, additionalProperties: false },
  async describe(input, context, words, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    const name = await agentName(context, agentId, signal);
    return {
      title: words.t('Publish {0} to sandbox', name),
      message: words.t(
        'Publish the current draft of main of agent {0} to sandbox: sandbox will serve a new deployment made from it. Pre-release and live do not change.',
        name,
      ),
      live: false,
    };
  },
  async invoke(input, context, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    return resultLines(`Published agent ${agentId} to sandbox`, await context.publish(agentId, signal));
  },
});

/** What is known of a deployment: found among the agent's, or the id alone with why nothing more is known. */
async function findDeployment(
  context: ToolContext,
  agentId: string,
  deploymentId: string,
  signal?: AbortSignal,
): Promise<{ ref: DeploymentRef; found?: Deployment; unknown?: string }> {
  try {
    const found = (await context.deployments(agentId, signal)).find((d) => d.id === deploymentId);
    if (found) return { ref: { id: found.id, environment: found.environment, version: found.version }, found };
    return { ref: { id: deploymentId }, unknown: `deployment ${deploymentId} is not among the agent's deployments` };
  } catch (err) {
    return { ref: { id: deploymentId }, unknown: failureText(err, 'read') };
  }
}

export const promoteTool = defineTool<{ agentId?: string; deploymentId: string }>({
  name: 'agentWorkbench_promote',
  title: 'Promote a deployment',
  description:
    'Promotes one deployment one step towards live: from sandbox to pre-release, or from pre-release to live. Get the deployment id from agentWorkbench_agentDetails or from a publish. Promoting to live changes what callers reach: the person is always asked first.',
  kind: 'change',
  inputSchema: {
    type: 'object',
    properties: {
      agentId: AGENT_ID_PROPERTY,
      deploymentId: { type: 'string', minLength: 1, description: 'The deployment to promote (dep_…).' },
    },
    required: ['deploymentId'],
    additionalProperties: false,
  },
  async describe(input, context, words, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    const name = await agentName(context, agentId, signal);
    const { ref, unknown } = await findDeployment(context, agentId, input.deploymentId, signal);
    const next = ref.environment !== undefined ? NEXT[ref.environment] : undefined;
    const what = ref.version ? words.t('version {0} ({1})', ref.version, ref.id) : ref.id;
    return {
      title: next === 'live' ? words.t('Promote {0} to LIVE', name) : words.t('Promote {0}', name),
      message: lines(
        ref.environment && next
          ? words.t('Promote {0} of agent {1} from {2} to {3}.', what, name, ref.environment, next)
          : ref.environment
            ? words.t('Promote {0} of agent {1}, now in {2}.', what, name, ref.environment)
            : words.t('Promote deployment {0} of agent {1} one step towards live.', what, name),
        next === 'live' && words.t('Live callers will reach this version.'),
        unknown &&
          words.t(
            'Its environment could not be read ({0}), so it may be the step to live.',
            unknown.replace(/\.$/, ''),
          ),
      ),
      // Unknown where it goes is treated as live: it may be.
      live: next === 'live' || !isEnvironment(ref.environment),
      ...(next === 'live' || !isEnvironment(ref.environment)
        ? { typeName: await plainName(context, agentId, signal) }
        : {}),
    };
  },
  async invoke(input, context, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    const { ref } = await findDeployment(context, agentId, input.deploymentId, signal);
    return resultLines(`Promoted ${ref.id}`, await context.promote(agentId, ref, signal));
  },
});

export const createBranchTool = defineTool<{ agentId?: string; name: string }>({
  name: 'agentWorkbench_createBranch',
  title: 'Create a branch',
  description:
    'Creates a branch of the agent on the platform, to change its behavior and knowledge apart from main. Check the new branch out into a folder in the editor to edit it as files. Asks the person first.',
  kind: 'change',
  inputSchema: {
    type: 'object',
    properties: {
      agentId: AGENT_ID_PROPERTY,
      name: { type: 'string', minLength: 1, maxLength: 128, description: 'The name of the new branch.' },
    },
    required: ['name'],
    additionalProperties: false,
  },
  async describe(input, context, words, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    const name = await agentName(context, agentId, signal);
    return {
      title: words.t('Create branch {0}', input.name),
      message: words.t(
        'Create the branch "{0}" of agent {1} on the platform. No environment changes.',
        input.name,
        name,
      ),
      live: false,
    };
  },
  async invoke(input, context, signal) {
    const agentId = await resolveAgentId(context, input.agentId, signal);
    const branch = await context.createBranch(agentId, input.name, signal);
    return branch.branchId
      ? `Created branch ${branch.name} (${branch.branchId}) of agent ${agentId}.`
      : `Created branch ${branch.name} of agent ${agentId}; the platform's answer did not carry its id.`;
  },
});
