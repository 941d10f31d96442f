import { html, nothing, type TemplateResult } from 'lit';
import type { InspectorEntry } from '../../src/protocol/chat';
import { visibleControls } from '../shared/text';

const ARROW = { in: '←', out: '→', note: '·' } as const;

/** One inspector entry: direction, event, time and the turn's latency; its JSON when expanded. */
export function renderEntry(entry: InspectorEntry): TemplateResult {
  const time = new Date(entry.time);
  const stamp = Number.isNaN(time.getTime())
    ? entry.time
    : `${time.toLocaleTimeString()}.${String(time.getMilliseconds()).padStart(3, '0')}`;
  return html`<details class=${`entry ${entry.direction}${entry.unrecognized ? ' unrecognized' : ''}`}>
    <summary>
      <span
        class="dir"
        aria-label=${entry.direction === 'in' ? 'received' : entry.direction === 'out' ? 'sent' : 'note'}
        >${ARROW[entry.direction]}</span
      >
      <span class="label">${visibleControls(entry.label)}</span>
      <time>${stamp}</time
      >${entry.latencyMs !== undefined ? html` <span class="latency">${entry.latencyMs} ms</span>` : nothing}
    </summary>
    <pre>${visibleControls(entry.json)}</pre>
  </details>`;
}
