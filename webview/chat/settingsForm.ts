import type { ChatSettings } from '../../src/protocol/chat';
import { labelled } from '../shared/controls';
import { el } from '../shared/styles';

/** Parses a JSON object typed by the person; undefined when empty, an error message when not an object. */
export function parseJsonObject(text: string, what: string): { value?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return { value: v as Record<string, unknown> };
  } catch {
    // falls through to the message below
  }
  return { error: `${what} must be a JSON object, such as {"plan": "gold"}.` };
}

type Field = HTMLElement & { value: string; checked?: boolean };

/**
 * The settings a session starts with, editable; "Restart with these settings" starts a new one.
 * Variant and integration attributes go with a Chat API create; the language codes with each respond.
 */
export class SettingsForm {
  readonly element = el('vscode-collapsible', { title: 'Session settings', class: 'settings' });
  private readonly mode = el('vscode-single-select', { id: 'mode', 'aria-label': 'Mode' }) as Field;
  private readonly streaming = el('vscode-checkbox', { id: 'streaming', label: 'Stream answers (messaging)' }) as Field;
  private readonly variant = el('vscode-textfield', { id: 'variant', placeholder: 'Variant id (Chat API)' }) as Field;
  private readonly attributes = el('vscode-textfield', {
    id: 'attributes',
    placeholder: '{"customer_tier": "gold"}',
  }) as Field;
  private readonly asr = el('vscode-textfield', { id: 'asr', placeholder: 'en-US' }) as Field;
  private readonly tts = el('vscode-textfield', { id: 'tts', placeholder: 'en-US' }) as Field;
  private readonly problem = el('div', { class: 'problem', role: 'alert' });
  private target: ChatSettings['target'] = { label: '' };

  constructor(onRestart: (settings: ChatSettings) => void) {
    this.mode.append(
      el('vscode-option', { value: 'messaging' }, 'Messaging (WebSocket)'),
      el('vscode-option', { value: 'chatApi' }, 'Chat API (turn-based)'),
    );
    const restart = el('vscode-button', {}, 'Restart with these settings');
    restart.addEventListener('click', () => {
      const settings = this.read();
      if (settings) onRestart(settings);
    });
    const body = el('div', { class: 'settings-body' });
    body.append(
      labelled('mode', 'Mode', this.mode),
      this.streaming,
      labelled('variant', 'Variant id', this.variant),
      labelled('attributes', 'Integration attributes (JSON)', this.attributes),
      labelled('asr', 'ASR language', this.asr),
      labelled('tts', 'TTS language', this.tts),
      this.problem,
      restart,
    );
    this.element.append(body);
  }

  show(settings: ChatSettings): void {
    this.target = settings.target;
    this.mode.value = settings.mode;
    this.streaming.checked = settings.streaming;
    this.variant.value = settings.variantId ?? '';
    this.attributes.value = settings.integrationAttributes ? JSON.stringify(settings.integrationAttributes) : '';
    this.asr.value = settings.asrLanguage ?? '';
    this.tts.value = settings.ttsLanguage ?? '';
  }

  private read(): ChatSettings | undefined {
    const attrs = parseJsonObject(this.attributes.value, 'Integration attributes');
    this.problem.textContent = attrs.error ?? '';
    if (attrs.error) return undefined;
    const text = (f: Field) => f.value.trim() || undefined;
    const settings: ChatSettings = {
      mode: this.mode.value === 'chatApi' ? 'chatApi' : 'messaging',
      streaming: this.streaming.checked === true,
      target: this.target,
    };
    const variantId = text(this.variant);
    const asrLanguage = text(this.asr);
    const ttsLanguage = text(this.tts);
    return {
      ...settings,
      ...(variantId ? { variantId } : {}),
      ...(attrs.value ? { integrationAttributes: attrs.value } : {}),
      ...(asrLanguage ? { asrLanguage } : {}),
      ...(ttsLanguage ? { ttsLanguage } : {}),
    };
  }
}
