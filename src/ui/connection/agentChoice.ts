// The agent a command acts on: the Agents view's node it was run on, an id given (palette, tests,
// other commands), or one the person picks from the profile's agents.
import * as vscode from 'vscode';
import type { Agent } from '../../contract/agents';
import { requireModel, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import { isPlatformError } from '../common/failure';
import { prompts } from '../common/prompts';
import type { ProfileModels } from '../model/profileModels';

/**
 * An agent given by an Agents view node (the agent's, or its parent seen from a group below it: each holds the
 * agent it shows) or by id (palette and tests).
 */
export type AgentArg = { readonly agent: Agent } | { agentId: string; name?: string } | undefined;

/**
 * Resolves the agent a command applies to: the node clicked, the id given, or a pick. The agents created or added
 * here for the active profile (the model keeps them): where the platform does not list agents, they are the pick,
 * and they name an agent given only by its id.
 */
export async function resolveAgent(models: ProfileModels<object>, arg: AgentArg): Promise<Agent | undefined> {
  if (arg && 'agent' in arg) return arg.agent;
  const model = requireModel(models).agents;
  const remembered = () => model.keptAgentRecords();
  if (arg && 'agentId' in arg && arg.agentId) {
    const id = arg.agentId;
    const known = remembered().find((a) => a.agentId === id);
    const fallback = { agentId: id, name: arg.name ?? known?.name ?? id, description: known?.description ?? '' };
    try {
      // From the list when it is loaded, else read alone: acting on one agent never lists them all.
      return (await model.find(arg.agentId)) ?? fallback;
    } catch (err) {
      // Reading one agent is an assumed endpoint: where the platform lacks it (404 or 405), act on the id given;
      // an id that names no agent is then refused by the call that acts on it.
      if (isPlatformError(err) && (err.assumption || err.status === 404 || err.status === 405)) return fallback;
      throw err;
    }
  }
  let agents: Agent[];
  try {
    agents =
      model.agents.peek() ??
      (await withProgress(vscode.l10n.t('Loading agents…'), (signal) => untilAborted(model.agents.get(), signal)));
  } catch (err) {
    if (!(isPlatformError(err) && err.assumption)) throw err;
    // Listing agents is an assumed endpoint: the agents remembered here, or the agent id typed by hand.
    const kept = remembered();
    if (kept.length > 0) {
      const byId = { label: vscode.l10n.t('Enter an Agent Id…'), agent: undefined };
      const pick = await prompts.pick(
        [
          ...kept.map((a) => ({
            label: a.name ?? a.agentId,
            description: a.agentId,
            detail: a.description ?? '',
            agent: { agentId: a.agentId, name: a.name ?? a.agentId, description: a.description ?? '' },
          })),
          byId,
        ],
        {
          placeHolder: vscode.l10n.t(
            'Agent: this platform does not list agents ({0}); these are the ones the Agents view remembers',
            err.assumption.row,
          ),
          matchOnDescription: true,
          ignoreFocusOut: true,
        },
      );
      if (!pick) return undefined;
      if (pick.agent) return pick.agent;
    }
    const id = await prompts.input({
      title: vscode.l10n.t('Agent id'),
      prompt: vscode.l10n.t(
        'This platform does not list agents ({0}). Enter the agent id from the studio.',
        err.assumption.row,
      ),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter an agent id.')),
    });
    return id?.trim() ? { agentId: id.trim(), name: id.trim(), description: '' } : undefined;
  }
  if (agents.length === 0)
    throw new UserFacingError(
      vscode.l10n.t('This workspace has no agents yet. Create one with Agent Workbench: Create Agent.'),
    );
  const pick = await prompts.pick(
    agents.map((a) => ({ label: a.name, description: a.agentId, detail: a.description, agent: a })),
    { placeHolder: vscode.l10n.t('Agent'), matchOnDescription: true, ignoreFocusOut: true },
  );
  return pick?.agent;
}
