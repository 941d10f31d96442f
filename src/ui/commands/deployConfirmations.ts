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
  /** Another button that goes ahead another way (publish: merge the branch into main first). */
  alternative?: string;
  /** Set when live changes: the name that must then be typed, exactly. */
  typeName?: string;
}

/** What a publish is about to do, as far as the platform lets it be read beforehand. */
export interface PublishSituation {
  /** The branch the person stands on (checked out) or chose, when it is not main: the platform publishes main. */
  branch?: string;
  /** The version sandbox serves now, if any. */
  sandboxVersion?: string;
  /** Main's behavior is empty. */
  emptyBehavior?: boolean;
  /** Main has not changed since the version sandbox serves was made. */
  unchanged?: boolean;
}

export function publishConfirmation(l10n: L10n, agentName: string, s: PublishSituation = {}): Confirmation {
  const lines: string[] = [];
  if (s.branch)
    lines.push(
      l10n.t(
        'The platform publishes the main branch, not {0}: the changes of {0} reach sandbox only once merged into main.',
        s.branch,
      ),
    );
  lines.push(
    s.sandboxVersion
      ? l10n.t(
          'Main becomes a new version in sandbox, which serves version {0} now. Pre-release and live are not changed.',
          s.sandboxVersion,
        )
      : l10n.t('Main becomes the first version in sandbox. Pre-release and live are not changed.'),
  );
  if (s.emptyBehavior) lines.push(l10n.t('Warning: the behavior of main is empty, so the agent has no instructions.'));
  if (s.unchanged && s.sandboxVersion)
    lines.push(
      l10n.t(
        'Warning: main has not changed since version {0}; publishing makes a version with the same content.',
        s.sandboxVersion,
      ),
    );
  const warned = s.emptyBehavior || (s.unchanged && s.sandboxVersion !== undefined);
  return {
    question: l10n.t('Publish the main branch of {0} to sandbox?', agentName),
    detail: lines.join('\n\n'),
    go: s.branch ? l10n.t('Publish main Only') : warned ? l10n.t('Publish Anyway') : l10n.t('Publish'),
    ...(s.branch ? { alternative: l10n.t('Merge {0} into main, then Publish', s.branch) } : {}),
  };
}

/** The question before promoting `d` to the next environment; undefined when `d` is already in live. */
export function promoteConfirmation(
  l10n: L10n,
  agentName: string,
  d: Pick<Deployment, 'version' | 'environment' | 'artifactVersion'>,
  /** What the target environment serves now: a deployment, null for nothing, undefined when it could not be read. */
  targetServes?: Pick<Deployment, 'version' | 'artifactVersion'> | null,
): Confirmation | undefined {
  const to = nextEnvironment(d.environment);
  if (!to) return undefined;
  const now =
    targetServes === undefined
      ? ''
      : targetServes === null
        ? l10n.t('{0} serves nothing yet.', to)
        : targetServes.version === d.version && targetServes.artifactVersion === d.artifactVersion
          ? l10n.t(
              '{0} already serves version {1}: the promotion makes a new deployment of the same version.',
              to,
              d.version,
            )
          : l10n.t('{0} serves version {1} now.', to, targetServes.version);
  const what =
    to === 'live'
      ? l10n.t(
          'Callers in live will reach version {0} as soon as the promotion finishes. You will be asked to type the agent name.',
          d.version,
        )
      : l10n.t('{0} will serve version {1} (artifact {2}).', to, d.version, d.artifactVersion);
  return {
    question: l10n.t('Promote version {0} of {1} from {2} to {3}?', d.version, agentName, d.environment, to),
    detail: now ? `${now} ${what}` : what,
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

/**
 * What a person types to confirm a change to live: the agent's name, or, where another agent of the project has
 * the same name (ignoring case), the name with the agent's id, so that the text picks out one agent.
 */
export function confirmationName(
  agent: { agentId: string; name: string },
  others: ReadonlyArray<{ agentId: string; name: string }>,
): string {
  const same = others.some((o) => o.agentId !== agent.agentId && o.name.toLowerCase() === agent.name.toLowerCase());
  return same ? `${agent.name} (${agent.agentId})` : agent.name;
}

/** What the name box says while the text typed is not the agent's name; undefined once it is. */
export function typedNameProblem(l10n: L10n, typed: string, agentName: string): string | undefined {
  return typed === agentName ? undefined : l10n.t('Type exactly: {0}', agentName);
}

/** Main's last change as the platform tells it: the newest of the branch, its behavior and its topics; undefined when none is dated. */
export function lastChange(dates: ReadonlyArray<string | undefined>): string | undefined {
  return dates.filter((x): x is string => typeof x === 'string' && x !== '').sort((a, b) => b.localeCompare(a))[0];
}

/** What a deployment action's test runs come to, in words: the ids, and where their results are. */
export function testRunsText(l10n: L10n, ids: readonly string[]): string {
  if (ids.length === 0) return l10n.t('No test runs were started.');
  return (
    (ids.length === 1
      ? l10n.t('It triggered test run {0}.', ids[0]!)
      : l10n.t('It triggered {0} test runs: {1}.', ids.length, ids.join(', '))) +
    ' ' +
    l10n.t("The platform's API returns only their ids: see their results in the studio.")
  );
}
