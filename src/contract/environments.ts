// Without zod, so the editor's first bundle can name environments without loading the client's schemas.

/** The three environments of the platform. */
export const ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
/** True for one of the three environments (answers may carry others, which are kept as text). */
export const isEnvironment = (value: unknown): value is Environment =>
  (ENVIRONMENTS as readonly unknown[]).includes(value);
