// What publish, promote and roll back ask before they act, without the editor: the wording, the
// button, and whether the agent's name must be typed (only when live changes).
import type { Deployment } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import type { L10n } from '../common/l10n';

/** Where a promotion goes from each environment; nothing is beyond live. */
const NEXT_ENVIRONMENT: Record<Environment, Environment | undefined> = {
  sandbox: 'pre-release',
  'pre-release': 'live',
  live: undefined,
};

/** The environment a promotion from `environment` goes to; undefined beyond live, or for an environment this extension does not know. */
export function nextEnvironment(environment: string): Environment | undefined {
  return Object.hasOwn(NEXT_ENVIRONMENT, environment) ? NEXT_ENVIRONMENT[environment as Environment] : undefined;
}

export interface Confirmation {
  question: string;
  detail: string;
  /** The button that goes ahead; anything else backs out. */
  go: string;
  /** Set when live changes: the name that must then be typed, exactly. */
  typeName?: string;
}

export function publishConfirmation(l10n: L10n, agentName: string): Confirmation {
  return {
    question: l10n.t('Publish the draft of {0} to sandbox?', agentName),
    detail: l10n.t('The current main branch becomes a new version in sandbox. Pre-release and live are not changed.'),
    go: l10n.t('Publish'),
  };
}

/** The question before promoting `d` to the next environment; undefined when `d` is already in live. */
export function promoteConfirmation(
  l10n: L10n,
  agentName: string,
  d: Pick<Deployment, 'version' | 'environment' | 'artifactVersion'>,
): Confirmation | undefined {
  const to = nextEnvironment(d.environment);
  if (!to) return undefined;
  return {
    question: l10n.t('Promote version {0} of {1} from {2} to {3}?', d.version, agentName, d.environment, to),
    detail:
      to === 'live'
        ? l10n.t(
            'Callers in live will reach version {0} as soon as the promotion finishes. You will be asked to type the agent name.',
            d.version,
          )
        : l10n.t('{0} will serve version {1} (artifact {2}).', to, d.version, d.artifactVersion),
    go: l10n.t('Promote to {0}', to),
    ...(to === 'live' ? { typeName: agentName } : {}),
  };
}

/** The deployment a rollback goes back to: the latest one of the environment made before the one it serves. */
export function rollbackTarget<D extends Pick<Deployment, 'id' | 'createdAt'>>(
  active: D,
  all: readonly D[],
): D | undefined {
  return all
    .filter((x) => x.id !== active.id && x.createdAt < active.createdAt)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
}

export function rollbackConfirmation(
  l10n: L10n,
  agentName: string,
  d: Pick<Deployment, 'version' | 'environment'> & { artifactVersion?: string },
  previous?: Pick<Deployment, 'version' | 'artifactVersion'>,
): Confirmation {
  return {
    question: l10n.t('Roll back {0} in {1}?', agentName, d.environment),
    detail: previous
      ? l10n.t(
          '{0} stops serving version {1} (artifact {2}) and goes back to version {3} (artifact {4}), as a new deployment.',
          d.environment,
          d.version,
          d.artifactVersion ?? '?',
          previous.version,
          previous.artifactVersion,
        )
      : l10n.t(
          '{0} stops serving version {1} and serves the version it replaced, as a new deployment.',
          d.environment,
          d.version,
        ),
    go: l10n.t('Roll Back'),
    ...(d.environment === 'live' ? { typeName: agentName } : {}),
  };
}

/** What the name box says while the text typed is not the agent's name; undefined once it is. */
export function typedNameProblem(l10n: L10n, typed: string, agentName: string): string | undefined {
  return typed === agentName ? undefined : l10n.t('Type exactly: {0}', agentName);
}
