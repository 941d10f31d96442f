import { el } from '../shared/styles';
import { parseJsonObject } from './settingsForm';

type Field = HTMLElement & { value: string; disabled: boolean; updateComplete?: Promise<unknown> };

/** How long after the last keystroke the agent is told the person stopped typing. */
const TYPING_IDLE_MS = 2_000;

/**
 * The longest message this editor sends, in characters: the local platform's own limit (LOCAL_LIMITS.chatMessage);
 * the specification shows none (docs/api-assumptions.md). A longer one is refused here with the draft kept, since
 * the platform would refuse it after the box was cleared.
 */
export const MESSAGE_MAX = 4_096;

/** The counter under the box: how much of the limit the draft uses, and by how much it is over. */
export function countText(length: number): string {
  const count = `${length.toLocaleString('en-US')} / ${MESSAGE_MAX.toLocaleString('en-US')} characters`;
  return length > MESSAGE_MAX ? `${count}: ${(length - MESSAGE_MAX).toLocaleString('en-US')} too many` : count;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; optional custom metadata (a JSON
 * object) goes with the message and comes back on the answer.
 */
export class Composer {
  readonly element = el('form', { class: 'composer', 'aria-label': 'Send a message' });
  private readonly text = el('vscode-textarea', {
    id: 'message',
    placeholder: 'Message the agent (Enter sends, Shift+Enter for a new line)',
    rows: '2',
    'aria-label': 'Message',
  }) as Field;
  private readonly custom = el('vscode-textfield', {
    id: 'custom',
    placeholder: 'Custom metadata, e.g. {"order": "A-1001"}',
    'aria-label': 'Custom metadata (JSON object)',
  }) as Field;
  private readonly sendButton = el('vscode-button', { id: 'send' }, 'Send') as Field;
  private readonly problem = el('div', { class: 'problem', role: 'alert' });
  private readonly counter = el('div', { class: 'counter', id: 'message-count' });
  private typingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onSend: (text: string, custom?: Record<string, unknown>) => void,
    private readonly onTyping: (typing: boolean) => void,
  ) {
    const row = el('div', { class: 'composer-row' });
    row.append(this.text, this.sendButton);
    this.element.append(row, this.counter, this.custom, this.problem);
    this.count();
    this.element.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.sendButton.addEventListener('click', () => this.submit());
    this.text.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      }
    });
    this.text.addEventListener('input', () => this.typed());
  }

  set enabled(on: boolean) {
    this.sendButton.disabled = !on;
  }

  /** Puts text back into the box (the fix of a malformed message) and focuses it. */
  draft(text: string): void {
    this.text.value = text;
    this.count();
    this.text.focus();
  }

  /** Puts the keyboard in the message box; the box takes it once it has drawn its inner text area. */
  focus(): void {
    void (this.text.updateComplete ?? Promise.resolve()).then(() => this.text.focus());
  }

  private submit(): void {
    if (this.sendButton.disabled) return;
    const text = this.text.value;
    if (!text.trim()) return;
    if (text.length > MESSAGE_MAX) {
      // Refused before anything is sent or cleared: the draft stays to be shortened.
      this.problem.textContent = `Not sent: a message takes at most ${MESSAGE_MAX.toLocaleString('en-US')} characters, and this one has ${text.length.toLocaleString('en-US')}. Shorten it, then send.`;
      this.text.focus();
      return;
    }
    const custom = parseJsonObject(this.custom.value, 'Custom metadata');
    this.problem.textContent = custom.error ?? '';
    if (custom.error) return;
    this.stopTyping();
    this.onSend(text, custom.value);
    this.text.value = '';
    this.count();
    this.text.focus();
  }

  /** Shows the draft's length against the limit (from half of it on, and always once over). */
  private count(): void {
    const length = this.text.value.length;
    this.counter.textContent = countText(length);
    this.counter.hidden = length < MESSAGE_MAX / 2;
    this.counter.classList.toggle('over', length > MESSAGE_MAX);
    if (length <= MESSAGE_MAX && this.problem.textContent?.startsWith('Not sent: a message takes at most'))
      this.problem.textContent = '';
  }

  private typed(): void {
    this.count();
    if (this.typingTimer === undefined) this.onTyping(true);
    else clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.stopTyping(), TYPING_IDLE_MS);
  }

  private stopTyping(): void {
    if (this.typingTimer === undefined) return;
    clearTimeout(this.typingTimer);
    this.typingTimer = undefined;
    this.onTyping(false);
  }
}
