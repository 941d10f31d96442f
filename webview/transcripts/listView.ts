import { LitVirtualizer } from '@lit-labs/virtualizer';
import { html, nothing, type TemplateResult } from 'lit';
import {
  type ConversationFilters,
  type ConversationRow,
  FILTER_ENVIRONMENTS,
  type ListSnapshot,
  type ListStatus,
  type SearchSnippet,
  PROGRESS,
  RANGE_PRESETS,
  SEARCH_TYPES,
  SORT_ORDERS,
  TURN_SIDES,
} from '../../src/protocol/transcripts';
import { durationWords } from '../../src/protocol/timeWords';
import { actionButton, labelled } from '../shared/controls';
import { el } from '../shared/styles';
import { visibleControls } from '../shared/text';

type Field = HTMLElement & { value: string; checked?: boolean; updateComplete?: Promise<unknown> };

const RANGE_LABELS: Record<(typeof RANGE_PRESETS)[number], string> = {
  lastHour: 'Last hour',
  last24Hours: 'Last 24 hours',
  last7Days: 'Last 7 days',
  last30Days: 'Last 30 days',
  anyTime: 'Any time',
  custom: 'Custom range',
};
const PROGRESS_LABELS: Record<(typeof PROGRESS)[number], string> = {
  any: 'In progress or finished',
  inProgress: 'In progress',
  finished: 'Finished',
};
const SIDE_LABELS: Record<(typeof TURN_SIDES)[number], string> = {
  both: 'User and agent turns',
  user: 'User turns',
  agent: 'Agent turns',
};

const SORT_LABELS: Record<(typeof SORT_ORDERS)[number], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
};

/** Rows from the end at which the next page is asked for. */
const LOAD_AHEAD = 150;

function select(id: string, label: string, options: ReadonlyArray<[string, string]>): Field {
  const s = el('vscode-single-select', { id, 'aria-label': label }) as Field;
  s.append(...options.map(([value, text]) => el('vscode-option', { value }, text)));
  return s;
}

export function durationText(seconds: number | undefined, inProgress: boolean): string {
  if (inProgress) return 'in progress';
  if (seconds === undefined) return '';
  return durationWords(seconds);
}

