/** The simulated live agent a messaging handoff connects to: fixed, deterministic lines. */
export const LIVE_AGENT_NAME = 'Alex';

export function liveAgentGreeting(name: string): string {
  return `Hi, I'm ${name} from the support team. I can see your conversation so far. How can I help?`;
}

export function liveAgentReply(text: string): string {
  const quoted = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `Thanks, I've noted "${quoted}". Let me look into that for you.`;
}

export const LIVE_AGENT_GOODBYE = 'Thanks for chatting with us. Have a great day!';

export const DEFAULT_HANDOFF_REQUEST_REASON = 'The user requested a live agent';
