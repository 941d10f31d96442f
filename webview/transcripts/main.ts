import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  isTranscriptsNotification,
  isTranscriptsSnapshot,
  type TranscriptsCommand,
  type TranscriptsNotification,
  type TranscriptsRequests,
  TRANSCRIPTS_RESULTS,
  type TranscriptsSnapshot,
  type DetailSnapshot,
} from '../../src/protocol/transcripts';
import { PaintReporter } from '../shared/controls';
import { Host, reportProblems } from '../shared/host';
import { adoptStyles } from '../shared/styles';
import themeCss from '../shared/theme.css';
import { DetailView } from './detailView';
import { ListView } from './listView';
import transcriptsCss from './transcripts.css';
import { appElement } from '../shared/page';

adoptStyles(themeCss, transcriptsCss);

const host = new Host<TranscriptsCommand, TranscriptsRequests, TranscriptsNotification>(
  isTranscriptsNotification,
  (n) => void apply(n).catch(report),
  TRANSCRIPTS_RESULTS,
);

const command = (c: TranscriptsCommand) => host.command(c);
const report = reportProblems((message) => command({ type: 'problem', message }));

const app = appElement();
let list: ListView | undefined;
let detail: DetailView | undefined;
let ackPaint = false;
const paints = new PaintReporter((told) =>
  command({
    type: 'painted',
    paints: told,
    elements: document.querySelectorAll('.row[data-id], .turn').length,
  }),
);

function listView(): ListView {
  if (!list) {
    list = new ListView({
      filters: (filters) => command({ type: 'filters', filters }),
      more: () => command({ type: 'more' }),
      reveal: (revealed) => command({ type: 'reveal', revealed }),
      open: (conversationId, toSide) => command({ type: 'open', conversationId, ...(toSide ? { toSide: true } : {}) }),
    });
    layout();
  }
  return list;
}

/** The conversation's view; a conversation other than the one shown gets a view of its own (Find and scroll start afresh). */
function detailView(conversationId?: string): DetailView {
  if (detail && conversationId !== undefined && detail.conversationId !== conversationId) {
    detail.dispose();
    detail = undefined;
  }
  if (!detail) {
    // Beside the list, the conversation can be closed or moved to a panel of its own; the list's Show numbers covers both.
    const besideList = list !== undefined;
    const view = new DetailView(
      {
        find: (text) => command({ type: 'find', text, ...named(view) }),
        exportAs: (format) =>
          void host
            .request({ type: 'export', format, ...named(view) }, 10 * 60_000)
            .then((r) => view.say(r.file ? `Exported to ${r.file}` : 'Not exported'), report),
        copyId: () =>
          void host
            .request({ type: 'copyId', ...named(view) })
            .then((r) => view.say(r.conversationId ? `Copied ${r.conversationId}` : ''), report),
        openAgent: () => command({ type: 'openAgent', ...named(view) }),
        replay: () => command({ type: 'replay', ...named(view) }),
        createTest: () => command({ type: 'createTest', ...named(view) }),
        reveal: (revealed) => command({ type: 'reveal', revealed }),
        refresh: () => command({ type: 'refreshDetail', ...named(view) }),
        ...(besideList
          ? {
              close: dismissDetail,
              openToSide: () => command({ type: 'openToSide', ...named(view) }),
            }
          : {}),
      },
      besideList,
    );
    detail = view;
    layout();
  }
  return detail;
}

/** The page: the list, the conversation, or the list with the conversation opened from it beside (or below) it. */
function layout(): void {
  const shown: Element[] = [];
  if (list) shown.push(list.element);
  if (detail) shown.push(detail.element);
  // Elements already in the page stay where they are: a list moved in the page would lose its scroll position.
  for (const child of [...app.children]) if (!shown.includes(child)) child.remove();
  for (const e of shown) if (e.parentElement !== app) app.append(e);
  app.classList.toggle('with-detail', shown.length === 2);
}

// Escape closes the conversation beside the list when the person is in it, in the rows, or nowhere in particular
// (not in a filter field, where Escape belongs to the field).
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !detail || !list) return;
  const target = e.target as Element;
  if (target === document.body || detail.element.contains(target) || target.closest('.rows')) dismissDetail();
});

/** The person closed the conversation beside the list: gone from the page, and the host stops reading it. */
function dismissDetail(): void {
  const closing = named(detail);
  closeDetail();
  command({ type: 'closeDetail', ...closing });
}

/** A conversation's id to name in what is asked of it, once the view has shown one. */
function named(view: DetailView | undefined): { conversationId?: string } {
  return view?.conversationId ? { conversationId: view.conversationId } : {};
}

