/**
 * How the local platform shapes its answers: everything we know (`full`), only the fields the spec shows
 * (`minimal`, see minimal.ts), or that and only the spec's endpoints and event names (`spec-only`, see specOnly.ts).
 * A module of its own, imported by the platform's state and the server alike.
 */
export type ResponsesMode = 'full' | 'minimal' | 'spec-only';
export const RESPONSES_MODES: readonly ResponsesMode[] = ['full', 'minimal', 'spec-only'];

/** Whether answers are shaped as the spec shows them: in the minimal mode and in the spec-only mode built on it. */
export const isThin = (mode: ResponsesMode): boolean => mode !== 'full';
