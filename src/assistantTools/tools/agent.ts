import { isMain } from '../../client/mainBranch';
import type { Deployment } from '../../contract/agents';
import { soleItem } from '../../core/arrays';
import { ENVIRONMENTS } from '../../contract/environments';
import type { ToolContext } from '../context';
import { failureText } from '../failure';
import { pageOf } from '../output';
import { defineTool } from '../tool';
import { AGENT_ID_PROPERTY, lines, limitProperty, OFFSET_PROPERTY } from './common';

/** One part of an answer read on its own: a part the platform does not offer says so, the others still show. */
async function part<T>(title: string, read: () => Promise<T>, show: (value: T) => string): Promise<string> {
  try {
    return show(await read());
  } catch (err) {
    return `${title}: could not be read. ${failureText(err, 'read')}`;
  }
}

function deploymentLine(d: Deployment): string {
  return `${d.active === true ? '[serving] ' : ''}version ${d.version} (${d.id}), artifact ${d.artifactVersion}, created ${d.createdAt} by ${d.createdBy}`;
}

/** Deployments per environment, newest first, `per` of each. */
export function deploymentsByEnvironment(deployments: readonly Deployment[], per = 3): string[] {
  const envs = [...new Set([...ENVIRONMENTS, ...deployments.map((d) => d.environment)])];
  return envs.map((env) => {
    const of = deployments.filter((d) => d.environment === env);
    if (of.length === 0) return `  ${env}: no deployment`;
    return [
      `  ${env}: ${of.length} deployment(s)`,
      ...of.slice(0, per).map((d) => `    ${deploymentLine(d)}`),
      ...(of.length > per ? [`    … ${of.length - per} older left out`] : []),
    ].join('\n');
  });
}

async function listAgents(context: ToolContext, offset: number, limit: number, signal?: AbortSignal) {
  const agents = await context.listAgents(signal);
  const { shown, note } = pageOf(agents, offset, limit, 'agents');
  return lines(
    `${agents.length} agent(s) reached by ${context.connectionName}:`,
    shown.map((a) => `  ${a.name} (${a.agentId})${a.description ? `: ${a.description}` : ''}`),
    note,
    'Give an agentId for its branches, deployments and numbers.',
  );
}

export const agentDetailsTool = defineTool<{ agentId?: string; offset?: number; limit?: number }>({
  name: 'agentWorkbench_agentDetails',
  title: 'Agent: branches, deployments and numbers',
  description:
    "Reads one agent: its branches (main and the others, with ids), its deployments per environment (sandbox, pre-release, live: which version each serves, newest first) and its telephony numbers. Without an agentId and without a single agent folder in the workspace, lists the agents instead. Use it before publishing or promoting, to learn deployment ids, or to find a branch's id.",
  kind: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      agentId: {
        ...AGENT_ID_PROPERTY,
        description: `${AGENT_ID_PROPERTY.description} Without it, the agents are listed.`,
      },
      offset: OFFSET_PROPERTY,
      limit: limitProperty(100, 30),
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 30;
    let agentId = input.agentId;
    if (agentId === undefined) {
      const only = soleItem([...new Set((await context.agentFolders(signal)).map((f) => f.manifest.agentId))]);
      if (only === undefined) return listAgents(context, offset, limit, signal);
      agentId = only;
    }
    const id = agentId;
    const [agent, branches, deployments, numbers] = await Promise.all([
      part(
        'The agent record',
        () => context.agent(id, signal),
        (a) => `Agent ${a.name} (${a.agentId})${a.description ? `: ${a.description}` : ''}`,
      ),
      part(
        'Branches',
        () => context.branches(id, signal),
        (list) => {
          const { shown, note } = pageOf(list, offset, limit, 'branches');
          return lines(
            `Branches (${list.length}):`,
            shown.map(
              (b) =>
                `  ${b.name} (${b.branchId})${isMain(b) ? ' [default]' : ''}${b.mergedAt ? `, merged ${b.mergedAt}` : ''}`,
            ),
            note,
          );
        },
      ),
      part(
        'Deployments',
        () => context.deployments(id, signal),
        (list) => lines('Deployments per environment (newest first):', deploymentsByEnvironment(list)),
      ),
      part(
        'Numbers',
        () => context.numbers(id, signal),
        (list) => {
          const { shown, note } = pageOf(list, offset, limit, 'numbers');
          return lines(
            `Numbers (${list.length}):`,
            shown.map((n) => `  ${n.number} (${n.clientEnv}, connector ${n.connectorId})`),
            note,
          );
        },
      ),
    ]);
    return lines(agent.startsWith('Agent ') ? agent : `Agent ${id}\n${agent}`, branches, deployments, numbers);
  },
});
