import { soleItem } from '../../core/arrays';
import { ENVIRONMENTS } from '../../contract/environments';
import type { AgentFolder, ToolContext } from '../context';

/** The schema of an optional agent id: the tools fall back to the workspace's only agent folder. */
export const AGENT_ID_PROPERTY = {
  type: 'string',
  minLength: 1,
  description:
    'The agent id (ag_…). Optional when the workspace has exactly one agent folder: that folder\u2019s agent is used.',
} as const;

export const FOLDER_PROPERTY = {
  type: 'string',
  minLength: 1,
  description:
    'The agent folder: its path (absolute or relative to the workspace), or the id or name of its agent. Optional when the workspace has exactly one agent folder.',
} as const;

export const ENVIRONMENT_PROPERTY = {
  type: 'string',
  enum: [...ENVIRONMENTS],
  description: 'The environment: sandbox, pre-release or live.',
} as const;

export const OFFSET_PROPERTY = {
  type: 'integer',
  minimum: 0,
  description: 'Items to skip, for the next page (the answer says which offset comes next).',
} as const;

export const limitProperty = (max: number, fallback: number) =>
  ({
    type: 'integer',
    minimum: 1,
    maximum: max,
    description: `Items in one answer, at most ${max} (default ${fallback}).`,
  }) as const;

const normal = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '');

/** The agent folder an input names (path, label, agent id or name), or the only one; otherwise what to name. */
export async function resolveFolder(
  context: ToolContext,
  named: string | undefined,
  signal?: AbortSignal,
): Promise<AgentFolder> {
  const folders = await context.agentFolders(signal);
  if (folders.length === 0)
    throw new Error(
      'The workspace has no agent folder (a folder with agent.json). Check an agent out first (Agent Workbench: Check Out into Workspace Folder).',
    );
  const listed = folders.map((f) => `${f.label} (${f.manifest.name}, ${f.manifest.agentId})`).join('; ');
  if (named === undefined) {
    const only = soleItem(folders);
    if (only) return only;
    throw new Error(`The workspace has ${folders.length} agent folders; name one as "folder": ${listed}.`);
  }
  const n = normal(named);
  const found =
    folders.find((f) => normal(f.path) === n || normal(f.label) === n) ??
    folders.find((f) => normal(f.path).endsWith(`/${n}`)) ??
    folders.filter((f) => f.manifest.agentId === named || f.manifest.name === named);
  if (!Array.isArray(found)) return found;
  const one = soleItem(found);
  if (one) return one;
  if (found.length > 1)
    throw new Error(`More than one agent folder mirrors "${named}"; name one by its path: ${listed}.`);
  throw new Error(`No agent folder is "${named}". The agent folders: ${listed}.`);
}

/** The agent an input names, or the agent of the workspace's only agent folder; otherwise what to name. */
export async function resolveAgentId(
  context: ToolContext,
  named: string | undefined,
  signal?: AbortSignal,
): Promise<string> {
  if (named !== undefined) return named;
  const agents = [...new Set((await context.agentFolders(signal)).map((f) => f.manifest.agentId))];
  const only = soleItem(agents);
  if (only !== undefined) return only;
  throw new Error(
    agents.length === 0
      ? 'Name the agent as "agentId" (ag_…): the workspace has no agent folder to take it from. agentWorkbench_agentDetails without an agentId lists the agents.'
      : `Name the agent as "agentId": the workspace's agent folders mirror ${agents.join(', ')}.`,
  );
}

/** A phone number with all but its last two digits hidden, as the transcript viewer shows it until asked. */
export function maskNumber(n: string): string {
  if (!n) return '';
  const digits = n.replace(/\D/g, '');
  return digits.length <= 2 ? n : `${'•'.repeat(Math.min(8, digits.length - 2))}${digits.slice(-2)}`;
}

/** A duration in seconds as text, or undefined when unknown. */
export function seconds(value: number | null | undefined): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value * 10) / 10} s` : undefined;
}

/** Lines joined, the empty ones dropped. */
export function lines(...parts: Array<string | undefined | false | readonly string[]>): string {
  return parts
    .flatMap((p) => (Array.isArray(p) ? p : [p]))
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join('\n');
}
