import type { Platform } from '../platform';

/** Demo data of this family, added on top of the base seed (deterministic). */
export function seedDemoConversations(_platform: Platform): void {
  // Filled in with the family.
}
