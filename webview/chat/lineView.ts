import { html, nothing, type TemplateResult } from 'lit';
import type { ChatLine } from '../../src/protocol/chat';
import { visibleControls } from '../shared/text';

const WHO: Record<ChatLine['role'], string> = {
  user: 'You',
  agent: 'Agent',
  liveAgent: 'Person',
  system: 'System',
  notice: '',
};

function timeOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString();
}

/**
 * One line of the conversation. Every value from the host goes into a text binding, which lit
 * writes as a text node: agent text is never parsed as HTML, whatever it contains.
 */
export function renderLine(line: ChatLine, onFix: (line: ChatLine) => void): TemplateResult {
  const classes = [
    'line',
    line.role,
    line.error ? 'error' : '',
    line.streaming ? 'streaming' : '',
    line.interrupted ? 'interrupted' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const who = line.speaker ? `${WHO[line.role]} · ${line.speaker}` : WHO[line.role];
  return html`<div class=${classes} data-line=${line.id}>
    ${who ? html`<div class="meta"><span class="who">${visibleControls(who)}</span> <time>${timeOf(line.time)}</time>${line.role === 'user' && line.streaming ? html` <span class="state">sending…</span>` : nothing}${line.role !== 'user' && line.streaming ? html` <span class="state">writing…</span>` : nothing}${line.interrupted ? html` <span class="state">interrupted</span>` : nothing}${line.note ? html` <span class="state note">${visibleControls(line.note)}</span>` : nothing}</div>` : nothing}
    <div class="text">${visibleControls(line.text)}</div>
    ${line.custom ? html`<div class="custom"><span>metadata.custom</span> <code>${visibleControls(JSON.stringify(line.custom))}</code></div>` : nothing}
    ${line.fix ? html`<vscode-button class="fix" secondary @click=${() => onFix(line)}>${line.fix.label}</vscode-button>` : nothing}
  </div>`;
}
