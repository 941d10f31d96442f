import * as vscode from 'vscode';
import type { Deployment, DeploymentActionResult } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import type { Connection } from '../connection/connection';
import { activeDeployment, DeploymentNode, EnvironmentDeploymentsNode } from '../explorer/agents/deploymentNodes';
import { type AgentArg, agentsClient, resolveAgent } from './agentCommands';
import { requireModel, runCommand, UserFacingError, withProgress } from './commandSupport';
import type { ProfileModels } from '../model/profileModels';
import { Command } from '../ids';
import { prompts } from '../common/prompts';
import {
  type Confirmation,
  nextEnvironment,
  promoteConfirmation,
  publishConfirmation,
  rollbackConfirmation,
  rollbackTarget,
  typedNameProblem,
} from './deployConfirmations';

/** A deployment given by a tree node or by ids. */
export type DeploymentArg =
  | DeploymentNode
  | EnvironmentDeploymentsNode
  | { agentId: string; deploymentId?: string; environment?: Environment }
  | undefined;
export interface ActionOptions {
  /** The deployment message; asked for when not given. The confirmations are always asked. */
  deploymentMessage?: string;
}

/** Publish, promote and rollback, with the care a production deploy deserves. */
export function registerDeployCommands(connection: Connection, models: ProfileModels<object>): vscode.Disposable {
  /** Asks before acting; when live changes, the agent's name must be typed too. Returns false when the person backs out. */
  async function confirm(c: Confirmation): Promise<boolean> {
    const answer = await prompts.ask(c.question, { detail: c.detail }, c.go);
    if (answer !== c.go) return false;
    if (c.typeName === undefined) return true;
    const agentName = c.typeName;
    const typed = await prompts.input({
      title: vscode.l10n.t('Confirm a change to live'),
      prompt: vscode.l10n.t('Type the agent name "{0}" to change what callers reach in live', agentName),
      placeHolder: agentName,
      ignoreFocusOut: true,
      validateInput: (v) => typedNameProblem(vscode.l10n, v, agentName),
    });
    if (typed === undefined) return false;
    if (typedNameProblem(vscode.l10n, typed, agentName))
      throw new UserFacingError(vscode.l10n.t('Nothing was changed: the name typed does not match "{0}".', agentName));
    return true;
  }

  async function askMessage(title: string, given: string | undefined): Promise<string | undefined> {
    if (given !== undefined) return given;
    return prompts.input({
      title,
      prompt: vscode.l10n.t('Deployment message (optional): what changed and why'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.length > 500 ? vscode.l10n.t('At most 500 characters.') : undefined),
    });
  }

  function report(verb: string, agentName: string, result: DeploymentActionResult): void {
    const d = result.deployment;
    const runs = result.testRunIds.length
      ? vscode.l10n.t(' Test runs started: {0}.', result.testRunIds.join(', '))
      : vscode.l10n.t(' No test runs were started.');
    void prompts.info(
      vscode.l10n.t(
        '{0}: {1} now serves version {2} (artifact {3}) in {4} (deployment {5}).',
        verb,
        agentName,
        d.version,
        d.artifactVersion,
        d.environment,
        d.id,
      ) + runs,
    );
    requireModel(models).agents.agent(d.agentId).deployments.invalidate();
  }

  /** Finds the deployment a command applies to; for an environment, its active deployment. */
  async function resolveDeployment(
    arg: DeploymentArg,
    fallbackEnv: Environment,
  ): Promise<{ agentId: string; agentName: string; deployment: Deployment } | undefined> {
    if (arg instanceof DeploymentNode)
      return { agentId: arg.agentNode.agent.agentId, agentName: arg.agentNode.agent.name, deployment: arg.deployment };
    if (arg instanceof EnvironmentDeploymentsNode) {
      const active = arg.active;
      if (!active) throw new UserFacingError(vscode.l10n.t('Nothing is deployed to {0} yet.', arg.environment));
      return {
        agentId: arg.group.agentNode.agent.agentId,
        agentName: arg.group.agentNode.agent.name,
        deployment: active,
      };
    }
    const agent = await resolveAgent(models, arg ? { agentId: arg.agentId } : undefined);
    if (!agent) return undefined;
    const client = agentsClient(connection);
    if (arg?.deploymentId)
      return {
        agentId: agent.agentId,
        agentName: agent.name,
        deployment: await client.getDeployment(agent.agentId, arg.deploymentId),
      };
    const env = arg?.environment ?? fallbackEnv;
    const list = await client.listDeployments(agent.agentId, env);
    const active = activeDeployment(list);
    if (!active) throw new UserFacingError(vscode.l10n.t('{0} has nothing deployed to {1} yet.', agent.name, env));
    return { agentId: agent.agentId, agentName: agent.name, deployment: active };
  }

  async function publish(
    arg: AgentArg | EnvironmentDeploymentsNode,
    opts: ActionOptions = {},
  ): Promise<DeploymentActionResult | undefined> {
    const agent = await resolveAgent(models, arg instanceof EnvironmentDeploymentsNode ? arg.group.agentNode : arg);
    if (!agent) return undefined;
    if (!(await confirm(publishConfirmation(vscode.l10n, agent.name)))) return undefined;
    const message = await askMessage(vscode.l10n.t('Publish {0} to sandbox', agent.name), opts.deploymentMessage);
    if (message === undefined) return undefined;
    const client = agentsClient(connection);
    const result = await withProgress(vscode.l10n.t('Publishing {0} to sandbox…', agent.name), (signal) =>
      client.publish(agent.agentId, 'sandbox', message, signal),
    );
    report(vscode.l10n.t('Published'), agent.name, result);
    return result;
  }

  async function promote(arg: DeploymentArg, opts: ActionOptions = {}): Promise<DeploymentActionResult | undefined> {
    const target = await resolveDeployment(arg, 'sandbox');
    if (!target) return undefined;
    const { deployment: d, agentName } = target;
    // An environment this extension does not know has no known next step.
    const to = nextEnvironment(d.environment);
    const question = promoteConfirmation(vscode.l10n, agentName, d);
    if (!to || !question)
      throw new UserFacingError(
        vscode.l10n.t('Version {0} is already in live; there is nothing further to promote it to.', d.version),
      );
    if (!(await confirm(question))) return undefined;
    const message = await askMessage(
      vscode.l10n.t('Promote {0} from {1} to {2}', agentName, d.environment, to),
      opts.deploymentMessage,
    );
    if (message === undefined) return undefined;
    const client = agentsClient(connection);
    const result = await withProgress(
      vscode.l10n.t('Promoting version {0} from {1} to {2}…', d.version, d.environment, to),
      (signal) =>
        client.promote(
          target.agentId,
          d.id,
          { environment: d.environment, version: d.version, deploymentMessage: message },
          signal,
        ),
    );
    report(vscode.l10n.t('Promoted from {0} to {1}', d.environment, to), agentName, result);
    return result;
  }

  async function rollback(arg: DeploymentArg, opts: ActionOptions = {}): Promise<DeploymentActionResult | undefined> {
    const target = await resolveDeployment(arg, 'live');
    if (!target) return undefined;
    const { deployment: d, agentName } = target;
    // Name the version it goes back to; when the history cannot be read, the question still stands without it.
    const history = await agentsClient(connection)
      .listDeployments(target.agentId, d.environment as Environment)
      .catch(() => []);
    const previous = rollbackTarget(d, history);
    if (!(await confirm(rollbackConfirmation(vscode.l10n, agentName, d, previous)))) return undefined;
    const message = await askMessage(
      vscode.l10n.t('Roll back {0} in {1}', agentName, d.environment),
      opts.deploymentMessage,
    );
    if (message === undefined) return undefined;
    const client = agentsClient(connection);
    const result = await withProgress(vscode.l10n.t('Rolling back {0} in {1}…', agentName, d.environment), (signal) =>
      client.rollback(
        target.agentId,
        d.id,
        { environment: d.environment, version: d.version, deploymentMessage: message },
        signal,
      ),
    );
    report(
      vscode.l10n.t('Rolled back in {0} from version {1} (artifact {2})', d.environment, d.version, d.artifactVersion),
      agentName,
      result,
    );
    return result;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      Command.publish,
      (arg?: AgentArg | EnvironmentDeploymentsNode, opts?: ActionOptions) => runCommand(() => publish(arg, opts)),
    ),
    vscode.commands.registerCommand(Command.promote, (arg?: DeploymentArg, opts?: ActionOptions) =>
      runCommand(() => promote(arg, opts)),
    ),
    vscode.commands.registerCommand(Command.rollback, (arg?: DeploymentArg, opts?: ActionOptions) =>
      runCommand(() => rollback(arg, opts)),
    ),
  );
}
