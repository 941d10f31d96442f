import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../client/profile';
import type { Agent } from '../../contract/agents';
import type { LocalProjectCredentials } from '../../localPlatform/seed/credentials';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import type { AgentsModel } from '../model/agentsModel';
import type { ProfileModels } from '../model/profileModels';
import type { Connection } from './connection';

/**
 * Runtime keys (chat, messaging connectors, conversations, DNI, test calls) belong to a project, and a project
 * serves one agent. These say which agent a profile's runtime keys reach, and keep a runtime feature opened for
 * one agent from silently reaching another.
 */

/** An agent as far as a runtime feature needs it. */
export interface AgentRef {
  agentId: string;
  name: string;
  /** The project that serves it, when the platform says (agent record fields beyond id and name are not shown). */
  projectId?: string;
}

/** Whether two project ids name one project: the same text, or the slug and prefixed forms of one known project. */
export function sameProject(a: string, b: string, known: readonly LocalProjectCredentials[]): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const forms = (p: LocalProjectCredentials) => [p.projectId.toLowerCase(), p.projectPrefixedId.toLowerCase()];
  return known.some((p) => forms(p).includes(a.toLowerCase()) && forms(p).includes(b.toLowerCase()));
}

/** The agent the profile's project serves, when the platform has said (the local platform's list, or a loaded agent list). */
export function servedAgent(
  profile: ConnectionProfile,
  connection: Connection,
  agents: readonly Agent[] | undefined,
): AgentRef | undefined {
  const known = profile.region === 'local' ? connection.localProjects : [];
  const local = known.find((p) => sameProject(p.projectId, profile.projectId, known));
  if (local) return { agentId: local.agentId, name: local.agentName, projectId: local.projectId };
  const served = agents?.filter((a) => a.projectId !== undefined && sameProject(a.projectId, profile.projectId, known));
  // A project serves one agent: several matches mean the records cannot be read this way.
  return served?.length === 1
    ? { agentId: served[0]!.agentId, name: served[0]!.name, projectId: served[0]!.projectId }
    : undefined;
}

/** Whether the profile reaches the agent: false when another project serves it, undefined when nobody says. */
export function reaches(profile: ConnectionProfile, connection: Connection, agent: AgentRef): boolean | undefined {
  if (agent.projectId === undefined) return undefined;
  const known = profile.region === 'local' ? connection.localProjects : [];
  return sameProject(agent.projectId, profile.projectId, known);
}

/** The agent of an id, from the model (read alone when the list is not loaded); only its id when it cannot be read. */
export async function agentRef(agents: AgentsModel, agentId: string, name?: string): Promise<AgentRef> {
  const agent = await agents.find(agentId).catch(() => undefined);
  if (!agent) return { agentId, name: name ?? agentId };
  return { agentId, name: agent.name, ...(agent.projectId ? { projectId: agent.projectId } : {}) };
}

/**
 * The profile of the local platform whose runtime keys reach `agent`, when `profile` is one of the local platform's:
 * the platform serves every project it holds, so the Local profile reaches each of their agents through the keys of
 * the agent's own project, asking nothing and switching nothing. Undefined for another platform, or an agent the
 * local platform does not serve.
 */
export async function localProfileReaching(
  connection: Connection,
  profile: ConnectionProfile,
  agent: Pick<AgentRef, 'agentId' | 'projectId'>,
): Promise<ConnectionProfile | undefined> {
  if (profile.region !== 'local' || !connection.localAttached) return undefined;
  const known = connection.localProjects;
  const { projectId } = agent;
  const project =
    known.find((p) => p.agentId === agent.agentId) ??
    (projectId !== undefined ? known.find((p) => sameProject(p.projectId, projectId, known)) : undefined);
  if (!project) return undefined;
  if (sameProject(project.projectId, profile.projectId, known)) return profile;
  return connection.localProjectProfile(project);
}

/**
 * Why the profile's runtime keys would reach another agent than `agent` with `feature` (such as "Chat"), or
 * undefined when they reach it (or nobody says).
 */
export function reachesOther(
  profile: ConnectionProfile,
  connection: Connection,
  agent: AgentRef,
  feature: string,
  agents?: readonly Agent[],
): string | undefined {
  if (reaches(profile, connection, agent) !== false) return undefined;
  const served = servedAgent(profile, connection, agents);
  return vscode.l10n.t(
    '{0} is served by project {1}. The runtime keys of the profile "{2}" belong to project {3}{4}: {5} would reach {6}, not {0}.',
    agent.name,
    agent.projectId ?? '',
    profile.name,
    profile.projectId,
    served ? vscode.l10n.t(', which serves {0}', served.name) : '',
    feature,
    served?.name ?? vscode.l10n.t('another agent'),
  );
}

