// What every seed is built from: the fixed instant of its clock and the support agent's content. The demo
// seeds of each family read them too, so they live apart from seeds.ts, which runs those demo seeds.
import type { AgentContent, StoredTopic } from '../agents/model';

/** A fixed instant the seeds are built around, so seeded data is the same on every run. */
export const SEED_EPOCH = Date.parse('2026-01-05T09:00:00.000Z');

function topic(id: string, name: string, content: string): StoredTopic {
  const at = new Date(SEED_EPOCH).toISOString();
  return { topicId: id, name, content, createdAt: at, updatedAt: at };
}

export const SUPPORT_AGENT_CONTENT: AgentContent = {
  behavior: [
    '# Support Desk',
    '',
    'You are Sam, the support agent of Acme. Greet the caller warmly and help with orders,',
    'returns, delivery and opening hours. Be brief and friendly.',
    'If the caller asks for a person, hand off to the human support queue.',
  ].join('\n'),
  topics: {
    kt_opening_hours: topic(
      'kt_opening_hours',
      'Opening hours',
      'Our stores are open Monday to Saturday from 9am to 6pm, and Sunday from 10am to 4pm.',
    ),
    kt_returns: topic(
      'kt_returns',
      'Returns',
      'You can return any item within 30 days of delivery for a full refund. Start a return from your order page or bring the item to any store with the receipt.',
    ),
    kt_delivery: topic(
      'kt_delivery',
      'Delivery',
      'Standard delivery takes 3 to 5 working days and is free over 50 dollars. Express delivery arrives the next working day for 9 dollars.',
    ),
  },
};
