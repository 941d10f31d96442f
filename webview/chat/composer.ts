import { el } from '../shared/styles';
import { parseJsonObject } from './settingsForm';

type Field = HTMLElement & { value: string; disabled: boolean };

/** How long after the last keystroke the agent is told the person stopped typing. */
const TYPING_IDLE_MS = 2_000;

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
  private typingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onSend: (text: string, custom?: Record<string, unknown>) => void,
    private readonly onTyping: (typing: boolean) => void,
  ) {
    const row = el('div', { class: 'composer-row' });
    row.append(this.text, this.sendButton);
    this.element.append(row, this.custom, this.problem);
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
    this.text.focus();
  }

  focus(): void {
    this.text.focus();
  }

  private submit(): void {
    if (this.sendButton.disabled) return;
    const text = this.text.value;
    if (!text.trim()) return;
    const custom = parseJsonObject(this.custom.value, 'Custom metadata');
    this.problem.textContent = custom.error ?? '';
    if (custom.error) return;
    this.stopTyping();
    this.onSend(text, custom.value);
    this.text.value = '';
    this.text.focus();
  }

  private typed(): void {
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
