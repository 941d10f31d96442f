import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  isConversationIdResult,
  isFileResult,
  isTranscriptsNotification,
  isTranscriptsSnapshot,
  type TranscriptsCommand,
  type TranscriptsNotification,
  type TranscriptsRequest,
  type TranscriptsSnapshot,
} from '../../src/protocol/transcripts';
import { PaintReporter } from '../shared/controls';
import { Host, reportProblems } from '../shared/host';
import { adoptStyles } from '../shared/styles';
import themeCss from '../shared/theme.css';
import { DetailView } from './detailView';
import { ListView } from './listView';
import transcriptsCss from './transcripts.css';

adoptStyles(themeCss, transcriptsCss);

const host = new Host<TranscriptsCommand, TranscriptsRequest, TranscriptsNotification>(
  isTranscriptsNotification,
  (n) => void apply(n).catch(report),
);

const command = (c: TranscriptsCommand) => host.command(c);
const report = reportProblems((message) => command({ type: 'problem', message }));

const app = document.getElementById('app')!;
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
      open: (conversationId) => command({ type: 'open', conversationId }),
    });
    app.replaceChildren(list.element);
  }
  return list;
}

function detailView(): DetailView {
  if (!detail) {
    const view = new DetailView({
      find: (text) => command({ type: 'find', text }),
      exportAs: (format) =>
        void host
          .request({ type: 'export', format }, isFileResult, 10 * 60_000)
          .then((r) => view.say(r.file ? `Exported to ${r.file}` : 'Not exported'), report),
      copyId: () =>
        void host
          .request({ type: 'copyId' }, isConversationIdResult)
          .then((r) => view.say(r.conversationId ? `Copied ${r.conversationId}` : ''), report),
      openAgent: () => command({ type: 'openAgent' }),
      replay: () => command({ type: 'replay' }),
      reveal: (revealed) => command({ type: 'reveal', revealed }),
      refresh: () => command({ type: 'refresh' }),
    });
    detail = view;
    app.replaceChildren(view.element);
  }
  return detail;
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
  if (s.kind === 'list') listView().show(s.list);
  else detailView().show(s);
}

async function apply(n: TranscriptsNotification): Promise<void> {
  switch (n.type) {
    case 'snapshot':
      ackPaint = n.ackPaint === true;
      show(n.snapshot);
      keepState(n.snapshot);
      if (n.snapshot.kind === 'list') await confirm(n.seq, listView().rows, '.row');
      else await confirm(n.seq, detailView().turns, '.turn');
      break;
    case 'rows':
      listView().append(n.rows);
      await confirm(n.seq, listView().rows, '.row');
      break;
    case 'listStatus':
      listView().setStatus(n.status);
      break;
    case 'detail':
      detailView().showDetail(n.detail);
      await confirm(n.seq, detailView().turns, '.turn');
      break;
    case 'detailStatus':
      detailView().setStatus(n.status);
      break;
    case 'found':
      detailView().setFound(n.find);
      break;
  }
}

/**
 * Keeps what a restore needs (hidden panel, reloaded window): the list's filters, or the conversation's
 * id. Rows and turns are read again from the platform, so no number or transcript is kept here.
 */
function keepState(s: TranscriptsSnapshot): void {
  host.state =
    s.kind === 'list'
      ? { kind: 'list', list: { ...s.list, rows: [] } }
      : { kind: 'detail', conversationId: s.conversationId, status: { ...s.status, text: '' } };
}

const kept = host.state;
if (isTranscriptsSnapshot(kept)) show(kept);
host.ready();
