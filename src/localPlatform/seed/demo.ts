import type { Platform } from '../platform';

/** Adds the demo data on top of the base seed: more agents, branches, alert rules and a week of conversations. */
export function seedDemo(_platform: Platform): void {
  // Filled in by the families' demo builders.
}
