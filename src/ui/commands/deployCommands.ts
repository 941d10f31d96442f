import * as vscode from 'vscode';
import type { Deployment, DeploymentActionResult } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import type { Connection } from '../connection/connection';
import { DeploymentNode, EnvironmentDeploymentsNode } from '../explorer/agents/deploymentNodes';
import { activeDeployment } from '../model/deployments';
import { mainOf } from '../model/agentsSource';
import { BranchNode } from '../explorer/agents/agentNodes';
import { type AgentArg, resolveAgent } from '../connection/agentChoice';
import { requireModel, runCommand, UserFacingError, withProgress } from '../common/commandSupport';
import type { ProfileModels } from '../model/profileModels';
import { Command } from '../ids';
import { isPlatformError } from '../common/failure';
import { isEnvironment } from '../../contract/environments';
import { prompts } from '../common/prompts';
import {
  type Confirmation,
  type PromoteTarget,
  type PublishSituation,
  nextEnvironment,
  promoteConfirmation,
  publishConfirmation,
  rollbackConfirmation,
  rollbackTarget,
  testRunsText,
  confirmationName,
} from './deployConfirmations';
import { askTypedAgentName } from '../common/askTypedName';
import { typedConfirmation, typedNameProblem } from '../common/typedName';
import { tickWhenDone } from '../walkthrough';

/** An agent to publish, or one of its branches (the platform publishes main; another branch can be merged first). */
export type PublishArg = AgentArg | EnvironmentDeploymentsNode | BranchNode | { agentId: string; branchId?: string };

/** The command another part of the editor may register to merge a branch with conflict resolution. */
const MERGE_BRANCH_COMMAND = 'agentWorkbench.mergeBranch';

/** A deployment given by a tree node or by ids. */
export type DeploymentArg =
  | DeploymentNode
  | EnvironmentDeploymentsNode
  | { agentId: string; name?: string; deploymentId?: string; environment?: Environment }
  | undefined;
/** What the step before a promotion keeps with the deployment it makes. */
export interface BeforePromote {
  keep(agentId: string, deploymentId: string): Promise<void>;
}

export interface ActionOptions {
  /** The deployment message; asked for when not given. The confirmations are always asked. */
  deploymentMessage?: string;
}