/**
 * For a run through `profile`'s Chat key: answers, per agent id a case names, why the key would reach another agent
 * (the case is then skipped with that reason), or undefined when it reaches it or nobody can tell. The agents the
 * editor has read are the active profile's: they tell the cases apart for it and for profiles of its project.
 */
export async function otherAgentGuard(
  connection: Connection,
  profile: ConnectionProfile,
  models: ProfileModels<object> | undefined,
): Promise<(agentId: string | undefined) => Promise<string | undefined>> {
  const active = connection.profiles.active;
  const sameAgents =
    active !== undefined &&
    (profile.id === active.id ||
      (profile.buildUrl === active.buildUrl &&
        profile.accountId === active.accountId &&
        profile.projectId === active.projectId));
  const model = sameAgents ? models?.active() : undefined;
  const agents = await model?.agents.agents.get().catch(() => undefined);
  return async (agentId) => {
    if (agentId === undefined || !model) return undefined;
    const agent = await agentRef(model.agents, agentId);
    return reachesOther(profile, connection, agent, vscode.l10n.t('Chat'), agents);
  };
}

/**
 * Makes sure the active profile's runtime keys reach `agent` before `feature` (such as "Chat") runs for it. On the
 * local platform the keys of the agent's project are used, without a word. On another platform, when another
 * project serves the agent, says so plainly and offers the way there in one click: a profile of that project
 * (switched to), or adding one. Answers the profile to use, or undefined when the person went no further.
 */
export async function ensureReaches(
  connection: Connection,
  agent: AgentRef,
  feature: string,
  agents?: readonly Agent[],
): Promise<ConnectionProfile | undefined> {
  const profile = connection.profiles.active;
  if (!profile) return undefined;
  const local = await localProfileReaching(connection, profile, agent);
  if (local) return local;
  const question = reachesOther(profile, connection, agent, feature, agents);
  if (question === undefined) return profile;
  const project = agent.projectId ?? '';
  const existing = connection.profiles
    .list()
    .find((p) => p.id !== profile.id && p.buildUrl === profile.buildUrl && sameProject(p.projectId, project, []));
  const detail = vscode.l10n.t(
    'Runtime keys belong to a project, and a project serves one agent. Use a profile of project {0} to reach {1}.',
    project,
    agent.name,
  );
  const use = existing && vscode.l10n.t('Use Profile "{0}"', existing.name);
  const add = vscode.l10n.t('Add Profile for Project {0}', project);
  const answer = await prompts.ask(question, { detail, severity: 'warning' }, ...(use ? [use] : [add]));
  if (answer === undefined) return undefined;
  if (use && answer === use) {
    await connection.profiles.setActive(existing.id);
    return existing;
  }
  // The project's keys are the person's to enter (the question named the project).
  await vscode.commands.executeCommand(Command.addProfile);
  return undefined;
}

/**
 * The agent a runtime feature was opened for (by id, from a tree node or a link) reached through the active
 * profile: {@link ensureReaches} with the agent read from the model. Answers the profile to use, or undefined when
 * the person went no further. Without an agent id or a profile nothing is asked (the feature runs for the
 * agent the keys reach, which {@link reachedAgentName} names).
 */
export async function reachAgentById(
  connection: Connection,
  models: ProfileModels<object>,
  agentId: string | undefined,
  name: string | undefined,
  feature: string,
): Promise<{ profile?: ConnectionProfile; agent?: AgentRef } | undefined> {
  const model = models.active();
  const profile = connection.profiles.active;
  if (!agentId || !model || !profile) return profile ? { profile } : {};
  const agent = await agentRef(model.agents, agentId, name);
  const reaching = await ensureReaches(connection, agent, feature, model.agents.agents.peek());
  return reaching && { profile: reaching, agent };
}

/**
 * The agent the active profile's runtime keys reach, for a feature opened without an agent (the palette) to name
 * in its title: "Support Desk", or "the agent of project support-desk" when the platform has not said.
 */
export function reachedAgentName(connection: Connection, models: ProfileModels<object>): string | undefined {
  const profile = connection.profiles.active;
  if (!profile) return undefined;
  const served = servedAgent(profile, connection, models.active()?.agents.agents.peek());
  return served?.name ?? vscode.l10n.t('the agent of project {0}', profile.projectId);
}

/** The agent id a runtime tool was given: an Agents view node's, or `{ agentId }` (links, tests). */
export function agentIdOf(arg: unknown): string | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { agentId?: unknown; agent?: { agentId?: unknown } };
  const id = a.agent?.agentId ?? a.agentId;
  return typeof id === 'string' && id ? id : undefined;
}
