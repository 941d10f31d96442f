import { LitVirtualizer } from '@lit-labs/virtualizer';
import { html, nothing, render, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type {
  ConversationDetail,
  DetailStatus,
  FindResult,
  NameValue,
  TranscriptsSnapshot,
  TurnView,
} from '../../src/protocol/transcripts';
import { metricName, metricText } from '../../src/protocol/metricWords';
import { actionButton, type Button } from '../shared/controls';
import { el } from '../shared/styles';
import { marked, visibleControls } from '../shared/text';
import { durationText, timeText } from './listView';

type Field = HTMLElement & { value: string; checked?: boolean; updateComplete?: Promise<unknown> };

export interface DetailActions {
  find(text: string): void;
  exportAs(format: 'json' | 'markdown'): void;
  copyId(): void;
  openAgent(): void;
  replay(): void;
  createTest(): void;
  reveal(revealed: boolean): void;
  refresh(): void;
  /** Beside the list: closes the conversation, or moves it to a panel of its own. */
  close?(): void;
  openToSide?(): void;
}

/** A turn as the timeline shows it: matched by Find, or shown around a match. */
interface Shown {
  turn: TurnView;
  match: boolean;
  /** The turns left out before this one, when Find shows only some. */
  gapBefore: number;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return iso && !Number.isNaN(d.getTime()) ? d.toLocaleTimeString() : '';
}

function pairs(items: readonly NameValue[], cls: string): TemplateResult {
  return html`<dl class=${cls}>
    ${items.map(
      (i) =>
        html`<dt>${visibleControls(i.name)}</dt>
          <dd>${visibleControls(i.value)}</dd>`,
    )}
  </dl>`;
}

/** Metrics in words (the platform's name in each name's tooltip, so alert rules and docs can be matched). */
function metricPairs(items: readonly NameValue[]): TemplateResult {
  return html`<dl class="metrics">
    ${items.map(
      (i) =>
        html`<dt title=${visibleControls(i.name)}>${visibleControls(metricName(i.name))}</dt>
          <dd>${visibleControls(metricText(i.name, i.value))}</dd>`,
    )}
  </dl>`;
}

// A bar's width is set through the element's style object: the page's security policy refuses style attributes.

/** One conversation: the timeline of turns (virtualized) and a side section with its facts, handoff, metrics and state. */
export class DetailView {
  readonly element = el('div', { class: 'detail-view' });
  /** The conversation shown. */
  conversationId = '';
  readonly turns = new LitVirtualizer<Shown>();
  private detail: ConversationDetail | undefined;
  private found: FindResult | undefined;
  private words: string[] = [];
  private readonly statusLine = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private readonly problem = el('div', { class: 'problem', role: 'alert' });
  private readonly said = el('span', { class: 'said', 'aria-live': 'polite' });
  private readonly findBox = el('vscode-textfield', {
    id: 'find',
    placeholder: 'Find in this conversation',
    'aria-label': 'Find in this conversation',
  }) as Field;
  private readonly findCount = el('span', { class: 'find-count', 'aria-live': 'polite' });
  private readonly revealBox = el('vscode-checkbox', { id: 'reveal', label: 'Show numbers' }) as Field;
  private readonly title = el('h1', { class: 'title' });
  private readonly note = el('p', { class: 'empty turns-note' });
  /** Scrolls on its own: a Tab stop, so the keyboard can scroll it too. */
  private readonly side = el('aside', { class: 'side', 'aria-label': 'Conversation facts', tabindex: '0' });
  private readonly openAgentButton: Button;
  private findTimer: ReturnType<typeof setTimeout> | undefined;
  private wentToTurn = false;

  /** `besideList`: shown in the list's page, where the list's Show numbers covers the conversation too. */
  constructor(actions: DetailActions, besideList = false) {
    const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Conversation actions' });
    this.openAgentButton = actionButton('openAgent', 'Open agent', 'Show the agent in the Agents view', () =>
      actions.openAgent(),
    );
    toolbar.append(
      this.findBox,
      this.findCount,
      actionButton('exportMarkdown', 'Export Markdown', 'Save the transcript as Markdown', () =>
        actions.exportAs('markdown'),
      ),
      actionButton('exportJson', 'Export JSON', 'Save the record as JSON', () => actions.exportAs('json')),
      actionButton('copyId', 'Copy id', 'Copy the conversation id to the clipboard', () => actions.copyId()),
      this.openAgentButton,
      actionButton('replay', 'Replay…', 'Send the user turns again to a branch and compare the answers', () =>
        actions.replay(),
      ),
      actionButton(
        'createTest',
        'Save as Test',
        "Write this conversation as a new case of the agent folder's tests",
        () => actions.createTest(),
      ),
      actionButton('refresh', 'Refresh', 'Read the conversation again', () => actions.refresh()),
    );
    if (!besideList) toolbar.append(this.revealBox);
    const { close, openToSide } = actions;
    if (openToSide)
      toolbar.append(
        actionButton('openToSide', 'Open in New Tab', 'Open this conversation in a panel of its own', () =>
          openToSide(),
        ),
      );
    if (close) toolbar.append(actionButton('closeDetail', 'Close', 'Close this conversation (Escape)', () => close()));
    toolbar.append(this.said);
    this.findBox.addEventListener('input', () => {
      if (this.findTimer) clearTimeout(this.findTimer);
      this.findTimer = setTimeout(() => actions.find(this.findBox.value), 150);
    });
    this.findBox.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        // Escape in Find clears the search; it does not close the conversation.
        e.stopPropagation();
        this.findBox.value = '';
        actions.find('');
      }
    });
    this.revealBox.addEventListener('change', () => actions.reveal(this.revealBox.checked === true));
    this.turns.scroller = true;
    this.turns.className = 'turns';
    this.turns.setAttribute('role', 'list');
    this.turns.setAttribute('aria-label', 'Turns');
    // The timeline scrolls on its own and holds nothing to focus: a Tab stop, so the keyboard can read and scroll it.
    this.turns.tabIndex = 0;
    this.turns.keyFunction = (s) => s.turn.n;
    this.turns.renderItem = (s) => this.renderTurn(s);
    const timeline = el('section', { class: 'timeline', 'aria-label': 'Timeline' });
    timeline.append(this.note, this.turns);
    const main = el('main', { class: 'split' });
    main.append(timeline, this.side);
    this.element.append(this.title, toolbar, this.statusLine, this.problem, main);
  }

  show(s: Extract<TranscriptsSnapshot, { kind: 'detail' }>): void {
    this.conversationId = s.conversationId;
    this.title.textContent = `Conversation ${visibleControls(s.conversationId)}`;
    this.setStatus(s.status);
    this.found = s.find;
    if (s.detail) this.showDetail(s.detail);
    else this.layout();
    // Opened at a turn: shown there once, then the person scrolls.
    const at = s.turn && !this.wentToTurn ? this.turns.items.findIndex((t) => t.turn.n >= s.turn!) : -1;
    if (at >= 0) {
      this.wentToTurn = true;
      this.turns.scrollToIndex(at, 'start');
    }
  }

  showDetail(d: ConversationDetail): void {
    this.detail = d;
    this.openAgentButton.disabled = !d.agentId;
    this.note.textContent = d.turnsNote;
    this.note.hidden = !d.turnsNote;
    this.renderSide(d);
    this.layout();
  }

  setFound(find: FindResult | undefined): void {
    this.found = find;
    this.layout();
    if (find?.matches.length) {
      const first = this.turns.items.findIndex((s) => s.match);
      if (first >= 0) this.turns.scrollToIndex(first, 'start');
    }
  }

  setStatus(s: DetailStatus): void {
    this.statusLine.textContent = s.text;
    this.problem.textContent = s.error ?? '';
    this.revealBox.checked = s.revealed;
  }

  /** Taken out of the page: a Find still waiting is not sent for the next conversation. */
  dispose(): void {
    if (this.findTimer) clearTimeout(this.findTimer);
    this.findTimer = undefined;
    this.element.remove();
  }

  /** Puts the keyboard in the Find box, once the box has drawn its inner field. */
  focusFind(): void {
    void (this.findBox.updateComplete ?? Promise.resolve()).then(() => this.findBox.focus());
  }

  say(text: string): void {
    this.said.textContent = text;
  }

  private layout(): void {
    const turns = this.detail?.turns ?? [];
    const find = this.found;
    this.words = find ? find.query.toLowerCase().split(/\s+/).filter(Boolean) : [];
    if (!find) {
      this.findCount.textContent = '';
      this.turns.items = turns.map((turn) => ({ turn, match: false, gapBefore: 0 }));
      return;
    }
    const matches = new Set(find.matches);
    let previous = -1;
    this.turns.items = find.shown
      .filter((i) => i < turns.length)
      .map((i) => {
        const shown = { turn: turns[i]!, match: matches.has(i), gapBefore: i - previous - 1 };
        previous = i;
        return shown;
      });
    const n = find.matches.length;
    this.findCount.textContent =
      n === 0 ? 'No turn matches' : `${n} turn${n === 1 ? '' : 's'} match, shown with the turns around them`;
  }

  private renderSide(d: ConversationDetail): void {
    const r = d.row;
    const facts: NameValue[] = [
      { name: 'Started', value: timeText(r.startedAt) },
      { name: 'Duration', value: durationText(r.durationS, r.inProgress) },
      { name: 'Turns', value: String(r.turns) },
      { name: 'Channel', value: r.channel },
      { name: 'Environment', value: d.environment },
      { name: 'Variant', value: r.variant },
      { name: 'From', value: r.from },
      { name: 'To', value: r.to },
    ].filter((f) => f.value !== '');
    const view = html`<h2>Conversation</h2>
      ${pairs(facts, 'facts')}
      <h2>Handoff</h2>
      ${
        d.handoff
          ? pairs(
              [
                { name: 'To', value: d.handoff.destination },
                { name: 'Reason', value: d.handoff.reason },
              ],
              'handoff',
            )
          : html`<p class="empty">Not handed off.</p>`
      }
      <h2>Metrics</h2>
      ${d.metrics.length ? metricPairs(d.metrics) : html`<p class="empty metrics-note">${d.metricsNote}</p>`}
      <h2>State</h2>
      ${d.state.length ? pairs(d.state, 'state') : html`<p class="empty">No conversation variables were set.</p>`}`;
    // Every value is a text binding.
    render(view, this.side);
  }

  /** One turn: who said what and when, flags, intents and entities, and its latency as a bar. */
  private renderTurn(s: Shown): TemplateResult {
    const t = s.turn;
    const max = this.detail?.maxLatencyMs ?? 0;
    const w = this.words;
    const flags = [t.bargeIn ? 'barge-in' : '', t.silence ? 'silence' : '', t.ood ? 'out of domain' : ''].filter(
      Boolean,
    );
    const pct = t.latencyMs !== undefined && max > 0 ? Math.max(1, Math.round((t.latencyMs / max) * 100)) : 0;
    return html`<div
      class="turn ${s.match ? 'match' : ''} ${this.found && !s.match ? 'context' : ''}"
      role="listitem"
      data-turn=${t.n}
    >
      ${s.gapBefore > 0 ? html`<div class="gap">${s.gapBefore} turn${s.gapBefore === 1 ? '' : 's'} not shown</div>` : nothing}
      <div class="meta">
        <span class="n">Turn ${t.n}</span>
        ${flags.map((f) => html`<span class="flag ${f.replace(/\W+/g, '-')}">${f}</span>`)}
      </div>
      ${
        t.user || t.dtmf || t.silence
          ? html`<div class="said user">
              <span class="who">User</span> <time>${clock(t.userTime)}</time>
              <span class="text"
                >${t.user ? marked(t.user, w) : t.dtmf ? `keypad ${visibleControls(t.dtmf)}` : '(silence)'}</span
              >
              ${t.translatedUser ? html`<div class="translated">In English: ${marked(t.translatedUser, w)}</div>` : nothing}
            </div>`
          : nothing
      }
      ${
        t.agent
          ? html`<div class="said agent">
              <span class="who">Agent</span> <time>${clock(t.agentTime)}</time>
              <span class="text">${marked(t.agent, w)}</span>
              ${t.englishAgent ? html`<div class="translated">In English: ${marked(t.englishAgent, w)}</div>` : nothing}
            </div>`
          : nothing
      }
      ${
        t.latencyMs !== undefined
          ? html`<div class="latency" title="Latency: from the end of the user's input to the agent's response">
              <span
                class="bar"
                ${ref((bar) => (bar as HTMLElement | undefined)?.style.setProperty('width', `${pct}%`))}
              ></span
              ><span class="ms">${t.latencyMs} ms</span>
            </div>`
          : nothing
      }
      ${
        t.intents.length || t.entities.length
          ? html`<div class="tags">
              ${t.intents.map((i) => html`<span class="intent">${visibleControls(i)}</span>`)}
              ${t.entities.map((e) => html`<span class="entity">${visibleControls(e.name)}=${visibleControls(e.value)}</span>`)}
            </div>`
          : nothing
      }
    </div>`;
  }
}
