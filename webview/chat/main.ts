import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { LitVirtualizer } from '@lit-labs/virtualizer';
import { nothing, render } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  type ChatCommand,
  type ChatLine,
  type ChatNotification,
  type ChatRequests,
  type ChatSnapshot,
  type ChatStatus,
  type InspectorEntry,
  isChatNotification,
  CHAT_RESULTS,
  isChatSnapshot,
} from '../../src/protocol/chat';
import { epochClock } from '../../src/protocol/epochClock';
import { PaintReporter } from '../shared/controls';
import { Host, reportProblems } from '../shared/host';
import { adoptStyles, el } from '../shared/styles';
import themeCss from '../shared/theme.css';
import chatCss from './chat.css';
import { Composer } from './composer';
import { EndFollower } from './follow';
import { renderEntry } from './inspectorView';
import { renderLine } from './lineView';
import { SettingsForm } from './settingsForm';
import { Toolbar } from './toolbar';
import { appElement } from '../shared/page';

/** The inspector keeps the newest events in the page; the saved conversation has all of them. */
const INSPECTOR_KEEP = 2_000;
/** How often the inspector's list is redrawn while events arrive, at most. */
const INSPECTOR_EVERY_MS = 250;
/** An answer streams while its pieces come less than this apart. */
const STREAM_PAUSE_MS = 250;
/** While an answer streams, the panel's state is kept this often, at most. */
const STATE_STREAMING_EVERY_MS = 5_000;
/** The newest lines are drawn in full, outside the virtualized list, up to this many... */
const RECENT_MOST = 120;
/** ...when the older ones join the list, and this many stay. */
const RECENT_KEEP = 60;
/** How often the panel's state is kept for a restore, at most. */
const STATE_EVERY_MS = 500;

adoptStyles(themeCss, chatCss);

let lines: ChatLine[] = [];
const index = new Map<string, number>();
let inspector: InspectorEntry[] = [];
let snapshot: ChatSnapshot | undefined;
let ackPaint = false;
let stateTimer: ReturnType<typeof setTimeout> | undefined;

const host = new Host<ChatCommand, ChatRequests, ChatNotification>(
  isChatNotification,
  (n) => void apply(n).catch(report),
  CHAT_RESULTS,
);
const command = (c: ChatCommand) => host.command(c);
const report = reportProblems((message) => command({ type: 'problem', message }));

// ---- the page ----
const app = appElement();
/** What the chat talks to: agent, project, environment and version, and a push not yet published. */
const header = el('div', { class: 'header', 'aria-label': 'Talking to' });
const status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const toolbar = new Toolbar({
  restart: () => command({ type: 'restart' }),
  endSession: () => command({ type: 'endSession' }),
  handoff: () => command({ type: 'handoff' }),
  copyId: () =>
    void host
      .request({ type: 'copyConversationId' })
      .then((r) => toolbar.say(r.conversationId ? `Copied ${r.conversationId}` : 'No conversation id yet')),
  save: () =>
    void host
      .request({ type: 'save' }, 10 * 60_000)
      .then((r) => toolbar.say(r.file ? `Saved to ${r.file}` : 'Not saved')),
  openTranscript: () => command({ type: 'openTranscript' }),
  saveAsTest: () => command({ type: 'saveAsTest' }),
  toggleInspector: () => document.body.classList.toggle('no-inspector'),
  externalEvent: () => command({ type: 'sendExternalEvent' }),
});
const settingsForm = new SettingsForm((settings) => command({ type: 'restart', settings }));
/**
 * The conversation's scroll area, oldest first: the virtualized list of lines, then the newest lines drawn
 * as they are, then the answer being written. A line is added or changed without the list laying itself
 * out again (which takes frames and holds up a streamed answer beside it); the older of the newest lines
 * join the list together once they are many.
 */
