/** Who the agent is, read from its behavior prompt, and the fixed lines it says. */
export interface Persona {
  /** The name the behavior gives the agent (`You are Sam, ...`), if any. */
  readonly name?: string;
  /** What the behavior says the agent is (`the support agent of Acme`), if any. */
  readonly role?: string;
  /** The first Markdown heading of the behavior, used when it names no persona. */
  readonly title?: string;
}

const INTRO = /\b(?:[Yy]ou are|[Yy]ou're|[Yy]our name is)\s+([A-Z][\p{L}'-]*)(?:\s*,\s*([^.\n]+))?/u;
const HEADING = /^\s*#{1,6}\s+(.+?)\s*#*\s*$/m;

export function personaOf(behavior: string): Persona {
  const intro = INTRO.exec(behavior);
  const heading = HEADING.exec(behavior);
  return {
    ...(intro ? { name: intro[1]!, ...(intro[2] ? { role: intro[2].trim() } : {}) } : {}),
    ...(heading ? { title: heading[1]! } : {}),
  };
}

/** Names a user may be known by in integration attributes. */
const NAME_KEYS = ['customer_name', 'first_name', 'name', 'user_name'];

/** The caller's name from the integration attributes, when the integration sent one. */
export function userNameOf(attributes: Record<string, unknown> | null | undefined): string | undefined {
  if (!attributes) return undefined;
  for (const key of NAME_KEYS) {
    const v = attributes[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

export function greetingLine(persona: Persona, userName?: string): string {
  const hello = userName ? `Hello ${userName}!` : 'Hello!';
  if (persona.name)
    return `${hello} I'm ${persona.name}${persona.role ? `, ${persona.role}` : ''}. How can I help you today?`;
  if (persona.title) return `${hello} Welcome to ${persona.title}. How can I help you today?`;
  return `${hello} How can I help you today?`;
}

/** What the agent says when it has no topic for a question; it names what it can help with. */
export function fallbackLine(topicNames: readonly string[]): string {
  if (topicNames.length === 0) return "Sorry, I can't help with that.";
  const list = topicNames.map((n) => n.toLowerCase());
  const joined = list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]!}`;
  return `Sorry, I can't help with that. I can help with ${joined}.`;
}

export const HANDOFF_LINE = "Of course. I'm transferring you to a member of our team now.";
export const HANDOFF_UNAVAILABLE_LINE = "I'm sorry, I can't transfer you to a member of our team right now.";
export const GOODBYE_LINE = 'Thank you for getting in touch. Goodbye!';
export const SILENCE_LINE = "Sorry, I didn't catch that. How can I help?";
export const GREETING_REPLY_LINE = 'Hello again! What can I help you with?';

/** The default handoff destination when the connector names none. */
export const DEFAULT_HANDOFF_DESTINATION = 'human-support-queue';
export const HANDOFF_REASON_USER = 'The user asked to speak to a person';
