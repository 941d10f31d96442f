// The panels' webviews: the page each panel writes lets in no inline or eval script (a content security policy with
// a nonce of its own), the webviews load only from the built webview folder, and nothing a page sends reaches a
// panel unless it passed the panel's guards. The pages and the reading of their messages are checked here as the
// panel host uses them; a walk over src/ checks that every webview is made through that one host.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { type ChatCommand, type ChatRequest, isChatCommand, isChatRequest } from '../../../../src/protocol/chat';
import { type ChartCommand, isChartCommand } from '../../../../src/protocol/concurrency';
import { type Guard, PROTOCOL_VERSION, type RequestMap } from '../../../../src/protocol/envelope';
import { isReplayCommand, type ReplayCommand } from '../../../../src/protocol/replay';
import {
  DEFAULT_FILTERS,
  isTranscriptsCommand,
  isTranscriptsRequest,
  type TranscriptsCommand,
  type TranscriptsRequest,
} from '../../../../src/protocol/transcripts';
import { panelPage, readWebviewMessage } from '../../../../src/ui/panels/panelPage';
import { checkPanelPage } from '../../../support/webviewPage';

// ---- the page ----

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const SCRIPT = `${CSP_SOURCE}/ext/dist/webview/chat.js`;

describe('webviews: the page of every panel lets in no inline or eval script', () => {
  for (const channel of [undefined, { origin: 'ws://127.0.0.1:41234', url: 'ws://127.0.0.1:41234/abc/token' }]) {
    it(`a nonce of its own for the one module script, nothing else runs${channel ? ' (with its own socket)' : ''}`, () => {
      const html = panelPage({
        script: SCRIPT,
        cspSource: CSP_SOURCE,
        language: 'en',
        ...(channel ? { channel } : {}),
      });
      checkPanelPage(html, 'the page', channel?.origin);
    });
  }

  it('each page gets a nonce of its own, and what the page is written from cannot break out of its attributes', () => {
    const nonces = new Set(
      Array.from(
        { length: 20 },
        () => /'nonce-([^']+)'/.exec(panelPage({ script: SCRIPT, cspSource: CSP_SOURCE, language: 'en' }))![1],
      ),
    );
    assert.equal(nonces.size, 20);
    const html = panelPage({
      script: `${SCRIPT}" onload="alert(1)`,
      cspSource: CSP_SOURCE,
      language: 'en"><script>alert(1)</script>',
      channel: { origin: 'ws://127.0.0.1:1', url: 'ws://127.0.0.1:1/"><script>alert(1)</script>' },
    });
    checkPanelPage(html, 'a page of hostile parts', 'ws://127.0.0.1:1');
    assert.match(html, /<html lang="[A-Za-z0-9-]*">/);
  });
});

// ---- the webviews are made in one place ----

const SRC = join(process.cwd(), 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Where `pattern` occurs in src/: the files (relative to src/) and how many times in each. */
function occurrences(pattern: RegExp): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of sources(SRC)) {
    const n = [...readFileSync(file, 'utf8').matchAll(new RegExp(pattern.source, 'g'))].length;
    if (n > 0) found.set(relative(SRC, file), n);
  }
  return found;
}

const HOST = 'ui/panels/panelHost.ts';