/** Publish, promote and rollback, with the care a production deploy deserves. */
export function registerDeployCommands(
  connection: Connection,
  models: ProfileModels<object>,
  /** The branch id of an agent checked out into the workspace, if any. */
  checkedOut: (agentId: string) => string | undefined = () => undefined,
  /**
   * Asked before a promotion is confirmed (the agent's conversation tests, or a comparison with where it goes);
   * undefined stops it. What it keeps (a comparison's report) is kept with the deployment the promotion made.
   */
  beforePromote: (
    agentId: string,
    agentName: string,
    from: string,
    to?: string,
  ) => Promise<BeforePromote | undefined> = async () => ({ keep: async () => undefined }),
): vscode.Disposable {
  /** Asks before acting; when live changes, the agent's name must be typed too. Returns false when the person backs out. */
  /** A typed confirmation names one agent: with its id where another agent listed has the same name. */
  function typedForOne<C extends Confirmation | undefined>(agentId: string, c: C): C {
    if (!c?.typeName) return c;
    const listed = models.active()?.agents.agents.peek() ?? [];
    const typed = typedConfirmation(agentId, c.typeName);
    if (typed.ofId) return { ...c, typeName: typed.text, typeNameOfId: typed.ofId };
    return { ...c, typeName: confirmationName({ agentId, name: c.typeName }, listed) };
  }

  /** What the model knows of an agent: its writes keep the deployments they return and where promotions went. */
  function agentModel(agentId: string) {
    return requireModel(models).agents.agent(agentId);
  }

  /** The deployments of an environment, read afresh (an action is never based on a cached view of what is served). */
  async function deploymentsIn(agentId: string, environment: string): Promise<Deployment[]> {
    return (await agentModel(agentId).deployments.refresh()).filter((d) => d.environment === environment);
  }

  async function confirm(c: Confirmation): Promise<boolean> {
    return (await confirmWith(c)) !== undefined;
  }

  /** Like confirm, and tells which button went ahead (the main one or the alternative). */
  async function confirmWith(c: Confirmation): Promise<string | undefined> {
    const answer = await prompts.ask(
      c.question,
      { detail: c.detail },
      ...[c.go, ...(c.alternative ? [c.alternative] : [])],
    );
    if (answer === undefined || (answer !== c.go && answer !== c.alternative)) return undefined;
    if (c.typeName === undefined) return answer;
    const agentName = c.typeName;
    const typed = await askTypedAgentName(agentName, c.typeNameOfId);
    if (typed === undefined) return undefined;
    if (typedNameProblem(vscode.l10n, typed, agentName))
      throw new UserFacingError(vscode.l10n.t('Nothing was changed: the name typed does not match "{0}".', agentName));
    return answer;
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

  /** Tells what an action did (the model kept the deployment it returned, and told every view). */
  function report(verb: string, agentName: string, result: DeploymentActionResult, note?: string): void {
    const d = result.deployment;
    const copy = vscode.l10n.t('Copy Test Run Ids');
    const runs = result.testRunIds;
    void prompts
      .info(
        vscode.l10n.t(
          '{0}: {1} now serves version {2} (artifact {3}) in {4} (deployment {5}).',
          verb,
          agentName,
          d.version,
          d.artifactVersion,
          d.environment,
          d.id,
        ) +
          (note ? ` ${note}` : '') +
          ' ' +
          // Every profile of the local platform (one of its other projects too) has no studio behind it.
          testRunsText(vscode.l10n, runs, connection.profiles.active?.region === 'local'),
        ...(runs.length ? [copy] : []),
      )
      .then(async (choice) => {
        if (choice !== copy) return;
        await vscode.env.clipboard.writeText(runs.join('\n'));
        void prompts.info(
          runs.length === 1
            ? vscode.l10n.t('Test run id {0} copied.', runs[0]!)
            : vscode.l10n.t('{0} test run ids copied, one per line.', runs.length),
        );
      });
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
    const agent = await resolveAgent(
      models,
      arg ? { agentId: arg.agentId, ...(arg.name ? { name: arg.name } : {}) } : undefined,
    );
    if (!agent) return undefined;
    const found = (deployment: Deployment) => ({ agentId: agent.agentId, agentName: agent.name, deployment });
    if (arg?.deploymentId) return found(await agentModel(agent.agentId).deploymentById(arg.deploymentId));
    const env = arg?.environment ?? fallbackEnv;
    let list: Deployment[];
    try {
      list = await deploymentsIn(agent.agentId, env);
    } catch (err) {
      if (!(isPlatformError(err) && err.assumption)) throw err;
      // The platform does not list deployments: the manual path is the deployment id, typed by hand.
      const id = await askDeploymentId(agent, env, err.assumption.row);
      return id ? found(await agentModel(agent.agentId).deploymentById(id)) : undefined;
    }
    const active = activeDeployment(list);
    if (!active) throw new UserFacingError(vscode.l10n.t('{0} has nothing deployed to {1} yet.', agent.name, env));
    return found(active);
  }

  /** Asks for a deployment id; the newest one kept here in the environment is offered first. */
  async function askDeploymentId(
    agent: { agentId: string; name: string },
    environment: Environment,
    unlistedRow: string,
  ): Promise<string | undefined> {
    const kept = agentModel(agent.agentId).keptIn(environment);
    const id = await prompts.input({
      title: vscode.l10n.t('Deployment of {0}', agent.name),
      prompt: vscode.l10n.t(
        'This platform does not list deployments ({0}). Enter the deployment id, from the studio or from a publish made here.',
        unlistedRow,
      ),
      ...(kept.length > 0 ? { value: kept[kept.length - 1]!.id } : {}),
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim() && !/\s/.test(v.trim()) ? undefined : vscode.l10n.t('Enter a deployment id (no spaces).'),
    });
    return id?.trim() || undefined;
  }

  /** What a publish is about to do: the branch it leaves out, what sandbox serves, an empty or unchanged main. */
  async function publishSituation(
    agentId: string,
    chosenBranchId: string | undefined,
  ): Promise<{ situation: PublishSituation; branch?: { branchId: string; name: string } }> {
    // Read afresh through the model, so the Agents view shows what the question says.
    const served = await agentModel(agentId).served('sandbox');
    const branches = served.branches;
    const main = mainOf(branches);
    const otherId = chosenBranchId ?? checkedOut(agentId);
    const other = otherId && otherId !== main?.branchId ? branches?.find((b) => b.branchId === otherId) : undefined;
    // Where the platform does not list deployments, what publish and rollback returned here says what sandbox serves.
    const serving = served.serving;
    const situation: PublishSituation = {
      ...(other ? { branch: other.name } : {}),
      ...(serving ? { sandboxVersion: serving.version } : {}),
    };
    if (served.behavior !== undefined && served.behavior.trim() === '') situation.emptyBehavior = true;
    // Unchanged: main's last change is known, and is not after what sandbox serves.
    if (serving?.createdAt && served.mainChanged && !served.mainChangedAfter) situation.unchanged = true;
    return { situation, ...(other ? { branch: { branchId: other.branchId, name: other.name } } : {}) };
  }

  /** Merges a branch into main before a publish; false when it did not merge (conflicts or a failure, already told). */
  async function mergeFirst(agentId: string, branch: { branchId: string; name: string }): Promise<boolean> {
    const outcome = await withProgress(vscode.l10n.t('Merging {0} into main…', branch.name), (signal) =>
      agentModel(agentId).merge(branch.branchId, { branchName: branch.name }, signal),
    );
    if (outcome.merged) return true;
    const n = outcome.conflicts.length;
    const resolve = vscode.l10n.t('Resolve Conflicts');
    const canResolve = (await vscode.commands.getCommands(true)).includes(MERGE_BRANCH_COMMAND);
    const choice = await prompts.warn(
      (n === 1
        ? vscode.l10n.t('{0} was not merged into main: 1 change conflicts with main.', branch.name)
        : vscode.l10n.t('{0} was not merged into main: {1} changes conflict with main.', branch.name, n)) +
        ' ' +
        vscode.l10n.t('Nothing was published.'),
      ...(canResolve ? [resolve] : []),
    );
    if (choice === resolve)
      void vscode.commands.executeCommand(MERGE_BRANCH_COMMAND, { agentId, branchId: branch.branchId });
    return false;
  }

  async function publish(arg: PublishArg, opts: ActionOptions = {}): Promise<DeploymentActionResult | undefined> {
    const agentArg: AgentArg =
      arg instanceof EnvironmentDeploymentsNode ? arg.group.agentNode : arg instanceof BranchNode ? arg.agentNode : arg;
    const agent = await resolveAgent(models, agentArg);
    if (!agent) return undefined;
    const chosen =
      arg instanceof BranchNode ? arg.branch.branchId : arg && 'branchId' in arg ? arg.branchId : undefined;
    // A short read: shown in the status bar, not as a notification that would outlive it.
    const { situation, branch } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading what {0} would publish…', agent.name) },
      () => publishSituation(agent.agentId, chosen),
    );
    const question = publishConfirmation(vscode.l10n, agent.name, situation);
    const answer = await confirmWith(question);
    if (answer === undefined) return undefined;
    if (answer === question.alternative && branch && !(await mergeFirst(agent.agentId, branch))) return undefined;
    const message = await askMessage(vscode.l10n.t('Publish {0} to sandbox', agent.name), opts.deploymentMessage);
    if (message === undefined) return undefined;
    const result = await withProgress(vscode.l10n.t('Publishing main of {0} to sandbox…', agent.name), (signal) =>
      agentModel(agent.agentId).publish('sandbox', message, signal),
    );
    report(vscode.l10n.t('Published main'), agent.name, result);
    return result;
  }

  /**
   * Where a promotion of `d` goes, and what that environment serves now. The spec does not show a promotion's
   * target: where the platform lists deployments by environment, the next environment is read there; elsewhere
   * only where an earlier promotion from here went names it.
   */
  async function promoteTarget(agentId: string, d: Deployment): Promise<PromoteTarget> {
    const next = nextEnvironment(d.environment);
    if (next) {
      const listed = await deploymentsIn(agentId, next).then(
        (list) => ({ serves: activeDeployment(list) ?? null }),
        () => undefined,
      );
      if (listed) return { shown: next, serves: listed.serves, by: 'listing' };
    }
    const shown = d.environment ? agentModel(agentId).promotedTo(d.environment) : undefined;
    return shown ? { shown } : {};
  }

  async function promote(arg: DeploymentArg, opts: ActionOptions = {}): Promise<DeploymentActionResult | undefined> {
    // From the palette, from the selected environment (from pre-release when live is selected: nothing is beyond live).
    const selected = connection.profiles.environment;
    const target = await resolveDeployment(arg, selected === 'live' ? 'pre-release' : selected);
    if (!target) return undefined;
    const { deployment: d, agentName } = target;
    const goesTo = await promoteTarget(target.agentId, d);
    const question = typedForOne(target.agentId, promoteConfirmation(vscode.l10n, agentName, d, goesTo));
    if (!question)
      throw new UserFacingError(
        vscode.l10n.t('Version {0} is already in live; there is nothing further to promote it to.', d.version),
      );
    const go = await beforePromote(target.agentId, agentName, d.environment, goesTo.shown);
    if (!go) return undefined;
    if (!(await confirm(question))) return undefined;
    const what = d.version ? vscode.l10n.t('version {0}', d.version) : vscode.l10n.t('deployment {0}', d.id);
    const message = await askMessage(vscode.l10n.t('Promote {0} of {1}', what, agentName), opts.deploymentMessage);
    if (message === undefined) return undefined;
    const result = await withProgress(vscode.l10n.t('Promoting {0} of {1}…', what, agentName), (signal) =>
      agentModel(target.agentId).promote(d, message, signal),
    );
    await go.keep(target.agentId, result.deployment.id);
    report(
      d.environment
        ? vscode.l10n.t('Promoted from {0} to {1}', d.environment, result.deployment.environment)
        : vscode.l10n.t('Promoted to {0}', result.deployment.environment),
      agentName,
      result,
    );
    return result;
  }

  async function rollback(arg: DeploymentArg, opts: ActionOptions = {}): Promise<DeploymentActionResult | undefined> {
    const target = await resolveDeployment(arg, connection.profiles.environment);
    if (!target) return undefined;
    const { deployment: d, agentName } = target;
    // Name the version it goes back to; when the history cannot be read, the question still stands without it.
    const history = isEnvironment(d.environment)
      ? await deploymentsIn(target.agentId, d.environment).catch(() => [])
      : [];
    const previous = rollbackTarget(d, history);
    if (!(await confirm(typedForOne(target.agentId, rollbackConfirmation(vscode.l10n, agentName, d, previous)))))
      return undefined;
    const where = d.environment || vscode.l10n.t('its environment');
    const message = await askMessage(vscode.l10n.t('Roll back {0} in {1}', agentName, where), opts.deploymentMessage);
    if (message === undefined) return undefined;
    const result = await withProgress(vscode.l10n.t('Rolling back {0} in {1}…', agentName, where), (signal) =>
      agentModel(target.agentId).rollback(d, message, signal),
    );
    report(
      d.version
        ? vscode.l10n.t(
            'Rolled back in {0} from version {1} (artifact {2})',
            d.environment,
            d.version,
            d.artifactVersion,
          )
        : vscode.l10n.t('Rolled back deployment {0} in {1}', d.id, result.deployment.environment),
      agentName,
      result,
      // A rollback serves the earlier content under a new version number: say whose content that is.
      previous &&
        vscode.l10n.t(
          'Version {0} carries the content of version {1} (artifact {2}).',
          result.deployment.version,
          previous.version,
          previous.artifactVersion,
        ),
    );
    return result;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.publish, (arg?: PublishArg, opts?: ActionOptions) =>
      runCommand(() => publish(arg, opts)).then(tickWhenDone('publish')),
    ),
    vscode.commands.registerCommand(Command.promote, (arg?: DeploymentArg, opts?: ActionOptions) =>
      runCommand(() => promote(arg, opts)),
    ),
    vscode.commands.registerCommand(Command.rollback, (arg?: DeploymentArg, opts?: ActionOptions) =>
      runCommand(() => rollback(arg, opts)),
    ),
  );
}
