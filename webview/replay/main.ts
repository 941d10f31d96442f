import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import {
  type DiffPart,
  isReplayView,
  type ReplayCommand,
  type ReplayTurn,
  type ReplayView,
} from '../../src/protocol/replay';
import { adoptStyles, el } from '../shared/styles';
import themeCss from '../shared/theme.css';
import { visibleControls as shown } from '../shared/text';
import { startViewApp } from '../shared/viewApp';
import replayCss from './replay.css';
import { appElement } from '../shared/page';

adoptStyles(themeCss, replayCss);

const STATE_WORDS: Record<ReplayTurn['state'], string> = {
  waiting: 'Waiting',
  sending: 'Sending…',
  done: '',
  failed: 'Failed',
  skipped: 'Not sent',
  cancelled: 'Cancelled',
};

// ---- the page ----
const app = appElement();
const title = el('h1', { class: 'title' });
const source = el('div', { class: 'source' });
const target = el('div', { class: 'target' });
const cancel = el('vscode-button', { id: 'cancel', secondary: '' }, 'Cancel');
const again = el('vscode-button', { id: 'again', secondary: '' }, 'Replay again');
const progressText = el('span', { class: 'progress-text' });
const progress = el('vscode-progress-bar', { 'aria-label': 'Replay progress' }) as HTMLElement & {
  indeterminate?: boolean;
};
const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Replay actions' });
toolbar.append(cancel, again, progressText);
const status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const legend = el('p', { class: 'legend' });
legend.append(
  'Words only in the recorded answer are ',
  el('del', {}, 'struck through'),
  '; words only in the new answer are ',
  el('ins', {}, 'underlined'),
  '.',
);
const list = el('ol', { class: 'turns', 'aria-label': 'Turns' });
app.append(title, source, target, toolbar, progress, status, legend, list);

const { command } = startViewApp<ReplayView, ReplayCommand>(isReplayView, show);
cancel.addEventListener('click', () => command({ type: 'cancel' }));
again.addEventListener('click', () => command({ type: 'again' }));

/**
 * A diff as text nodes, plain or inside <del> and <ins>: never HTML. The spaces around a changed stretch stay
 * outside its mark, so only words are struck through or underlined.
 */
function diffNodes(parts: readonly DiffPart[], side: 'recorded' | 'replayed'): Node[] {
  return parts
    .filter((p) => p.kind === 'same' || (side === 'recorded' ? p.kind === 'removed' : p.kind === 'added'))
    .flatMap((p) => {
      if (p.kind === 'same' || !p.text.trim()) return [document.createTextNode(shown(p.text))];
      const [, before = '', words = '', after = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(p.text) ?? [];
      const mark = el(p.kind === 'added' ? 'ins' : 'del', {}, shown(words));
      return [before, mark, after]
        .filter((n) => n !== '')
        .map((n) => (typeof n === 'string' ? document.createTextNode(shown(n)) : n));
    });
}

function answer(label: string, nodes: Node[] | string, cls: string): HTMLElement {
  const box = el('div', { class: `answer ${cls}` });
  const body = el('div', { class: 'text' });
  if (typeof nodes === 'string') body.textContent = shown(nodes);
  else body.append(...nodes);
  box.append(el('div', { class: 'label' }, label), body);
  return box;
}

function turnItem(t: ReplayTurn): HTMLElement {
  const item = el('li', {
    class: 'turn',
    'data-state': t.state,
    'data-same': t.uncompared ? 'uncompared' : String(t.same === true),
  });
  const head = el('div', { class: 'turn-head' });
  head.append(
    // Numbered as the transcript numbers the recorded turns.
    el(
      'span',
      { class: 'turn-no' },
      t.index === 0 ? (t.turn === undefined ? 'Greeting' : `Turn ${t.turn} (greeting)`) : `Turn ${t.turn ?? t.index}`,
    ),
    el(
      'span',
      { class: 'user' },
      t.index === 0 ? '(conversation started)' : t.user ? `User: ${shown(t.user)}` : 'User: (silence)',
    ),
    el(
      'span',
      { class: 'verdict' },
      t.state !== 'done'
        ? STATE_WORDS[t.state]
        : t.uncompared
          ? 'Not compared: nothing recorded'
          : t.same
            ? 'Same answer'
            : 'Different answer',
    ),
  );
  const row = el('div', { class: 'pair' });
  row.append(
    answer('Recorded', t.diff ? diffNodes(t.diff, 'recorded') : t.recorded, 'recorded'),
    answer('Now', t.diff ? diffNodes(t.diff, 'replayed') : (t.replayed ?? ''), 'replayed'),
  );
  item.append(head, row);
  if (t.error) item.append(el('div', { class: 'error', role: 'alert' }, shown(t.error)));
  return item;
}

function show(view: ReplayView): void {
  title.textContent = shown(`Replay of ${view.conversationId}`);
  source.textContent = shown(view.source);
  target.textContent = shown(
    `Sent to ${view.target}${view.newConversationId ? ` as conversation ${view.newConversationId}` : ''}`,
  );
  const finished = view.turns.filter((t) => t.state !== 'waiting' && t.state !== 'sending').length;
  const busy = view.state === 'running' || view.state === 'loading';
  (cancel as HTMLElement & { disabled: boolean }).disabled = !busy;
  (again as HTMLElement & { disabled: boolean }).disabled = busy;
  progress.hidden = !busy;
  progressText.textContent = view.turns.length ? `${finished} of ${view.turns.length} turns` : '';
  status.dataset.state = view.state;
  status.textContent = view.state === 'loading' ? 'Loading the recording…' : shown(view.message ?? '');
  list.replaceChildren(...view.turns.map(turnItem));
}
