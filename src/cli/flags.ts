import { UsageError } from '../core/commandLine';
import { type Environment, ENVIRONMENTS, isEnvironment } from '../contract/common';

/** A flag naming one of the platform's environments; anything else is a usage error. */
export function environmentFlag(name: string, value: string | undefined): Environment {
  if (!isEnvironment(value))
    throw new UsageError(`--${name} must be one of ${ENVIRONMENTS.join(', ')}, got "${value}"`);
  return value;
}
