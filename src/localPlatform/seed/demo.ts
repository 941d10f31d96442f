import { seedDemoAgents } from '../agents/demo';
import { seedDemoAlerts } from '../alerts/demo';
import { seedDemoConversations } from '../conversations/demo';
import type { Platform } from '../platform';

/** Adds the demo data on top of the base seed: more agents, branches, a week of conversations, alert rules. */
export function seedDemo(platform: Platform): void {
  seedDemoAgents(platform);
  seedDemoConversations(platform);
  seedDemoAlerts(platform);
}
