import { UsageError } from '../core/commandLine';
import { type Environment, ENVIRONMENTS, isEnvironment } from '../contract/common';

/** A flag's whole number of 1 or more, or undefined when not given; anything else is a usage error. */
export function wholeFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a whole number of 1 or more, got "${text}"`);
  return n;
}

/** A flag naming one of the platform's environments; anything else is a usage error. */
export function environmentFlag(name: string, value: string | undefined): Environment {
  if (!isEnvironment(value))
    throw new UsageError(`--${name} must be one of ${ENVIRONMENTS.join(', ')}, got "${value}"`);
  return value;
}
