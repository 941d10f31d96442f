// What publish, promote and roll back ask before they act, without the editor: the wording, the
// button, and whether the agent's name must be typed (only when live changes).
import type { Deployment } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import type { L10n } from '../common/l10n';

/** The environments this extension knows, each with where the usual promotion goes; nothing is beyond live. */
const NEXT_ENVIRONMENT: Record<Environment, Environment | undefined> = {
  sandbox: 'pre-release',
  'pre-release': 'live',
  live: undefined,
};

export interface Confirmation {
  question: string;
  detail: string;
  /** The button that goes ahead; anything else backs out. */
  go: string;
  /** Another button that goes ahead another way (publish: merge the branch into main first). */
  alternative?: string;
  /** Set when live changes: the name that must then be typed, exactly. */
  typeName?: string;
  /** Set where `typeName` is the end of this agent id (an agent whose name is not known here). */
  typeNameOfId?: string;
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

/** Where a promotion goes, as far as the platform has shown it. */
export interface PromoteTarget {
  /**
   * Where the platform moved the last promotion of this agent from the deployment's environment: the spec does
   * not show a promotion's target, so only an earlier answer tells it. Unset: not shown.
   */
  shown?: string;
  /** What the shown target serves now: a deployment, null for nothing, undefined when it could not be read. */
  serves?: Pick<Deployment, 'version' | 'artifactVersion'> | null;
  /**
   * How the target is known: by where the last promotion from the environment went (the default), or by the
   * platform's own lists of deployments by environment, where one step leads from sandbox to pre-release to live.
   */
  by?: 'lastPromotion' | 'listing';
}

/** Where a promotion from `from` goes on a platform that lists deployments: the next environment; none beyond live. */
export function nextEnvironment(from: string): Environment | undefined {
  return isKnownEnvironment(from) ? NEXT_ENVIRONMENT[from] : undefined;
}

/** "version 3", or "deployment dep_1" where the platform has not shown the version (an id typed by hand). */
function deploymentWords(l10n: L10n, d: { id?: string; version?: string }): string {
  return d.version ? l10n.t('version {0}', d.version) : l10n.t('deployment {0}', d.id ?? '?');
}

/**
 * The question before promoting `d`; undefined when `d` is in live (nothing is beyond it). The target is named
 * only where the platform has shown it, and the agent's name must be typed whenever the target might be live.
 */
export function promoteConfirmation(
  l10n: L10n,
  agentName: string,
  d: Pick<Deployment, 'version' | 'environment' | 'artifactVersion'> & { id?: string },
  target: PromoteTarget = {},
): Confirmation | undefined {
  if (d.environment === 'live') return undefined;
  const what = deploymentWords(l10n, d);
  const from = d.environment || undefined;
  const to = from ? target.shown : undefined;
  const serves = target.serves;
  const now =
    !to || serves === undefined
      ? ''
      : serves === null
        ? l10n.t('{0} serves nothing yet.', to)
        : serves.version === d.version && serves.artifactVersion === d.artifactVersion
          ? l10n.t(
              '{0} already serves version {1}: the promotion makes a new deployment of the same version.',
              to,
              d.version,
            )
          : l10n.t('{0} serves version {1} now.', to, serves.version);
  const where = !to
    ? l10n.t(
        'The platform moves a deployment on towards pre-release, then live, and does not say in advance which environment this promotion reaches.',
      )
    : target.by === 'listing'
      ? l10n.t('This platform lists its deployments by environment: a promotion from {0} goes to {1}.', from ?? '', to)
      : l10n.t(
          'The last promotion from {0} went to {1}; the platform does not say in advance where a promotion goes.',
          from!,
          to,
        );
  const effect = !to
    ? l10n.t(
        'It may reach live, where callers would reach it as soon as the promotion finishes: you will be asked to type the agent name.',
      )
    : to === 'live'
      ? l10n.t(
          'Callers in live will reach {0} as soon as the promotion finishes. You will be asked to type the agent name.',
          what,
        )
      : l10n.t('{0} will serve {1} (artifact {2}).', to, what, d.artifactVersion || '?');
  return {
    question: to
      ? l10n.t('Promote {0} of {1} from {2} to {3}?', what, agentName, from!, to)
      : from
        ? l10n.t('Promote {0} of {1} from {2}?', what, agentName, from)
        : l10n.t('Promote {0} of {1}?', what, agentName),
    detail: [now, where, effect].filter(Boolean).join(' '),
    go: to ? l10n.t('Promote to {0}', to) : l10n.t('Promote'),
    ...(!to || to === 'live' ? { typeName: agentName } : {}),
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

/**
 * The question before a rollback, in the words of what happens: which environment, what it serves now, and whose
 * content it serves after. The spec shows only that a rollback of a deployment returns the resulting deployment;
 * which earlier deployment comes back is read from the environment's history, and the new deployment's version is
 * the platform's to give, so it is said once the platform has answered. Where the platform has not shown the
 * deployment's environment, it may be live.
 */
export function rollbackConfirmation(
  l10n: L10n,
  agentName: string,
  d: Pick<Deployment, 'version' | 'environment'> & { artifactVersion?: string; id?: string },
  previous?: Pick<Deployment, 'version' | 'artifactVersion'>,
): Confirmation {
  const known = isKnownEnvironment(d.environment);
  const question = !known
    ? l10n.t('Roll back {0} of {1}?', deploymentWords(l10n, d), agentName)
    : previous
      ? l10n.t(
          'Roll back {0} in {1} from version {2} to the content of version {3}?',
          agentName,
          d.environment,
          d.version,
          previous.version,
        )
      : l10n.t('Roll back {0} in {1}?', agentName, d.environment);
  const now = l10n.t('{0} serves version {1} (artifact {2}) now.', d.environment, d.version, d.artifactVersion || '?');
  const detail = !known
    ? l10n.t(
        'The environment of {0} stops serving it and serves the deployment it replaced, as a new deployment. This platform has not shown which environment that is: it may be live, so you will be asked to type the agent name.',
        deploymentWords(l10n, d),
      )
    : previous
      ? [
          now,
          l10n.t(
            'After the rollback, {0} serves the content of version {1} (artifact {2}), the version it served before {3}.',
            d.environment,
            previous.version,
            previous.artifactVersion,
            d.version,
          ),
          l10n.t(
            'The rollback is a new deployment carrying that old content: the platform answers with it, and its version is said when the rollback is done.',
          ),
        ].join(' ')
      : [
          now,
          l10n.t(
            'After the rollback, {0} serves the content of the deployment it served before version {1}, as a new deployment; the history could not be read to say which version that is.',
            d.environment,
            d.version,
          ),
        ].join(' ');
  return {
    question,
    detail,
    go: l10n.t('Roll Back'),
    ...(d.environment === 'live' || !known ? { typeName: agentName } : {}),
  };
}

function isKnownEnvironment(environment: string): environment is Environment {
  return Object.hasOwn(NEXT_ENVIRONMENT, environment);
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

/**
 * What a deployment action's test runs come to, in words: the ids, and where their results are. The local platform
 * has no studio and runs no tests behind its ids, so there the words point at this editor's own ways to check a
 * version: the Testing view's conversation tests and a chat.
 */
export function testRunsText(l10n: L10n, ids: readonly string[], local = false): string {
  if (ids.length === 0) return l10n.t('No test runs were started.');
  return (
    (ids.length === 1
      ? l10n.t('It triggered test run {0}.', ids[0]!)
      : l10n.t('It triggered {0} test runs: {1}.', ids.length, ids.join(', '))) +
    ' ' +
    (local
      ? l10n.t(
          'The local platform runs no tests behind these ids: check this version here by running its conversation tests in the Testing view, or with Open Chat.',
        )
      : l10n.t("The platform's API returns only their ids: see their results in the studio."))
  );
}