// A Tab stop of its own: the keyboard reaches the log to read it and scroll it, though it may hold no control.
const conversation = el('div', { class: 'lines', role: 'log', 'aria-label': 'Conversation', tabindex: '0' });
const fixLine = (line: ChatLine) => command({ type: 'fix', lineId: line.id });
const list = new LitVirtualizer<ChatLine>();
list.keyFunction = (l) => l.id;
list.renderItem = (l) => renderLine(l, fixLine);
/** The newest lines, from `listed` on, drawn in full (at most RECENT_MOST of them). */
const recent = el('div', { class: 'recent' });
/** The answer being written, while it is the newest line: each streamed piece redraws this line and nothing else. */
const liveLine = el('div', { class: 'live', 'aria-live': 'polite' });
conversation.append(list, recent, liveLine);
let live: string | undefined;
/** How many of the lines, from the first, the virtualized list holds; the rest are drawn in `recent`. */
let listed = 0;
const typing = el('div', { class: 'typing', 'aria-live': 'polite' });
const composer = new Composer(
  (text, custom) => command({ type: 'send', text, ...(custom ? { custom } : {}) }),
  (t) => command({ type: 'typing', typing: t }),
);
const events = new LitVirtualizer<InspectorEntry>();
events.scroller = true;
events.className = 'events';
events.keyFunction = (e) => e.seq;
/** The inspector's expanded events, by their seq: their JSON is drawn. */
const expanded = new Set<number>();
events.renderItem = (e) =>
  renderEntry(e, expanded.has(e.seq), (seq, open) => {
    if (open === expanded.has(seq)) return;
    if (open) expanded.add(seq);
    else expanded.delete(seq);
    events.items = inspector.slice();
  });

const chat = el('section', { class: 'chat', 'aria-label': 'Chat' });
chat.append(conversation, typing, composer.element);
const side = el('aside', { class: 'inspector', 'aria-label': 'Inspector' });
side.append(el('h2', {}, 'Inspector'), events);
const main = el('main', { class: 'split' });
main.append(chat, side);
app.append(header, toolbar.element, status, settingsForm.element, main);

// ---- applying what the host says ----
const conversationEnd = new EndFollower(conversation);
/** The lines' or the written answer's size changed (laid out already): the end is kept in view while following. */
const keepEnd = new ResizeObserver(() => conversationEnd.keep());
keepEnd.observe(list);
keepEnd.observe(recent);
keepEnd.observe(liveLine);
const inspectorEnd = new EndFollower(events);

/** Where the complete lines end: the answer being written, the newest line, is drawn on its own. */
const completeEnd = (): number => (live === undefined ? lines.length : lines.length - 1);

/** Draws the lines from where they changed: `from` is the first changed line's position. */
function showLines(from: number): void {
  const end = completeEnd();
  let redraw = from < listed;
  if (listed > end) {
    // A listed line is being written again: it is drawn on its own.
    listed = end;
    redraw = true;
  }
  if (end - listed > RECENT_MOST) {
    // The older of the newest lines join the list. The newer ones stay drawn below them, taller than the view
    // and the list's margin together, so the list need not draw the lines it takes (or measure them) now.
    listed = end - RECENT_KEEP;
    redraw = true;
  }
  if (redraw) list.items = lines.slice(0, listed);
  render(
    repeat(
      lines.slice(listed, end),
      (l) => l.id,
      (l) => renderLine(l, fixLine),
    ),
    recent,
  );
}

/** Every complete line in the virtualized list (a whole conversation shown at once). */
function listAll(): void {
  listed = completeEnd();
  list.items = lines.slice(0, listed);
  render(nothing, recent);
}

/** Draws the inspector's events; the newest stays in view while the person is at the inspector's end. */
function showEvents(): void {
  events.items = inspector.slice();
  if (inspectorEnd.isFollowing) void events.layoutComplete?.then(() => inspectorEnd.keep());
}

let inspectorTimer: ReturnType<typeof setTimeout> | undefined;
let inspectorDrawnAt = Number.NEGATIVE_INFINITY;
/** When a streamed piece was last drawn (performance.now()). */
let streamedAt = Number.NEGATIVE_INFINITY;
const streaming = (): boolean => performance.now() - streamedAt < STREAM_PAUSE_MS;

