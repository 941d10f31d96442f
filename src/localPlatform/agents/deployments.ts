import type { Environment } from '../../contract/common';
import { buildError } from '../http';
import type { Platform } from '../platform';
import type { AgentContent, StoredAgent, StoredDeployment } from './model';
import { activeDeploymentOf, deploymentsOf, versionNumber } from './store';

/**
 * Publish, promote and rollback. A deployment freezes the content it serves; each environment
 * serves its one active deployment. `version` is the agent's release number: publish and
 * rollback make a new one (higher than any before for the agent), promote carries a release on
 * to the next environment unchanged. `artifactVersion` names the frozen content.
 */

/** sandbox moves on to pre-release, pre-release to live; live is the end. */
export const NEXT_ENVIRONMENT: Readonly<Record<Environment, Environment | undefined>> = {
  sandbox: 'pre-release',
  'pre-release': 'live',
  live: undefined,
};

export interface DeploymentAction {
  deployment: StoredDeployment;
  testRunIds: string[];
}

interface NewDeployment {
  environment: Environment;
  content: AgentContent;
  artifactVersion: string;
  version: string;
  metadata: Record<string, unknown>;
}

export class Deployer {
  constructor(private readonly platform: Platform) {}

  /** main's draft becomes a new release in sandbox. */
  publish(
    agent: StoredAgent,
    draft: AgentContent,
    mainBranchId: string,
    message: string,
    actor: string,
  ): DeploymentAction {
    const deployment = this.activate(agent, actor, {
      environment: 'sandbox',
      content: structuredClone(draft),
      artifactVersion: this.platform.nextId('art'),
      version: String(this.nextVersion(agent.agentId)),
      metadata: { action: 'publish', message, branch: 'main', branchId: mainBranchId },
    });
    return { deployment, testRunIds: [this.platform.nextId('tr')] };
  }

  /** The same release, one environment further. */
  promote(agent: StoredAgent, from: StoredDeployment, message: string, actor: string): DeploymentAction {
    const environment = NEXT_ENVIRONMENT[from.environment];
    if (!environment) {
      throw buildError(409, `Deployment ${from.id} is already live: there is no environment to promote it to`, [
        { field: 'deploymentId', message: 'a live deployment cannot be promoted' },
      ]);
    }
    const deployment = this.activate(agent, actor, {
      environment,
      content: structuredClone(from.content),
      artifactVersion: from.artifactVersion,
      version: from.version,
      metadata: {
        ...carried(from),
        action: 'promote',
        message,
        promotedFrom: from.id,
        fromEnvironment: from.environment,
      },
    });
    return { deployment, testRunIds: [this.platform.nextId('tr')] };
  }

  /**
   * Rolls an environment back from its active deployment to the one it served before, as a
   * new release (so history only grows). No test run is started: the content already ran.
   */
  rollback(agent: StoredAgent, current: StoredDeployment, message: string, actor: string): DeploymentAction {
    if (!current.active) {
      throw buildError(
        409,
        `Deployment ${current.id} is not what ${current.environment} serves now: only the active deployment can be rolled back`,
        [{ field: 'deploymentId', message: 'not the active deployment of its environment' }],
      );
    }
    const history = deploymentsOf(this.platform.state.agents, agent.agentId, current.environment);
    const previous = history[history.indexOf(current) + 1];
    if (!previous) {
      throw buildError(409, `There is no earlier deployment in ${current.environment} to roll back to`, [
        { field: 'deploymentId', message: 'first deployment of its environment' },
      ]);
    }
    const deployment = this.activate(agent, actor, {
      environment: current.environment,
      content: structuredClone(previous.content),
      artifactVersion: previous.artifactVersion,
      version: String(this.nextVersion(agent.agentId)),
      metadata: {
        ...carried(previous),
        action: 'rollback',
        message,
        rolledBack: current.id,
        restoredFrom: previous.id,
        restoredVersion: previous.version,
      },
    });
    return { deployment, testRunIds: [] };
  }

  private activate(agent: StoredAgent, actor: string, next: NewDeployment): StoredDeployment {
    const state = this.platform.state.agents;
    const replaced = activeDeploymentOf(state, agent.agentId, next.environment);
    if (replaced) replaced.active = false;
    const deployment: StoredDeployment = {
      id: this.platform.nextId('dep'),
      accountId: agent.accountId,
      agentId: agent.agentId,
      createdBy: actor,
      createdAt: this.platform.now(),
      active: true,
      ...next,
    };
    state.deployments[deployment.id] = deployment;
    return deployment;
  }

  private nextVersion(agentId: string): number {
    let max = 0;
    for (const d of deploymentsOf(this.platform.state.agents, agentId)) max = Math.max(max, versionNumber(d));
    return max + 1;
  }
}

/** Where a release came from, kept as it moves on. */
function carried(d: StoredDeployment): Record<string, unknown> {
  const { branch, branchId } = d.metadata;
  return { ...(branch !== undefined ? { branch } : {}), ...(branchId !== undefined ? { branchId } : {}) };
}
