import type { Deployment } from '../../contract/agents';

/** Newest first: by creation time, then by version. */
export function newestFirst(deployments: readonly Deployment[]): Deployment[] {
  return [...deployments].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || Number(b.version) - Number(a.version),
  );
}

/**
 * The deployment an environment serves: the one marked active; where the platform marks none
 * (the field is ours), the newest.
 */
export function activeDeployment(deployments: readonly Deployment[]): Deployment | undefined {
  return (
    deployments.find((d) => d.active === true) ??
    (deployments.some((d) => d.active !== undefined) ? undefined : newestFirst(deployments)[0])
  );
}