describe('webviews: every one is made through the one panel host', () => {
  it('messages from pages are heard, and pages written, only by the panel host', () => {
    assert.deepEqual([...occurrences(/\.onDidReceiveMessage\b/).keys()], [HOST]);
    assert.deepEqual([...occurrences(/\.html\s*=[^=]/).keys()], [HOST]);
    assert.deepEqual([...occurrences(/registerWebviewViewProvider|createWebviewView\b|enableCommandUris/)], []);
  });

  it('every webview panel is made with the host options: scripts on, resources only from dist/webview', () => {
    const made = occurrences(/createWebviewPanel\(/);
    assert.ok(made.size >= 4, `the panels are found (${[...made.keys()].join(', ')})`);
    for (const file of made.keys()) {
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const m of text.matchAll(/createWebviewPanel\(/g)) {
        const call = text.slice(m.index, m.index + 400);
        assert.match(call, /panelOptions\(/, `${file}: a webview panel made with panelOptions`);
      }
    }
    assert.deepEqual([...occurrences(/localResourceRoots/)], [[HOST, 1]]);
    const host = readFileSync(join(SRC, HOST), 'utf8');
    assert.match(host, /localResourceRoots: \[webviewRoot\(extensionUri\)\]/);
    assert.match(host, /return vscode\.Uri\.joinPath\(extensionUri, 'dist', 'webview'\);/);
    assert.match(host, /panel\.webview\.options = panelOptions\(extensionUri\);/, 'set again on a restored panel');
    assert.match(host, /readWebviewMessage\(message, this\.options\)/, 'every posted message read with the guards');
  });

  it('every panel reads its page with guards of its protocol, and each of them is tried below', () => {
    const given = [...occurrences(/isCommand: /).keys()].flatMap((file) =>
      [...readFileSync(join(SRC, file), 'utf8').matchAll(/isCommand: ([\w.]+)[,\s}]/g)].map((m) => m[1]!),
    );
    const guards = given.filter((g) => g !== 'options.isCommand');
    assert.deepEqual(new Set(guards), new Set(Object.keys(PANELS).map((p) => PANELS[p]!.commandGuardName)));
  });
});

// ---- what a page sends ----

interface PanelProtocol {
  commandGuardName: string;
  isCommand: Guard<unknown>;
  isRequest: Guard<unknown>;
  /** One well-formed command of each type, and one request of each type. */
  commands: Record<string, unknown>;
  requests: Record<string, unknown>;
}

const never = (_v: unknown): _v is never => false;
const settings = {
  mode: 'messaging',
  streaming: true,
  target: { label: 'Support Desk', agentId: 'ag_support' },
} as const;
const query = {
  start: '2026-01-01T00:00:00Z',
  end: '2026-01-02T00:00:00Z',
  environment: 'live',
  sliceByVariant: false,
} as const;

const PANELS: Record<string, PanelProtocol> = {
  chat: {
    commandGuardName: 'isChatCommand',
    isCommand: isChatCommand,
    isRequest: isChatRequest,
    commands: {
      send: { type: 'send', text: 'hi', custom: { order: 'A-1' } },
      typing: { type: 'typing', typing: true },
      handoff: { type: 'handoff', reason: 'a person please' },
      endSession: { type: 'endSession' },
      restart: { type: 'restart', settings },
      fix: { type: 'fix', lineId: 'sys:1' },
      sendExternalEvent: { type: 'sendExternalEvent' },
      openTranscript: { type: 'openTranscript' },
      saveAsTest: { type: 'saveAsTest' },
      painted: { type: 'painted', paints: [{ rev: 1, at: 2, inPage: 3 }], elements: 4 },
      problem: { type: 'problem', message: 'x' },
    } satisfies { [K in ChatCommand['type']]: Extract<ChatCommand, { type: K }> },
    requests: {
      save: { type: 'save' },
      copyConversationId: { type: 'copyConversationId' },
    } satisfies { [K in ChatRequest['type']]: Extract<ChatRequest, { type: K }> },
  },
  transcripts: {
    commandGuardName: 'isTranscriptsCommand',
    isCommand: isTranscriptsCommand,
    isRequest: isTranscriptsRequest,
    commands: {
      filters: { type: 'filters', filters: DEFAULT_FILTERS },
      more: { type: 'more' },
      reveal: { type: 'reveal', revealed: true },
      open: { type: 'open', conversationId: 'c1', toSide: true },
      closeDetail: { type: 'closeDetail', conversationId: 'c1' },
      openToSide: { type: 'openToSide', conversationId: 'c1' },
      find: { type: 'find', text: 'order', conversationId: 'c1' },
      openAgent: { type: 'openAgent', conversationId: 'c1' },
      replay: { type: 'replay', conversationId: 'c1' },
      createTest: { type: 'createTest', conversationId: 'c1' },
      refresh: { type: 'refresh' },
      refreshDetail: { type: 'refreshDetail', conversationId: 'c1' },
      painted: { type: 'painted', paints: [{ seq: 1, at: 2 }], elements: 3 },
      problem: { type: 'problem', message: 'x' },
    } satisfies { [K in TranscriptsCommand['type']]: Extract<TranscriptsCommand, { type: K }> },
    requests: {
      export: { type: 'export', format: 'json', conversationId: 'c1' },
      copyId: { type: 'copyId', conversationId: 'c1' },
    } satisfies { [K in TranscriptsRequest['type']]: Extract<TranscriptsRequest, { type: K }> },
  },
  concurrency: {
    commandGuardName: 'isChartCommand',
    isCommand: isChartCommand,
    isRequest: never,
    commands: {
      query: { type: 'query', query },
      problem: { type: 'problem', message: 'x' },
      drawn: { type: 'drawn', points: 3 },
      layout: {
        type: 'layout',
        layout: {
          labels: [{ text: 'All', left: 1, top: 2, width: 3, height: 4, marker: false }],
          grid: '#000',
          series: ['#fff'],
          highContrast: false,
        },
      },
    } satisfies { [K in ChartCommand['type']]: Extract<ChartCommand, { type: K }> },
    requests: {},
  },
  replay: {
    commandGuardName: 'isReplayCommand',
    isCommand: isReplayCommand,
    isRequest: never,
    commands: {
      cancel: { type: 'cancel' },
      again: { type: 'again' },
      problem: { type: 'problem', message: 'x' },
    } satisfies { [K in ReplayCommand['type']]: Extract<ReplayCommand, { type: K }> },
    requests: {},
  },
};

/** Free-form objects of the protocol (the person's own metadata): any JSON inside them is well-formed. */
const FREE_FORM = new Set(['custom', 'integrationAttributes']);
const KINDS: unknown[] = [42, 'x', true, {}, [], null];
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The value with one field (at any depth) given a value of another JSON kind, for each field. */
function mutations(value: Record<string, unknown>, path: string[] = []): Array<{ path: string; value: unknown }> {
  const out: Array<{ path: string; value: unknown }> = [];
  for (const [key, field] of Object.entries(value)) {
    if (path.length === 0 && key === 'type') continue;
    for (const wrong of KINDS.filter((k) => kindOf(k) !== kindOf(field)))
      out.push({ path: [...path, key].join('.'), value: { ...value, [key]: wrong } });
    if (FREE_FORM.has(key)) continue;
    const inner = Array.isArray(field) ? field[0] : field;
    if (kindOf(inner) === 'object')
      for (const m of mutations(inner as Record<string, unknown>, [...path, key]))
        out.push({ path: m.path, value: { ...value, [key]: Array.isArray(field) ? [m.value] : m.value } });
  }
  return out;
}

/** Messages no page of ours sends, whatever the panel: not the envelope, or a member no protocol has. */
const MALFORMED_ENVELOPES: unknown[] = [
  undefined,
  null,
  42,
  'ready',
  [],
  {},
  { kind: 'ready' },
  { kind: 'ready', protocol: '1' },
  { kind: 'command' },
  { kind: 'command', command: null },
  { kind: 'command', command: 'send' },
  { kind: 'command', command: { type: 'evaluate', code: 'alert(1)' } },
  JSON.parse('{"kind":"command","command":{"type":"__proto__"}}'),
  { kind: 'command', command: { type: 'constructor' } },
  { kind: 'command', command: { type: 'toString' } },
  { kind: 'request', id: 'x', request: { type: 'save' } },
  { kind: 'request', id: 1.5, request: { type: 'save' } },
  { kind: 'request', id: Number.NaN, request: { type: 'save' } },
  { kind: 'request', id: 1, request: { type: 'readFile', path: '/etc/passwd' } },
  { kind: 'notification', notification: { type: 'snapshot' } },
  { kind: 'response', id: 1, ok: true, result: {} },
];

describe('webviews: nothing a page sends reaches a panel unless it passed the panel guards', () => {
  for (const [panel, p] of Object.entries(PANELS)) {
    const guards = { isCommand: p.isCommand, isRequest: p.isRequest } as {
      isCommand: Guard<unknown>;
      isRequest: Guard<never>;
    };
    const read = (m: unknown) => readWebviewMessage<unknown, RequestMap>(m, guards);

    it(`${panel}: each command and request of its protocol is taken, and the handshake names the protocol`, () => {
      for (const command of Object.values(p.commands))
        assert.equal(read({ kind: 'command', command }).kind, 'command', JSON.stringify(command));
      for (const [i, request] of Object.values(p.requests).entries())
        assert.deepEqual(read({ kind: 'request', id: i, request }), { kind: 'request', id: i, request });
      assert.deepEqual(read({ kind: 'ready', protocol: PROTOCOL_VERSION }), { kind: 'ready', socketClosed: false });
      assert.equal(read({ kind: 'ready', protocol: PROTOCOL_VERSION + 1 }).kind, 'otherProtocol');
    });

    it(`${panel}: malformed envelopes, unknown types and every field of every command and request given a value of another kind are refused, the refusal naming no content`, () => {
      let tried = 0;
      const refused = (message: unknown, what: string) => {
        tried += 1;
        const r = read(message);
        assert.equal(r.kind, 'refused', `${panel}: ${what} was taken: ${JSON.stringify(message)}`);
        assert.ok(r.kind === 'refused' && !r.reason.includes('lp_chat_key'), 'the reason names no content');
      };
      for (const m of MALFORMED_ENVELOPES) refused(m, 'a malformed envelope');
      for (const [type, command] of Object.entries(p.commands)) {
        for (const m of mutations(command as Record<string, unknown>))
          refused({ kind: 'command', command: { ...(m.value as object), secret: 'lp_chat_key' } }, `${type}.${m.path}`);
        // A request's name sent as a command, and a command's as a request: each is its own kind.
        refused({ kind: 'request', id: 1, request: command }, `the command ${type} as a request`);
      }
      for (const [type, request] of Object.entries(p.requests)) {
        for (const m of mutations(request as Record<string, unknown>))
          refused({ kind: 'request', id: 1, request: m.value }, `${type}.${m.path}`);
        if (!Object.hasOwn(p.commands, type))
          refused({ kind: 'command', command: request }, `the request ${type} as a command`);
      }
      assert.ok(tried > MALFORMED_ENVELOPES.length + Object.keys(p.commands).length, `${tried} messages tried`);
      console.log(`${panel}: ${tried} malformed messages refused`);
    });
  }
});
