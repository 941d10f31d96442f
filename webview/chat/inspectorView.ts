import { html, nothing, type TemplateResult } from 'lit';
import type { InspectorEntry } from '../../src/protocol/chat';
import { visibleControls } from '../shared/text';

const ARROW = { in: '←', out: '→', note: '·' } as const;

/**
 * One inspector entry: direction, event, time and the turn's latency; its JSON once expanded (drawn only
 * then: events arrive many a second while an answer streams, and each one's JSON is most of its weight).
 */
export function renderEntry(
  entry: InspectorEntry,
  open: boolean,
  onToggle: (seq: number, open: boolean) => void,
): TemplateResult {
  const time = new Date(entry.time);
  const stamp = Number.isNaN(time.getTime())
    ? entry.time
    : `${time.toLocaleTimeString()}.${String(time.getMilliseconds()).padStart(3, '0')}`;
  return html`<details
    class=${`entry ${entry.direction}${entry.unrecognized ? ' unrecognized' : ''}`}
    ?open=${open}
    @toggle=${(e: Event) => onToggle(entry.seq, (e.currentTarget as HTMLDetailsElement).open)}
  >
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
    ${open ? html`<pre>${visibleControls(entry.json)}</pre>` : nothing}
  </details>`;
}