/**
 * The inspector is redrawn at most every INSPECTOR_EVERY_MS. While an answer streams an event arrives every few
 * milliseconds, and drawing the newest of them (where the inspector follows its end) would hold up the answer
 * being written beside it: the inspector holds still then, and draws what arrived as soon as the stream pauses.
 */
function showInspector(): void {
  if (inspectorTimer !== undefined) return;
  inspectorTimer = setTimeout(
    drawInspectorWhenFree,
    Math.max(0, inspectorDrawnAt + INSPECTOR_EVERY_MS - performance.now()),
  );
}

function drawInspectorWhenFree(): void {
  if (streaming()) {
    inspectorTimer = setTimeout(drawInspectorWhenFree, STREAM_PAUSE_MS);
    return;
  }
  requestAnimationFrame(() => {
    inspectorTimer = undefined;
    inspectorDrawnAt = performance.now();
    showEvents();
  });
}

function showStatus(s: ChatStatus): void {
  const parts = [
    s.text,
    s.conversationId ? `Conversation ${s.conversationId}` : '',
    s.handoff ? `With a person (${s.handoff})` : '',
  ].filter(Boolean);
  status.textContent = parts.join(' · ');
  status.dataset.state = s.state;
  typing.textContent = s.agentTyping ? 'The agent is typing…' : '';
  composer.enabled = s.canSend;
  toolbar.conversation(s);
}

/** Draws the line being written, or clears the place when no line is being written. */
function showLive(line: ChatLine | undefined): void {
  live = line?.id;
  render(line ? renderLine(line, (l) => command({ type: 'fix', lineId: l.id })) : nothing, liveLine);
}

/** A streamed answer that is the newest line grows in place; true when the line was drawn that way. */
function growLive(line: ChatLine): boolean {
  const newest = index.get(line.id) === lines.length - 1;
  const growing = newest && line.streaming === true && line.role !== 'user';
  if (!growing) {
    if (live !== undefined) showLive(undefined);
    return false;
  }
  const joined = live !== line.id;
  showLive(line);
  streamedAt = performance.now();
  // The newest lines drop the line now drawn on its own (once per answer, not per piece).
  if (joined) showLines(lines.length - 1);
  return true;
}

function showSnapshot(s: ChatSnapshot): void {
  showLive(undefined);
  lines = s.lines.slice();
  index.clear();
  lines.forEach((l, i) => index.set(l.id, i));
  inspector = s.inspector.slice(-INSPECTOR_KEEP);
  showEvents();
  settingsForm.show(s.settings);
  showStatus(s.status);
  listAll();
}

async function apply(n: ChatNotification): Promise<void> {
  switch (n.type) {
    case 'batch':
      // In order; a line waiting to be laid out does not hold up what follows it.
      await Promise.all(n.notifications.map((each) => apply(each)));
      break;
    case 'snapshot':
      snapshot = n.snapshot;
      ackPaint = n.ackPaint === true;
      showSnapshot(n.snapshot);
      if (ackPaint) await painted(0);
      break;
    case 'line': {
      const arrived = host.arrivedAt;
      const at = index.get(n.line.id);
      if (at === undefined) {
        index.set(n.line.id, lines.length);
        lines.push(n.line);
      } else {
        lines[at] = n.line;
      }
      if (growLive(n.line)) {
        // lit has written the piece into the page synchronously.
        if (ackPaint) tellPainted(n.rev, arrived);
      } else {
        showLines(at ?? lines.length - 1);
        if (ackPaint) await painted(n.rev, n.line.id, arrived);
      }
      break;
    }
    case 'inspector':
      inspector.push(n.entry);
      if (inspector.length > INSPECTOR_KEEP) inspector.splice(0, inspector.length - INSPECTOR_KEEP);
      showInspector();
      break;
    case 'status':
      if (snapshot) snapshot = { ...snapshot, status: n.status };
      showStatus(n.status);
      break;
    case 'draft':
      composer.draft(n.text);
      break;
    case 'header': {
      const h = n.header;
      const what = [h.agent, `project ${h.project}`, h.environment, ...(h.version ? [`version ${h.version}`] : [])];
      header.replaceChildren(
        el('span', { class: 'target' }, what.join(' · ')),
        ...(h.note ? [el('span', { class: 'note', role: 'note' }, h.note)] : []),
      );
      break;
    }
    case 'scroll':
      conversation.scrollTo({ top: n.to === 'top' ? 0 : conversation.scrollHeight });
      // The list draws the lines now in view after the scroll event, a frame or two later.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      if (ackPaint) await painted(0);
      break;
  }
  keepState();
}