export function timeText(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** What a search matched in a row's conversation; every piece a text binding, the matches marked. */
function snippetCell(s: SearchSnippet): TemplateResult {
  return html`<span role="cell" class="snippet"
    ><span class="who">Turn ${s.turn}, ${s.who === 'user' ? 'user' : 'agent'}:</span>
    ${s.parts.map((p) => (p.match ? html`<mark>${visibleControls(p.text)}</mark>` : visibleControls(p.text)))}</span
  >`;
}

const MAC = /Mac/.test(navigator.platform);
const OPEN_HINT = `Enter or click: open beside the list. ${MAC ? 'Cmd' : 'Ctrl'}+Enter or ${MAC ? 'Cmd' : 'Ctrl'}+click: open in a new tab.`;

export interface ListActions {
  filters(filters: ConversationFilters): void;
  more(): void;
  reveal(revealed: boolean): void;
  /** `toSide`: in a panel of its own rather than beside the list. */
  open(conversationId: string, toSide: boolean): void;
}

/** The filters, the status, and the virtualized rows of the conversation list. */
export class ListView {
  readonly element = el('div', { class: 'list-view' });
  readonly rows = new LitVirtualizer<ConversationRow>();
  private items: ConversationRow[] = [];
  /** The conversation shown beside the list, marked in its row. */
  private opened: string | undefined;
  /** The row the keyboard is on: the table's one Tab stop (roving tabindex); the arrow keys move it. */
  private current: string | undefined;
  private status: ListStatus | undefined;
  private readonly statusLine = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private readonly problem = el('div', { class: 'problem', role: 'alert' });
  private readonly range = select(
    'range',
    'Time range',
    RANGE_PRESETS.map((r) => [r, RANGE_LABELS[r]]),
  );
  private readonly start = el('vscode-textfield', { id: 'start', placeholder: '2026-01-05T09:00Z' }) as Field;
  private readonly end = el('vscode-textfield', { id: 'end', placeholder: '2026-01-05T17:00Z' }) as Field;
  private readonly environment = select(
    'environment',
    'Environment',
    FILTER_ENVIRONMENTS.map((e) => [e, e]),
  );
  private readonly channels = el('vscode-textfield', {
    id: 'channels',
    placeholder: 'VOICE-SIP, WEBCHAT, CHAT',
  }) as Field;
  private readonly variant = el('vscode-textfield', { id: 'variant', placeholder: 'Default' }) as Field;
  private readonly variantBy = select('variantBy', 'Variant by', [
    ['name', 'Variant name'],
    ['id', 'Variant id'],
  ]);
  private readonly progress = select(
    'progress',
    'In progress or finished',
    PROGRESS.map((p) => [p, PROGRESS_LABELS[p]]),
  );
  private readonly search = el('vscode-textfield', { id: 'search', placeholder: 'refund late parcel' }) as Field;
  private readonly searchType = select(
    'searchType',
    'Search type',
    SEARCH_TYPES.map((t) => [t, t === 'transcript' ? 'Transcript (every word)' : 'Semantic (by meaning)']),
  );
  private readonly turnType = select(
    'turnType',
    'Turns searched',
    TURN_SIDES.map((t) => [t, SIDE_LABELS[t]]),
  );
  private readonly sample = el('vscode-checkbox', { id: 'sample', label: 'Random sample' }) as Field;
  private readonly sort = select(
    'sort',
    'Order',
    SORT_ORDERS.map((o) => [o, SORT_LABELS[o]]),
  );
  private readonly revealBox = el('vscode-checkbox', { id: 'reveal', label: 'Show numbers' }) as Field;
  private readonly customFields: HTMLElement;

  constructor(private readonly actions: ListActions) {
    const form = el('form', { class: 'filters', 'aria-label': 'Filters' });
    this.customFields = el('div', { class: 'custom-range' });
    this.customFields.append(labelled('start', 'From', this.start), labelled('end', 'To (not included)', this.end));
    const apply = actionButton('apply', 'Apply filters', 'List the conversations that match these filters', () =>
      this.submit(),
    );
    apply.removeAttribute('secondary');
    form.append(
      labelled('range', 'Time', this.range),
      this.customFields,
      labelled('environment', 'Environment', this.environment),
      labelled('channels', 'Channels (comma-separated)', this.channels),
      labelled('variant', 'Variant', this.variant),
      labelled('variantBy', 'Variant by', this.variantBy),
      labelled('progress', 'Status', this.progress),
      labelled('search', 'Search', this.search),
      labelled('searchType', 'Search by', this.searchType),
      labelled('turnType', 'Search in', this.turnType),
      labelled('sort', 'Order', this.sort),
      this.sample,
      apply,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !(e.target instanceof HTMLTextAreaElement)) {
        e.preventDefault();
        this.submit();
      }
    });
    this.range.addEventListener('change', () => this.showCustom());
    // A new order is a new list: applied at once.
    this.sort.addEventListener('change', () => this.submit());
    this.revealBox.addEventListener('change', () => this.actions.reveal(this.revealBox.checked === true));

    const header = el('div', { class: 'row header', role: 'row' });
    for (const name of ['Started', 'Duration', 'Turns', 'Channel', 'Handoff', 'From', 'To', 'Variant', 'Id'])
      header.append(el('span', { role: 'columnheader' }, name));
    this.rows.scroller = true;
    this.rows.className = 'rows';
    this.rows.setAttribute('role', 'rowgroup');
    this.rows.setAttribute('aria-label', 'Conversations');
    this.rows.keyFunction = (r) => r.id;
    this.rows.renderItem = (r) => this.renderRow(r);
    this.rows.addEventListener('visibilityChanged', (e) => {
      const last = (e as Event & { last: number }).last;
      if (last >= this.items.length - LOAD_AHEAD) this.askMore();
    });
    const table = el('div', { class: 'table', role: 'table', 'aria-label': 'Conversations' });
    table.append(header, this.rows);
    // With a conversation open below the list, the filters fold away to leave the rows room; this brings them back.
    const filtersToggle = actionButton('toggleFilters', 'Filters', 'Show or hide the filters', () => {
      const shown = this.element.classList.toggle('show-filters');
      filtersToggle.setAttribute('aria-pressed', String(shown));
    });
    filtersToggle.setAttribute('aria-pressed', 'false');
    const bar = el('div', { class: 'statusbar' });
    bar.append(this.statusLine, filtersToggle, this.revealBox);
    this.element.append(form, this.problem, bar, table);
  }

  show(s: ListSnapshot): void {
    const f = s.filters;
    this.range.value = f.range;
    this.start.value = f.start ?? '';
    this.end.value = f.end ?? '';
    this.environment.value = f.environment;
    this.channels.value = f.channels.join(', ');
    this.variant.value = f.variant ?? '';
    this.variantBy.value = f.variantBy;
    this.progress.value = f.progress;
    this.search.value = f.search ?? '';
    this.searchType.value = f.searchType;
    this.turnType.value = f.turnType;
    this.sample.checked = f.sample;
    this.sort.value = f.sort ?? 'oldest';
    this.showCustom();
    this.items = s.rows.slice();
    // A new list keeps the keyboard's row only where it is still listed; else its first row is the Tab stop.
    if (!this.items.some((r) => r.id === this.current)) this.current = undefined;
    this.rows.items = this.items;
    this.setStatus(s.status);
  }

  /** Puts the focus on a conversation's row, scrolling it into view first when it is not drawn. */
  async focusRow(conversationId: string): Promise<void> {
    const at = this.items.findIndex((r) => r.id === conversationId);
    if (at < 0) return;
    const find = () => this.element.querySelector<HTMLElement>(`.row[data-id="${CSS.escape(conversationId)}"]`);
    if (!find()) {
      this.rows.scrollToIndex(at, 'nearest');
      await this.rows.layoutComplete;
    }
    find()?.focus();
  }

  /** Gives the keyboard to the list: its first filter, or the table's Tab-stop row while the filters are folded away. */
  focusStart(): void {
    if (this.range.offsetParent !== null) {
      // The list draws its inner control first.
      void (this.range.updateComplete ?? Promise.resolve()).then(() => this.range.focus());
      return;
    }
    const id = this.current ?? this.items[0]?.id;
    if (id !== undefined) void this.focusRow(id);
  }

  /** Marks the row of the conversation shown beside the list (none: undefined). */
  setOpened(conversationId: string | undefined): void {
    if (conversationId === this.opened) return;
    this.opened = conversationId;
    // The rows in view are drawn again with the mark; the others get it when scrolled into view.
    this.rows.items = this.items.slice();
  }

  append(rows: ConversationRow[]): void {
    this.items = this.items.concat(rows);
    this.rows.items = this.items;
  }

  setStatus(s: ListStatus): void {
    this.status = s;
    this.statusLine.textContent = s.text;
    this.problem.textContent = s.error ?? '';
    this.revealBox.checked = s.revealed;
    // A first page shorter than the screen: the next one is asked for at once.
    if (s.more && !s.loading && this.items.length > 0 && this.items.length < LOAD_AHEAD) this.askMore();
  }

  /** Arrow keys, Home, End, Page Up and Page Down move the row the keyboard is on, instead of scrolling. */
  private move(from: string, e: KeyboardEvent): void {
    const at = this.items.findIndex((r) => r.id === from);
    const page = 10;
    const to =
      e.key === 'ArrowDown'
        ? at + 1
        : e.key === 'ArrowUp'
          ? at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? this.items.length - 1
              : e.key === 'PageDown'
                ? at + page
                : e.key === 'PageUp'
                  ? at - page
                  : undefined;
    if (to === undefined || at < 0) return;
    e.preventDefault();
    const next = this.items[Math.max(0, Math.min(this.items.length - 1, to))];
    if (!next) return;
    this.setCurrent(next.id);
    void this.focusRow(next.id);
  }

  private setCurrent(id: string): void {
    if (id === this.current) return;
    this.current = id;
    // The rows in view are drawn again with the one Tab stop moved.
    this.rows.items = this.items.slice();
  }

  private askMore(): void {
    if (!this.status?.more || this.status.loading) return;
    this.status = { ...this.status, loading: true };
    this.actions.more();
  }

  private showCustom(): void {
    this.customFields.hidden = this.range.value !== 'custom';
  }

  private submit(): void {
    const text = (f: Field) => f.value.trim();
    const filters: ConversationFilters = {
      range: this.range.value as ConversationFilters['range'],
      environment: this.environment.value as ConversationFilters['environment'],
      channels: text(this.channels)
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
      variantBy: this.variantBy.value === 'id' ? 'id' : 'name',
      progress: this.progress.value as ConversationFilters['progress'],
      searchType: this.searchType.value as ConversationFilters['searchType'],
      turnType: this.turnType.value as ConversationFilters['turnType'],
      sample: this.sample.checked === true,
      sort: this.sort.value === 'newest' ? 'newest' : 'oldest',
      ...(this.range.value === 'custom' && text(this.start) ? { start: text(this.start) } : {}),
      ...(this.range.value === 'custom' && text(this.end) ? { end: text(this.end) } : {}),
      ...(text(this.variant) ? { variant: text(this.variant) } : {}),
      ...(text(this.search) ? { search: text(this.search) } : {}),
    };
    this.actions.filters(filters);
  }

  /**
   * One conversation; every value is a text binding. Enter or a click opens it beside the list; with Ctrl
   * or Cmd (or a middle click), in a panel of its own.
   */
  private renderRow(r: ConversationRow): TemplateResult {
    const open = (e: MouseEvent | KeyboardEvent) => {
      const toSide = e.ctrlKey || e.metaKey || (e instanceof MouseEvent && e.button === 1);
      if (!toSide) this.setOpened(r.id);
      this.actions.open(r.id, toSide);
    };
    const current = this.current ?? this.items[0]?.id;
    return html`<div
      class="row ${r.inProgress ? 'in-progress' : ''} ${r.id === this.opened ? 'opened' : ''}"
      role="row"
      tabindex=${r.id === current ? '0' : '-1'}
      aria-selected=${r.id === this.opened ? 'true' : 'false'}
      data-id=${r.id}
      title=${OPEN_HINT}
      @click=${open}
      @auxclick=${(e: MouseEvent) => {
        if (e.button === 1) open(e);
      }}
      @focus=${() => this.setCurrent(r.id)}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Enter') open(e);
        else this.move(r.id, e);
      }}
    >
      <span role="cell">${timeText(r.startedAt)}</span>
      <span role="cell">${durationText(r.durationS, r.inProgress)}</span>
      <span role="cell" class="num">${r.turns}</span>
      <span role="cell"
        >${visibleControls(r.channel)}${
          r.testRun
            ? html` <span class="flag" title="Made by a conversation test run of this editor">test run</span>`
            : nothing
        }</span
      >
      <span role="cell" title=${visibleControls(r.handoffTo)}
        >${r.handoff ? visibleControls(r.handoffTo || 'yes') : ''}</span
      >
      <span role="cell" class="number">${visibleControls(r.from)}</span>
      <span role="cell" class="number">${visibleControls(r.to)}</span>
      <span role="cell">${visibleControls(r.variant)}</span>
      <span role="cell" class="id">${visibleControls(r.id)}</span>
      ${r.snippet ? snippetCell(r.snippet) : nothing}
    </div>`;
  }
}
