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
  /** Webhook endpoint `name`, in characters. */
  webhookEndpointName: 128,
  /** Webhook endpoint `url`, in characters (and an absolute http or https address, to deliver to). */
  webhookUrl: 2048,
  /** External event `event_id_path`, in characters, and in dotted parts (none empty). */
  eventIdPath: 256,
  eventIdPathParts: 32,
  /** An external event id, in characters. */
  eventId: 256,
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

/** The local platform's own rule for a webhook address: it delivers by http, so nothing else is taken. */
export function webhookUrlProblems(url: string | undefined): FieldProblem[] {
  if (url === undefined) return [];
  const over = tooLong([['url', url, LOCAL_LIMITS.webhookUrl]]);
  if (over.length) return over;
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  return protocol === 'http:' || protocol === 'https:'
    ? []
    : [
        {
          field: 'url',
          message: 'must be an http or https address for the local platform to deliver to (a rule of its own)',
        },
      ];
}