/** Tells the host (benchmarks, tests) when a change is in the page and how many line elements the page holds. */
async function painted(rev: number, lineId?: string, arrived?: number): Promise<void> {
  await list.updateComplete;
  // A line already in view has its new text now; a new one, or a whole snapshot, once the list has laid it out
  // (the virtualizer draws a new item a frame or two later). A line scrolled out of view is never drawn: the wait is bounded.
  if (rev === 0) await Promise.race([list.layoutComplete, new Promise((r) => setTimeout(r, 2_000))]);
  else if (lineId !== undefined) await whenDrawn(lineId, 1_000);
  tellPainted(rev, arrived);
}

/** Lines waited for in the list, with what to call once each is drawn. */
const awaited = new Map<string, Set<() => void>>();
const listWatch = new MutationObserver(() => {
  for (const [id, waiting] of awaited) if (drawn(id)) waiting.forEach((done) => done());
});
const drawn = (lineId: string): boolean =>
  conversation.querySelector(`.line[data-line="${CSS.escape(lineId)}"]`) !== null;

/** Resolves once the list has drawn the line, or after `limitMs` (a line out of view is not drawn). */
function whenDrawn(lineId: string, limitMs: number): Promise<void> {
  if (drawn(lineId)) return Promise.resolve();
  return new Promise((resolve) => {
    if (awaited.size === 0) listWatch.observe(conversation, { childList: true, subtree: true });
    const waiting = awaited.get(lineId) ?? new Set();
    awaited.set(lineId, waiting);
    const done = (): void => {
      clearTimeout(timer);
      waiting.delete(done);
      if (waiting.size === 0) awaited.delete(lineId);
      if (awaited.size === 0) listWatch.disconnect();
      resolve();
    };
    const timer = setTimeout(done, limitMs);
    waiting.add(done);
  });
}

/** The clock paint times are told in, comparable with the extension host's (made at the first paint told). */
let epochNow: (() => number) | undefined;
const paints = new PaintReporter(
  (told) =>
    host.report({
      type: 'painted',
      paints: told.map(({ seq, at, inPage }) => ({ rev: seq, at, ...(inPage === undefined ? {} : { inPage }) })),
      elements: conversation.querySelectorAll('.line').length,
    }),
  () => (epochNow ??= epochClock())(),
);
/** Notes when a version reached the page; told to the host a little later, with others, so the telling costs the stream nothing. */
function tellPainted(rev: number, arrived?: number): void {
  paints.painted(rev, arrived);
}

/** Keeps what is shown for a restore (hidden panel, reloaded window): view models only, nothing secret. */
function keepState(): void {
  if (stateTimer !== undefined || !snapshot) return;
  const since = performance.now();
  const keep = (): void => {
    // Handing the state to the editor costs both of them a few milliseconds: not in the middle of a stream, or
    // not more often than every STATE_STREAMING_EVERY_MS.
    if (streaming() && performance.now() - since < STATE_STREAMING_EVERY_MS) {
      stateTimer = setTimeout(keep, STREAM_PAUSE_MS);
      return;
    }
    stateTimer = undefined;
    if (snapshot) host.state = { ...snapshot, lines, inspector: inspector.slice(-300) } satisfies ChatSnapshot;
  };
  stateTimer = setTimeout(keep, STATE_EVERY_MS);
}

// What was shown before the panel was hidden appears at once; the host's snapshot follows `ready`.
const kept = host.state;
if (isChatSnapshot(kept)) showSnapshot(kept);
host.ready();
composer.focus();
// The page given the keyboard (its tab chosen, the panel opened) with nothing in it focused: the message box takes it.
window.addEventListener('focus', () => {
  if (document.activeElement === document.body || document.activeElement === null) composer.focus();
});
