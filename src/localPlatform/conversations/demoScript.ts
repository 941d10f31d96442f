import { slugOf } from '../engine/language';
import { fallbackLine, GOODBYE_LINE, greetingLine, HANDOFF_LINE, personaOf, SILENCE_LINE } from '../engine/persona';
import { SUPPORT_AGENT_CONTENT } from '../seed/supportAgent';

/**
 * What callers say to the support agent in the demo week, and what it answers: the answers are
 * the support agent's own knowledge topics and fixed lines, so the demo reads like the agent.
 */

export interface DemoTopic {
  topicId: string;
  intent: string;
  answer: string;
  /** Caller lines; `{order}` is replaced by an order number. */
  asks: readonly string[];
}

/** What callers ask per topic of the support agent. */
const ASKS: Readonly<Record<string, readonly string[]>> = {
  kt_opening_hours: [
    'What time are you open today?',
    'Are you open on Sunday?',
    'When does the store close on Saturday?',
    'What are your opening hours?',
    'Is the shop open tomorrow morning?',
  ],
  kt_returns: [
    'I want to return a jacket I bought last week.',
    'How do I get a refund for order {order}?',
    'Can I return something without the receipt?',
    'The shoes from order {order} are too small, can I send them back?',
    'How long do I have to return an item?',
  ],
  kt_delivery: [
    'Where is my parcel? The order number is {order}.',
    'How long does delivery take?',
    'Is delivery free?',
    'Can I get express delivery for order {order}?',
    'My package has not arrived yet.',
  ],
};

/** How often callers ask about each topic (opening hours, returns, delivery). */
export const TOPIC_WEIGHTS = [0.3, 0.3, 0.4] as const;

export const OOD_ASKS: readonly string[] = [
  'Can you book me a taxi?',
  "What's the weather going to be like tomorrow?",
  'Do you sell concert tickets?',
  'Can you tell me a joke?',
  'I need help with my car insurance.',
];

export const HANDOFF_ASKS: readonly string[] = [
  'Can I speak to a person, please?',
  'I want to talk to a real person.',
  'Put me through to someone in customer service.',
  'Agent, please.',
];

export const GOODBYE_ASKS: readonly string[] = [
  'Thanks, that helps. Bye!',
  "That's all, thank you.",
  'Great, thanks. Goodbye.',
  'OK, bye.',
];

export { GOODBYE_LINE, HANDOFF_LINE, SILENCE_LINE };

export const HANDOFF_REASON_REPEATED_OOD = 'The agent could not help after repeated out-of-domain requests';

/** A short conversation in another language, with the English the translation setting shows. */
export interface ForeignLine {
  text: string;
  english: string;
}

export interface ForeignScript {
  greeting: ForeignLine;
  /** Per topic, in the order of the script's topics: a question and the answer. */
  topics: ReadonlyArray<{ ask: ForeignLine; answer: ForeignLine }>;
  goodbye: { ask: ForeignLine; answer: ForeignLine };
}

function foreignScripts(
  topics: Readonly<Record<string, { content: string }>>,
  greeting: string,
): Readonly<Record<ForeignLanguage, ForeignScript>> {
  return {
    'es-ES': {
      greeting: { text: '¡Hola! Soy Sam, de Acme. ¿En qué puedo ayudarle hoy?', english: greeting },
      topics: [
        {
          ask: { text: '¿A qué hora abren hoy?', english: 'What time do you open today?' },
          answer: {
            text: 'Nuestras tiendas abren de lunes a sábado de 9 a 18 h, y el domingo de 10 a 16 h.',
            english: topics.kt_opening_hours!.content,
          },
        },
        {
          ask: { text: 'Quiero devolver unos zapatos.', english: 'I want to return some shoes.' },
          answer: {
            text: 'Puede devolver cualquier artículo en un plazo de 30 días desde la entrega para un reembolso completo.',
            english: topics.kt_returns!.content,
          },
        },
        {
          ask: { text: '¿Cuánto tarda el envío?', english: 'How long does delivery take?' },
          answer: {
            text: 'El envío estándar tarda de 3 a 5 días laborables y es gratuito a partir de 50 dólares.',
            english: topics.kt_delivery!.content,
          },
        },
      ],
      goodbye: {
        ask: { text: 'Gracias, adiós.', english: 'Thank you, goodbye.' },
        answer: { text: 'Gracias por contactarnos. ¡Adiós!', english: GOODBYE_LINE },
      },
    },
    'fr-FR': {
      greeting: { text: "Bonjour ! Je suis Sam, d'Acme. Comment puis-je vous aider aujourd'hui ?", english: greeting },
      topics: [
        {
          ask: { text: 'Vous êtes ouverts le dimanche ?', english: 'Are you open on Sunday?' },
          answer: {
            text: 'Nos magasins sont ouverts du lundi au samedi de 9 h à 18 h, et le dimanche de 10 h à 16 h.',
            english: topics.kt_opening_hours!.content,
          },
        },
        {
          ask: { text: 'Comment me faire rembourser ?', english: 'How do I get a refund?' },
          answer: {
            text: 'Vous pouvez retourner tout article dans les 30 jours suivant la livraison pour un remboursement complet.',
            english: topics.kt_returns!.content,
          },
        },
        {
          ask: { text: 'Où est mon colis ?', english: 'Where is my parcel?' },
          answer: {
            text: 'La livraison standard prend 3 à 5 jours ouvrés et est gratuite au-delà de 50 dollars.',
            english: topics.kt_delivery!.content,
          },
        },
      ],
      goodbye: {
        ask: { text: 'Merci, au revoir.', english: 'Thank you, goodbye.' },
        answer: { text: 'Merci de nous avoir contactés. Au revoir !', english: GOODBYE_LINE },
      },
    },
  };
}

export type ForeignLanguage = 'es-ES' | 'fr-FR';

/** Everything a demo conversation is made of. */
export interface DemoScript {
  topics: readonly DemoTopic[];
  greeting: string;
  /** The Friendly Tone variant greets and answers a little warmer. */
  friendlyGreeting: string;
  friendlyPrefix: string;
  fallback: string;
  foreign: Readonly<Record<ForeignLanguage, ForeignScript>>;
}

/** Built when seeding (not at import: the seed module imports this one). */
export function demoScript(): DemoScript {
  const content = SUPPORT_AGENT_CONTENT;
  const persona = personaOf(content.behavior);
  const greeting = greetingLine(persona);
  const topics = Object.keys(ASKS).map((topicId): DemoTopic => {
    const topic = content.topics[topicId]!;
    return { topicId, intent: `faq.${slugOf(topic.name)}`, answer: topic.content, asks: ASKS[topicId]! };
  });
  return {
    topics,
    greeting,
    friendlyGreeting: `Hi there, lovely to hear from you! I'm ${persona.name ?? 'Sam'} from Acme. What can I do for you today?`,
    friendlyPrefix: 'Happy to help! ',
    fallback: fallbackLine(Object.values(content.topics).map((t) => t.name)),
    foreign: foreignScripts(content.topics, greeting),
  };
}
