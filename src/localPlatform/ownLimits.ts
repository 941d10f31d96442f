/**
 * Limits the local platform sets for itself where the specification shows none (docs/api-assumptions.md,
 * "Limits"). The client does not enforce them: it sends, and shows the platform's answer. So every refusal
 * here says it is the local platform's own rule, never the specification's.
 */

export const LOCAL_LIMITS = {
  /** Chat API `message` on respond, in characters. */
  chatMessage: 4096,
  /** DNI `attributes`, in bytes of compact UTF-8 JSON. */
  dniAttributesBytes: 32 * 1024,
  /** Agent `description`, in characters. */
  agentDescription: 2000,
  /** Branch `name`, in characters. */
  branchName: 100,
  /** Behavior, in characters. */
  behavior: 100_000,
  /** Knowledge-base topic `name`, in characters. */
  topicName: 128,
  /** Knowledge-base topic `content`, in characters. */
  topicContent: 100_000,
  /** `deploymentMessage` of publish, promote and rollback, in characters. */
  deploymentMessage: 500,
  /** `phoneNumbers` of one import. */
  phoneNumbers: 100,
} as const;

/** Branch names of the local platform: no spaces, like git branch names (`holiday-hours`, `feature/booking`). */
export const LOCAL_BRANCH_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** The words of a refusal by one of these limits. */
export function overLocalLimit(max: number, unit: string): string {
  return `the local platform takes at most ${max} ${unit} (a limit of its own; the specification shows none)`;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** One problem per text longer than its limit, in characters. */
export function tooLong(
  texts: ReadonlyArray<readonly [field: string, value: string | undefined, max: number]>,
): FieldProblem[] {
  return texts
    .filter(([, value, max]) => value !== undefined && value.length > max)
    .map(([field, , max]) => ({ field, message: overLocalLimit(max, 'characters') }));
}

/** Bytes of a value as compact UTF-8 JSON. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
