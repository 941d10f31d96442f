// Which environment a command applies to when the person did not say: the one chosen with Select
// Environment, where the agent has something deployed; otherwise the furthest one it is deployed to.
import type { Deployment } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import type { L10n } from '../common/l10n';
import { ENVIRONMENT_ORDER as ORDER } from '../explorer/agents/deploymentNodes';
import { activeDeployment } from '../model/deployments';

/** The version each environment serves (the active deployment, else the newest), by environment. */
export function servedVersions(deployments: readonly Deployment[]): Map<Environment, string> {
  const served = new Map<Environment, string>();
  for (const env of ORDER) {
    const active = activeDeployment(deployments.filter((d) => d.environment === env));
    if (active) served.set(env, active.version);
  }
  return served;
}

/** The selected environment when the agent is deployed there; else the furthest it is deployed to; else the selected one. */
export function defaultEnvironment(selected: Environment, served: ReadonlyMap<Environment, string>): Environment {
  if (served.has(selected)) return selected;
  return [...ORDER].reverse().find((e) => served.has(e)) ?? selected;
}

/** Quick pick items for the environments, the default first, each saying what it serves. */
export function environmentItems(
  l10n: L10n,
  selected: Environment,
  served: ReadonlyMap<Environment, string> | undefined,
): Array<{ label: Environment; description: string }> {
  const first = served ? defaultEnvironment(selected, served) : selected;
  return [first, ...ORDER.filter((e) => e !== first)].map((env) => {
    const version = served?.get(env);
    const what =
      served === undefined
        ? ''
        : version !== undefined
          ? l10n.t('serves version {0}', version)
          : l10n.t('nothing deployed');
    const notes = [what, env === selected ? l10n.t('selected environment') : ''].filter(Boolean);
    return { label: env, description: notes.join(' · ') };
  });
}
