import type { ChatStatus } from '../../src/protocol/chat';
import { actionButton, type Button } from '../shared/controls';
import { el } from '../shared/styles';

export interface ToolbarActions {
  restart(): void;
  endSession(): void;
  handoff(): void;
  copyId(): void;
  save(): void;
  openTranscript(): void;
  saveAsTest(): void;
  toggleInspector(): void;
  externalEvent(): void;
}

/** The panel's actions, each a button reachable with Tab. */
export class Toolbar {
  readonly element = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat actions' });
  private readonly said = el('span', { class: 'said', 'aria-live': 'polite' });
  private readonly buttons: Record<keyof ToolbarActions, Button>;

  constructor(actions: ToolbarActions) {
    const make = (name: keyof ToolbarActions, label: string, title: string): Button =>
      actionButton(name, label, title, () => actions[name]());
    this.buttons = {
      restart: make('restart', 'Restart', 'Start a new session with the same settings'),
      endSession: make('endSession', 'End session', 'End the session on the platform'),
      handoff: make('handoff', 'Ask for a person', 'Request a handoff to a live agent'),
      copyId: make('copyId', 'Copy conversation id', 'Copy the conversation id to the clipboard'),
      save: make('save', 'Save', 'Save the conversation to a file in the workspace'),
      externalEvent: make(
        'externalEvent',
        'Send external event',
        'Post a result (a payment, a booking) into this conversation as a third-party system would',
      ),
      openTranscript: make(
        'openTranscript',
        'Open transcript',
        'Open the recorded conversation in the transcript viewer: turns, latency, metrics',
      ),
      saveAsTest: make(
        'saveAsTest',
        'Save as Test',
        "Write this conversation as a new case of the agent folder's conversation tests",
      ),
      toggleInspector: make('toggleInspector', 'Inspector', 'Show or hide the inspector'),
    };
    this.element.append(...Object.values(this.buttons), this.said);
  }

  conversation(s: ChatStatus): void {
    const live = s.state === 'open' || s.state === 'reconnecting' || s.state === 'connecting';
    this.buttons.endSession.disabled = !live;
    this.buttons.handoff.disabled = !live;
    this.buttons.copyId.disabled = !s.conversationId;
    this.buttons.externalEvent.disabled = !live || !s.conversationId;
    this.buttons.openTranscript.disabled = !s.conversationId;
    this.buttons.saveAsTest.disabled = !s.conversationId;
  }

  /** A short answer to an action (saved, copied), read out by screen readers. */
  say(text: string): void {
    this.said.textContent = text;
  }
}
