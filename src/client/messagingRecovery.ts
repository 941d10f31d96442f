import { SYSTEM_ERRORS } from '../contract/messaging';

/**
 * What a session does about a system message of the spec's error table ("Client action" column):
 * ask the agent to join again, send the last message again, start a new session, reconnect, or
 * nothing it can do by itself (a configuration issue, or a mistake in what was sent).
 */
export type RecoveryAction = 'rejoin' | 'resend' | 'newSession' | 'reconnect' | 'none';

/** Told to the session's listeners each time it acts on a system message, so the person sees it. */
export interface SessionRecovery {
  action: RecoveryAction;
  /** The platform's text. */
  systemText: string;
  /** What the session did or advises, in a sentence. */
  message: string;
}

interface Rule {
  action: RecoveryAction;
  /** Wait before acting ("retry after a few seconds"). */
  later?: boolean;
  /** When acting once did not help: the next step of the spec's table ("retry; then new session"). */
  then?: RecoveryAction;
  advice: string;
}

const RULES: ReadonlyArray<[string, Rule]> = [
  [
    SYSTEM_ERRORS.overload,
    {
      action: 'resend',
      later: true,
      advice: 'The agent service is overloaded: the last message is sent again in a few seconds.',
    },
  ],
  [
    SYSTEM_ERRORS.startFailed,
    { action: 'rejoin', then: 'newSession', advice: 'The agent could not start: asking it to join again.' },
  ],
  [
    SYSTEM_ERRORS.responseFailed,
    { action: 'resend', advice: 'The answer could not be generated: the last message is sent again.' },
  ],
  [
    SYSTEM_ERRORS.streamInterrupted,
    { action: 'resend', advice: 'The answer was interrupted: the last message is sent again.' },
  ],
  [SYSTEM_ERRORS.sessionNotFound, { action: 'newSession', advice: 'The session is gone: starting a new session.' }],
  [
    SYSTEM_ERRORS.sessionLookupFailed,
    { action: 'reconnect', then: 'newSession', advice: 'The platform could not look the session up: reconnecting.' },
  ],
  [
    SYSTEM_ERRORS.connectorNotFound,
    {
      action: 'none',
      advice: 'The webchat connector is no longer valid: check the connector token and host of the connection profile.',
    },
  ],
  [
    SYSTEM_ERRORS.conversationNotFound,
    { action: 'rejoin', advice: 'The session has no conversation yet: asking the agent to join.' },
  ],
  [
    SYSTEM_ERRORS.conversationIdNotFound,
    { action: 'rejoin', then: 'newSession', advice: 'The conversation was not initialised: asking the agent to join.' },
  ],
  [
    SYSTEM_ERRORS.handoffConnectFailed,
    { action: 'none', advice: 'No live agent could be reached: ask again later, or use another channel.' },
  ],
  [
    SYSTEM_ERRORS.handoffForwardFailed,
    { action: 'resend', advice: 'The message did not reach the live agent: it is sent again.' },
  ],
  [
    SYSTEM_ERRORS.handoffNotInitiated,
    { action: 'none', advice: 'The handoff is not configured or was refused: a configuration issue on the platform.' },
  ],
  [
    SYSTEM_ERRORS.invalidFormat,
    {
      action: 'none',
      advice:
        'The platform did not understand an event this client sent: check the client event names (setting agentWorkbench.messaging.clientEventNames).',
    },
  ],
];

/** The rule for a system text, or undefined for a text outside the spec's error table. */
export function recoveryFor(text: string): Rule | undefined {
  if (text.startsWith(SYSTEM_ERRORS.notAllowedPrefix)) {
    return {
      action: 'none',
      advice:
        'The platform does not accept that event type from a client: check the client event names (setting agentWorkbench.messaging.clientEventNames).',
    };
  }
  return RULES.find(([t]) => t === text)?.[1];
}

/**
 * Decides each action once per cause: the first time the table's action, the second time its next step
 * (or nothing), so a platform that keeps failing cannot make the session loop.
 */
export class RecoveryPlanner {
  private readonly tries = new Map<string, number>();

  plan(text: string): { action: RecoveryAction; later: boolean; advice: string } | undefined {
    const rule = recoveryFor(text);
    if (!rule) return undefined;
    const n = (this.tries.get(text) ?? 0) + 1;
    this.tries.set(text, n);
    if (n === 1) return { action: rule.action, later: rule.later ?? false, advice: rule.advice };
    if (n === 2 && rule.then)
      return { action: rule.then, later: false, advice: 'It happened again: starting a new session.' };
    return {
      action: 'none',
      later: false,
      advice: `${rule.advice.split(':')[0]} again; the session leaves it to you now.`,
    };
  }

  /** Something worked (the agent joined, an answer came): causes may be tried again later. */
  reset(): void {
    this.tries.clear();
  }
}