/** The conversation a change is for: in the list's page, none once the person closed it (a change may cross the close). */
function shownDetail(): DetailView | undefined {
  return list ? detail : detailView();
}

function closeDetail(): void {
  if (!detail || !list) return;
  const id = detail.conversationId;
  detail.dispose();
  detail = undefined;
  list.setOpened(undefined);
  besideState = undefined;
  writeState();
  layout();
  // Back where the person was: on the row the conversation was opened from (scrolled into view if it left it).
  void list.focusRow(id);
}

/**
 * Tells the host when change `seq` is in the page (only when the host asked): once lit has rendered and the
 * virtualizer has put the items it shows into the page, after a frame (at most two seconds).
 */
async function confirm(
  seq: number,
  virtualizer: HTMLElement & { updateComplete: Promise<unknown>; items: readonly unknown[] },
  item: string,
): Promise<void> {
  if (!ackPaint) return;
  await virtualizer.updateComplete;
  const started = performance.now();
  do await new Promise((r) => requestAnimationFrame(r));
  while (
    virtualizer.items.length > 0 &&
    virtualizer.querySelector(item) === null &&
    performance.now() - started < 2_000
  );
  paints.painted(seq);
}

function show(s: TranscriptsSnapshot): void {
  if (s.kind === 'list') {
    listView().show(s.list);
    if (s.detail) {
      detailView(s.detail.conversationId).show(s.detail);
      list?.setOpened(s.detail.conversationId);
    }
  } else {
    const opening = list !== undefined && detail === undefined;
    detailView(s.conversationId).show(s);
    list?.setOpened(s.conversationId);
    // The list just shrank to make room: the row the person opened stays in view and keeps the focus.
    const active = document.activeElement;
    if (opening && (active === document.body || active?.closest('.rows'))) void list?.focusRow(s.conversationId);
  }
  focusStart();
}

/** With nothing in the page focused (just opened, its tab chosen), a control takes the keyboard: the list's, else Find. */
function focusStart(): void {
  const active = document.activeElement;
  if (active !== null && active !== document.body) return;
  if (list) list.focusStart();
  else detail?.focusFind();
}
window.addEventListener('focus', focusStart);

async function apply(n: TranscriptsNotification): Promise<void> {
  switch (n.type) {
    case 'snapshot':
      ackPaint = n.ackPaint === true;
      show(n.snapshot);
      keepState(n.snapshot);
      if (n.snapshot.kind === 'list' && !n.snapshot.detail) await confirm(n.seq, listView().rows, '.row');
      else await confirm(n.seq, detailView().turns, '.turn');
      break;
    case 'rows':
      listView().append(n.rows);
      await confirm(n.seq, listView().rows, '.row');
      break;
    case 'listStatus':
      listView().setStatus(n.status);
      break;
    case 'detail': {
      const d = shownDetail();
      d?.showDetail(n.detail);
      if (d) await confirm(n.seq, d.turns, '.turn');
      break;
    }
    case 'detailStatus':
      shownDetail()?.setStatus(n.status);
      break;
    case 'found':
      shownDetail()?.setFound(n.find);
      break;
    case 'detailClosed':
      closeDetail();
      break;
  }
}

/**
 * Keeps what a restore needs (hidden panel, reloaded window): the list's filters and which conversation was
 * beside it, or the conversation of a panel of its own. Rows and turns are read again from the platform, so no
 * number or transcript is kept here.
 */
let listState: Extract<TranscriptsSnapshot, { kind: 'list' }> | undefined;
let besideState: DetailSnapshot | undefined;
function keepState(s: TranscriptsSnapshot): void {
  if (s.kind === 'list') {
    listState = { kind: 'list', list: { ...s.list, rows: [] } };
    if (s.detail) besideState = detailState(s.detail);
  } else besideState = detailState(s);
  writeState();
}

function detailState(d: DetailSnapshot): DetailSnapshot {
  return { kind: 'detail', conversationId: d.conversationId, status: { ...d.status, text: '' } };
}

function writeState(): void {
  if (listState) host.state = { ...listState, ...(besideState ? { detail: besideState } : {}) };
  else if (besideState) host.state = besideState;
}

const kept = host.state;
if (isTranscriptsSnapshot(kept)) {
  show(kept);
  // What is kept again before the host's first snapshot (a conversation closed meanwhile) starts from this.
  if (kept.kind === 'list') {
    listState = { kind: 'list', list: kept.list };
    besideState = kept.detail;
  }
}
host.ready();
