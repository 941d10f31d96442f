import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { DEFAULT_FILTERS, type ConversationFilters } from '../../src/protocol/transcripts';
import { until } from '../support/until';
import { openChat } from '../support/editor/chatPanel';
import { scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import {
  conversationRequests,
  demoWeek,
  type DetailHandle,
  lastRequestSeq,
  type ListHandle,
  openDetail,
  openList,
  seedConversation,
  settled,
} from '../support/editor/transcriptPanels';
import { LocalAdmin } from '../support/localAdmin';

suite('Transcript viewer', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let WEEK: ConversationFilters;
  const open: Array<{ dispose(): void }> = [];
  const list = async (args: Record<string, unknown>): Promise<ListHandle> => {
    const p = await openList(args);
    open.push(p);
    return p;
  };
  const detail = async (args: Record<string, unknown>): Promise<DetailHandle> => {
    const p = await openDetail(args);
    open.push(p);
    return p;
  };

  suiteSetup(async () => {
    await activateExtension();
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    // The demo week, whatever suites before this one left on the platform.
    await admin.reset('demo');
    WEEK = { ...DEFAULT_FILTERS, range: 'custom', ...(await demoWeek(admin)) };
  });

  teardown(() => {
    open.splice(0).forEach((p) => p.dispose());
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('the list reads the demo week a page at a time (v3 cursor), with its columns, and numbers masked until shown', async function () {
    this.timeout(120_000);
    const since = await lastRequestSeq(admin);
    const p = await list({ filters: WEEK });
    await until('the first page', () => p.shownRows().length > 0, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(p.status())}`);
    });
    await settled(p);
    assert.equal(p.shownRows().length, 500, 'the first page holds 500 conversations');
    assert.ok(p.status().more, 'more pages follow');
    const [first] = await conversationRequests(admin, since);
    assert.ok(first, 'the platform was asked for conversations');
    assert.match(first.path, /^\/v3\/[^/]+\/[^/]+\/conversations$/);
    assert.deepEqual(first.query.client_env, ['live']);
    assert.deepEqual(first.query.limit, ['500']);
    assert.deepEqual(first.query.include_latency, ['true']);
    assert.deepEqual(first.query.start_time, [WEEK.start]);
    assert.deepEqual(first.query.end_time, [WEEK.end]);
    assert.equal(first.query.cursor, undefined);

    const beforeMore = await lastRequestSeq(admin);
    await p.loadMore();
    await settled(p);
    const [next] = await conversationRequests(admin, beforeMore);
    assert.ok(next?.query.cursor?.[0], 'the next page is asked for with the cursor of the first');
    assert.deepEqual(next.query.start_time, first.query.start_time, 'the other filters stay the same');
    const rows = p.shownRows();
    assert.ok(rows.length > 500, `the next page was added (${rows.length} rows)`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no conversation twice');
    const sorted = rows.map((r) => r.startedAt);
    assert.deepEqual(sorted, [...sorted].sort(), 'in the order they started');

    const voice = rows.find((r) => r.channel === 'VOICE-SIP' && r.from);
    assert.ok(voice, 'a voice call with a caller number');
    assert.match(voice.from, /^[^0-9]*(•[^0-9]*)+\d{2}$/, `the caller number is masked: ${voice.from}`);
    assert.ok(voice.durationS !== undefined && voice.turns > 0 && voice.variant, 'duration, turns and variant shown');
    p.reveal(true);
    const revealed = p.shownRows().find((r) => r.id === voice.id)!;
    assert.doesNotMatch(revealed.from, /•/, 'revealed on request');
    assert.ok(
      rows.some((r) => r.handoff && r.handoffTo),
      'handed-off conversations say where to',
    );
  });

  test('each filter is sent as the platform expects, and the rows fit it', async function () {
    this.timeout(240_000);
    const p = await list({ filters: WEEK });
    await settled(p);
    const cases: Array<{
      name: string;
      filters: Partial<ConversationFilters>;
      query: Record<string, string[] | undefined>;
      fits?: (r: ReturnType<ListHandle['shownRows']>[number]) => boolean;
    }> = [
      {
        name: 'environment',
        filters: { environment: 'sandbox' },
        query: { client_env: ['sandbox'] },
      },
      {
        name: 'channels',
        filters: { channels: ['VOICE-SIP', 'CHAT'] },
        query: { channel: ['VOICE-SIP', 'CHAT'] },
        fits: (r) => r.channel === 'VOICE-SIP' || r.channel === 'CHAT',
      },
      {
        name: 'variant by name',
        filters: { variant: 'Friendly Tone', variantBy: 'name' },
        query: { variant_name: ['Friendly Tone'], variant_id: undefined },
        fits: (r) => r.variant === 'Friendly Tone',
      },
      {
        name: 'variant by id',
        filters: { variant: 'var_default', variantBy: 'id' },
        query: { variant_id: ['var_default'], variant_name: undefined },
        fits: (r) => r.variant === 'Default',
      },
      {
        name: 'in progress',
        filters: { progress: 'inProgress', range: 'anyTime', start: undefined, end: undefined },
        query: { in_progress: ['true'], start_time: undefined },
        fits: (r) => r.inProgress,
      },
      {
        name: 'finished',
        filters: { progress: 'finished' },
        query: { in_progress: ['false'] },
        fits: (r) => !r.inProgress,
      },
      {
        name: 'transcript search in user turns',
        filters: { search: 'refund', searchType: 'transcript', turnType: 'user' },
        query: { query_type: ['transcript'], query: ['refund'], turn_type: ['user'] },
      },
      {
        name: 'semantic search',
        filters: { search: 'money back for a late parcel', searchType: 'semantic', turnType: 'user' },
        query: { query_type: ['semantic'], query: ['money back for a late parcel'], turn_type: undefined },
      },
      {
        name: 'random sample',
        filters: { sample: true },
        query: { sample: ['random'], query_type: undefined },
      },
      {
        name: 'last hour (a search needs both ends, any time too)',
        filters: { range: 'anyTime', start: undefined, end: undefined, search: 'hours' },
        query: { start_time: ['2000-01-01T00:00:00Z'], query: ['hours'] },
      },
    ];
    for (const c of cases) {
      const since = await lastRequestSeq(admin);
      // A filter the case sets to undefined is cleared.
      const filters = Object.fromEntries(
        Object.entries({ ...WEEK, ...c.filters }).filter(([, v]) => v !== undefined),
      ) as unknown as ConversationFilters;
      await p.apply(filters);
      await settled(p);
      assert.equal(p.status().error, undefined, `${c.name}: ${p.status().error}`);
      // The list also reads its rows in progress again while they last, with the filters they were read with:
      // among the requests since the change, one carries the filter as the platform expects it.
      const requests = await conversationRequests(admin, since);
      assert.ok(requests.length > 0, `${c.name}: the platform was asked`);
      const asked = requests.find((r) => Object.entries(c.query).every(([k, v]) => isDeepStrictEqual(r.query[k], v)));
      assert.ok(
        asked,
        `${c.name}: no request carried ${JSON.stringify(c.query)}; asked: ${JSON.stringify(requests.map((r) => r.query))}`,
      );
      if (c.fits) {
        assert.ok(p.shownRows().length > 0, `${c.name}: some conversations match`);
        assert.ok(p.shownRows().every(c.fits), `${c.name}: every row fits the filter`);
      }
    }
    const lastHour = await lastRequestSeq(admin);
    await p.apply({ ...DEFAULT_FILTERS, range: 'lastHour' });
    await settled(p);
    const [hour] = await conversationRequests(admin, lastHour);
    const span = Date.parse(hour!.query.end_time![0]!) - Date.parse(hour!.query.start_time![0]!);
    assert.equal(span, 3_600_000, 'the last hour is an hour long');

    const before = await lastRequestSeq(admin);
    await p.apply({ ...WEEK, start: 'next tuesday' });
    assert.match(p.status().error ?? '', /"next tuesday" is not a date: write it as 2026-01-05/);
    assert.doesNotMatch(p.status().text, /match these filters/, 'a filter not sent says nothing of what matches');
    await p.apply({ ...WEEK, search: 'refund', sample: true });
    assert.match(p.status().error ?? '', /not both/);
    assert.deepEqual(await conversationRequests(admin, before), [], 'nothing is asked while a filter is wrong');
  });

  test('a search shows in each row the turn text that matched, its words marked, markup as text', async function () {
    this.timeout(120_000);
    const said = '<img src=x onerror=alert(1)> My zebrafish tank arrived cracked, I would like my money back please';
    const id = await seedConversation(admin, {
      started_at: new Date(Date.parse(WEEK.end!) - 2 * 3_600_000).toISOString(),
      environment: 'live',
      turns: [
        { user_input: 'Hello', agent_response: 'Hi! How can I help?' },
        { user_input: said, agent_response: 'Sorry to hear that.' },
      ],
    });
    const p = await list({
      filters: { ...WEEK, search: 'ZEBRAFISH cracked', searchType: 'transcript', turnType: 'user' },
    });
    await settled(p);
    const row = p.shownRows().find((r) => r.id === id);
    assert.ok(row, `the seeded conversation is found: ${JSON.stringify(p.shownRows().map((r) => r.id))}`);
    assert.deepEqual([row.snippet?.turn, row.snippet?.who], [2, 'user']);
    assert.deepEqual(
      row.snippet!.parts.filter((x) => x.match).map((x) => x.text),
      ['zebrafish', 'cracked'],
    );
    assert.equal(row.snippet!.parts.map((x) => x.text).join(''), said, 'the turn as said, markup kept as text');

    // Over the demo week, every row that carries a snippet marks the word searched for.
    await p.apply({ ...WEEK, search: 'refund', searchType: 'transcript', turnType: 'both' });
    await settled(p);
    const withSnippet = p.shownRows().filter((r) => r.snippet);
    assert.ok(withSnippet.length > 0, 'demo conversations speak of a refund');
    for (const r of withSnippet)
      assert.ok(
        r.snippet!.parts.some((x) => x.match && x.text.toLowerCase() === 'refund'),
        `${r.id}: ${JSON.stringify(r.snippet)}`,
      );
    await p.apply({ ...WEEK });
    await settled(p);
    assert.ok(
      p.shownRows().every((r) => r.snippet === undefined),
      'without a search no row has a snippet',
    );
  });

  test('opened without filters, the list is of the environment the status bar shows, newest first, with the conversation just had on top; the order can be turned', async function () {
    this.timeout(180_000);
    const { now } = await admin.clock();
    const justHad = await seedConversation(admin, {
      environment: 'sandbox',
      started_at: now,
      channel: 'CHAT',
      turns: [{ user_input: 'Is my order on its way?', agent_response: 'It ships today.' }],
    });
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
    const since = await lastRequestSeq(admin);
    const p = await list({});
    await until('the first page', () => p.shownRows().length > 0, 60_000);
    assert.equal(p.currentFilters.environment, 'sandbox', 'the environment of the status bar, not live');
    assert.equal(p.currentFilters.sort, 'newest');
    const [first] = await conversationRequests(admin, since);
    assert.deepEqual(first?.query.client_env, ['sandbox']);
    // On the first page, behind only the conversations that started after it.
    const at = p.shownRows().findIndex((r) => r.id === justHad);
    assert.ok(at >= 0, 'the conversation just had is listed at once');
    assert.ok(
      p
        .shownRows()
        .slice(0, at)
        .every((r) => Date.parse(r.startedAt) >= Date.parse(now)),
      `only conversations that started later come before it (row ${at})`,
    );
    /** The rows' start times, and the same sorted in one direction. */
    const order = (sign: number): [number[], number[]] => {
      const started = p.shownRows().map((r) => Date.parse(r.startedAt));
      return [started, [...started].sort((a, b) => sign * (a - b))];
    };
    await settled(p);
    assert.deepEqual(...order(-1), 'newest first');
    assert.match(p.status().text, /newest first/);

    await p.apply({ ...p.currentFilters, sort: 'oldest' });
    await settled(p);
    assert.deepEqual(...order(1), 'oldest first once turned');
    assert.notEqual(p.shownRows()[0]?.id, justHad);
    assert.match(p.status().text, /oldest first/);
  });

  test('a conversation opens from the list with its timeline, latency, metrics and state', async function () {
    this.timeout(120_000);
    const p = await list({ filters: { ...WEEK, channels: ['VOICE-SIP'], progress: 'finished' } });
    await settled(p);
    const row = p.shownRows().find((r) => r.turns >= 3)!;
    const since = await lastRequestSeq(admin);
    const d = (await p.open(row.id)) as DetailHandle;
    open.push(d);
    await d.loaded;
    assert.deepEqual(await conversationRequests(admin, since), [], 'the record of the list is shown as it is');
    const shown = d.shown!;
    assert.equal(shown.row.id, row.id);
    assert.equal(shown.turns.length, row.turns);
    assert.ok(
      shown.turns.every((t) => t.latencyMs !== undefined && t.latencyMs > 0),
      'each turn has its latency',
    );
    assert.equal(shown.maxLatencyMs, Math.max(...shown.turns.map((t) => t.latencyMs!)));
    assert.ok(shown.turns.some((t) => t.agent && t.agentTime));
    assert.ok(
      shown.metrics.some((m) => m.name === 'CALL_DURATION'),
      'metrics shown',
    );
    assert.ok(
      shown.state.some((s) => s.name === 'call_sid'),
      'state shown',
    );
    assert.equal(shown.turnsNote, '');
    assert.match(shown.row.from, /•/, 'numbers masked in the detail too');
    assert.ok(
      shown.state.filter((s) => s.name === 'from_').every((s) => s.value.includes('•')),
      'and in its state',
    );
  });

  test('a row opens beside the list in its own page, replaced by the next row; Ctrl opens one in a panel of its own; Export reads the one beside the list', async function () {
    this.timeout(120_000);
    const p = await list({ filters: { ...WEEK, channels: ['VOICE-SIP'], progress: 'finished' }, ackPaint: true });
    await settled(p);
    const tabOf = (id: string) =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === `Conversation ${id}`);
    const [a, b, c] = p.shownRows();
    assert.ok(a && b && c, 'three conversations listed');
    const snapshots: number[] = [];
    p.onDidNotify((n) => {
      const s = n as { type: string; seq?: number; snapshot?: { kind: string } };
      if (s.type === 'snapshot' && s.snapshot?.kind === 'detail') snapshots.push(s.seq!);
    });
    const painted: number[] = [];
    p.onDidPaint(({ seq }) => painted.push(seq));
    await until('the list in the page', () => painted.length > 0, 60_000);

    const first = (await p.open(a.id)) as DetailHandle & { isDisposed: boolean };
    await first.loaded;
    assert.equal(first.shown?.row.id, a.id);
    assert.equal((first as { panel?: unknown }).panel, undefined, 'shown in the list panel, not a panel of its own');
    await until('the conversation in the list page', () => snapshots.length > 0 && painted.includes(snapshots[0]!));

    const second = (await p.open(b.id)) as DetailHandle & { isDisposed: boolean };
    assert.ok(first.isDisposed, 'the next row replaces the conversation beside the list');
    assert.equal(second.shown?.row.id, b.id);

    // Export Conversation from the palette exports what the active list panel shows beside its rows.
    const ui = scriptedPrompts(await activateExtension());
    try {
      ui.setAnswer((s) => (s.kind === 'saveFile' ? `exports/${b.id}.json` : undefined));
      p.panel.reveal();
      await until('the list panel to be active', () => p.panel.active);
      const file = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.exportConversation', {
        format: 'json',
      });
      assert.ok(file, 'exported');
      const json = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
      assert.equal(json.conversation.id, b.id);
      await vscode.workspace.fs.delete(file);

      // What the page asked of the conversation it showed before, arriving after the next row replaced it, is
      // not carried out on the new one: no export, no copy, no close.
      const asked = ui.shown.length;
      assert.deepEqual(await p.request({ type: 'export', format: 'json', conversationId: a.id }), {});
      assert.equal(ui.shown.length, asked, 'nothing asked where to save');
      assert.deepEqual(await p.request({ type: 'copyId', conversationId: a.id }), {});
      await p.command({ type: 'closeDetail', conversationId: a.id });
      assert.ok(!second.isDisposed, 'a close of the conversation before leaves the one now beside the list');
      assert.deepEqual(await p.request({ type: 'copyId', conversationId: b.id }), { conversationId: b.id });
      assert.equal(await vscode.env.clipboard.readText(), b.id);
    } finally {
      ui.dispose();
    }

    const own = (await p.open(c.id, true)) as DetailHandle;
    open.push(own);
    assert.ok(own.panel, 'with Ctrl: a panel of its own');
    await until('a tab of its own', () => tabOf(c.id));
    assert.equal(tabOf(a.id) ?? tabOf(b.id), undefined, 'the ones opened beside the list have no tab');
    assert.equal(own.shown?.row.id, c.id);
    assert.ok(!second.isDisposed, 'the conversation beside the list stays');
  });

  test('after a reload, the list comes back with the conversation that was beside it, and a state that is not a list or conversation is refused', async function () {
    this.timeout(120_000);
    const api = await activateExtension();
    const filters = { ...WEEK, channels: ['VOICE-SIP'], progress: 'finished' as const };
    const p = await list({ filters });
    await settled(p);
    const row = p.shownRows()[1]!;
    // What the page keeps with a conversation beside the list: the filters and the conversation's id, no rows.
    const kept = {
      kind: 'list',
      list: {
        target: { label: 'Local platform' },
        filters,
        rows: [],
        status: { loading: false, more: false, text: '', revealed: false },
      },
      detail: { kind: 'detail', conversationId: row.id, status: { text: '', loading: false, revealed: false } },
    };
    const restored = (await api.testing!.restorePanel('agentWorkbench.conversations', kept)) as ListHandle & {
      openDetail?: DetailHandle;
    };
    open.push(restored);
    await settled(restored);
    await until('the conversation beside the restored list', () => restored.openDetail?.shown?.row.id === row.id);
    assert.equal(restored.shownRows()[1]?.id, row.id, 'the list read again with the same filters');
    assert.equal(
      await api.testing!.restorePanel('agentWorkbench.conversations', { kind: 'list', list: 'not a list' }),
      undefined,
    );
  });

  test('by id: found without the list; Find keeps the turns around a match; exported as Markdown and JSON where the person picks', async function () {
    this.timeout(120_000);
    const turns = Array.from({ length: 10 }, (_, i) => ({
      user_input: i === 4 ? 'I want a refund for my order' : `Question number ${i + 1}`,
      agent_response: i === 4 ? 'I can help with your refund.' : `Answer number ${i + 1}`,
      latency: 200 + i * 10,
      intents: i === 4 ? ['refund_request'] : [],
      entities: i === 4 ? { order_number: 'A-1001' } : {},
      is_ood: i === 7,
      barge_in: i === 2,
    }));
    const id = await seedConversation(admin, { started_at: '2026-01-03T10:00:00Z', turns, environment: 'sandbox' });
    const d = await detail({ conversationId: id });
    await d.loaded;
    await until('the conversation', () => d.shown);
    assert.equal(d.shown!.turns.length, 10);
    assert.equal(d.shown!.environment, 'sandbox', 'found in another environment than live');
    const found = d.find('REFUND order')!;
    assert.deepEqual(found.matches, [4]);
    assert.deepEqual(found.shown, [3, 4, 5], 'the turn before and after are kept');
    assert.equal(d.find('nothing like this')!.matches.length, 0);
    assert.equal(d.find(''), undefined, 'an empty search shows every turn');

    const prompts = scriptedPrompts(await activateExtension());
    try {
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      prompts.setAnswer((s) => (s.kind === 'saveFile' ? `exports/${id}.md` : undefined));
      d.panel.reveal();
      await until('the conversation panel to be active', () => d.panel.active);
      const md = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.exportConversation', {
        format: 'markdown',
      });
      assert.ok(md, prompts.lastError());
      assert.equal(prompts.shown.filter((s) => s.kind === 'saveFile').length, 1, 'the person picked where to save');
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(md));
      assert.match(text, new RegExp(`^# Conversation ${id.replace('_', '\\\\_')}\n`));
      assert.match(text, /## Turn 5 \(latency 240 ms\)/);
      assert.match(text, /I want a refund for my order/);
      assert.match(text, /## Turn 3 \(barge-in, latency 220 ms\)/);
      assert.match(text, /Entities: order\\_number=A-1001/);

      prompts.setAnswer((s) => (s.kind === 'saveFile' ? `exports/${id}.json` : undefined));
      const json = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.exportConversation', {
        format: 'json',
      });
      const file = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(json))) as {
        format: string;
        conversation: { id: string; turns: unknown[] };
      };
      assert.equal(file.format, 'agent-workbench.transcript');
      assert.equal(file.conversation.id, id);
      assert.equal(file.conversation.turns.length, 10);

      prompts.setAnswer(() => undefined);
      const none = await vscode.commands.executeCommand('agentWorkbench.exportConversation', { format: 'json' });
      assert.equal(none, undefined, 'a dismissed save dialog saves nothing');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'exports'), { recursive: true });
    } finally {
      prompts.dispose();
    }
  });

  test('an export says where it wrote the file and opens it from the message; a failed write says nothing of a file', async function () {
    this.timeout(120_000);
    const id = await seedConversation(admin, {
      started_at: '2026-01-03T11:00:00Z',
      turns: [{ user_input: 'Where is my parcel?', agent_response: 'On its way.' }],
    });
    const d = await detail({ conversationId: id });
    await d.loaded;
    await until('the conversation', () => d.shown);
    const prompts = scriptedPrompts(await activateExtension());
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    try {
      d.panel.reveal();
      await until('the conversation panel to be active', () => d.panel.active);
      prompts.setAnswer((s) =>
        s.kind === 'saveFile' ? `exported/${id}.md` : s.kind === 'info' && s.message.includes(id) ? 'Open' : undefined,
      );
      const md = await vscode.commands.executeCommand<vscode.Uri>('agentWorkbench.exportConversation', {
        format: 'markdown',
      });
      assert.ok(md, prompts.lastError());
      const said = prompts.shown.filter((s) => s.kind === 'info');
      assert.equal(said.length, 1, `one message: ${JSON.stringify(said)}`);
      assert.ok(said[0]!.message.includes(`exported/${id}.md`), `says where: ${said[0]!.message}`);
      assert.deepEqual(said[0]!.items, ['Open', 'Reveal in Explorer']);
      await until(
        'the exported file open in an editor',
        () => vscode.window.activeTextEditor?.document.uri.toString() === md.toString(),
      );

      // Writing under a file fails: the error is said, and no message speaks of a file written.
      prompts.shown.length = 0;
      prompts.setAnswer((s) => (s.kind === 'saveFile' ? `exported/${id}.md/inside.json` : undefined));
      const failed = await vscode.commands.executeCommand('agentWorkbench.exportConversation', { format: 'json' });
      assert.equal(failed, undefined);
      assert.ok(prompts.lastError(), 'the failed write is said');
      assert.deepEqual(
        prompts.shown.filter((s) => s.kind === 'info'),
        [],
        'no message of an export that did not happen',
      );
    } finally {
      prompts.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'exported'), { recursive: true });
    }
  });

  test('empty turns and metrics say why: transcript visibility off, no metrics enabled', async function () {
    this.timeout(60_000);
    const settingsUrl = `${urls.admin}/projects/support-desk/settings`;
    const before = (
      await call<{ transcriptVisibility: boolean; responseMetrics: string[] }>('PATCH', settingsUrl, { body: {} })
    ).body;
    const id = await seedConversation(admin, {
      started_at: '2026-01-03T11:00:00Z',
      turns: [{ user_input: 'Hello', agent_response: 'Hi there' }],
    });
    try {
      await call('PATCH', settingsUrl, { body: { transcriptVisibility: false, responseMetrics: [] } });
      const d = await detail({ conversationId: id, environment: 'live' });
      await until('the conversation', () => d.shown);
      assert.equal(d.shown!.turns.length, 0);
      assert.match(d.shown!.turnsNote, /1 turn, but their transcript is not shown: transcript visibility is off/);
      assert.match(d.shown!.metricsNote, /no response metrics are enabled/);
    } finally {
      await call('PATCH', settingsUrl, {
        body: { transcriptVisibility: before.transcriptVisibility, responseMetrics: before.responseMetrics },
      });
    }
  });

  test('a conversation in progress is read again until it ends; an unknown id is said so', async function () {
    this.timeout(90_000);
    const id = await seedConversation(admin, {
      in_progress: true,
      turns: [{ user_input: 'Hello', agent_response: 'Hi, how can I help?' }],
    });
    const d = await detail({ conversationId: id });
    await until('the conversation', () => d.shown);
    assert.equal(d.shown!.turns.length, 1);
    assert.match(d.status.text, /In progress/);
    await admin.addTurns(id, { turns: [{ user_input: 'Where is my parcel?', agent_response: 'It is on its way.' }] });
    await until('the new turn', () => d.shown!.turns.length === 2, 30_000);
    assert.equal(d.shown!.turns[1]!.user, 'Where is my parcel?');
    // Not found when read again (an empty page in every environment): what was read stays, and it is read again.
    await admin.addFault({
      family: 'runtime',
      method: 'GET',
      path: 'conversations',
      replyBody: { conversations: [] },
      times: 3,
    });
    await until(
      'the read that found nothing',
      () => /was not found when read again/.test(d.status.error ?? ''),
      30_000,
    );
    assert.equal(d.shown!.turns.length, 2, 'what was read before is still shown');
    await admin.addTurns(id, { turns: [], in_progress: false });
    await until('the end', () => d.shown!.row.inProgress === false, 30_000);
    assert.match(d.status.text, /Finished/);

    const missing = await detail({ conversationId: 'conv_does_not_exist' });
    await missing.loaded;
    assert.match(missing.status.error ?? '', /conv_does_not_exist was not found in this project/);
  });

  test('a chat playground opens its conversation in the viewer', async function () {
    this.timeout(90_000);
    const chat = await openChat({ mode: 'chatApi', target: { label: 'Support Desk' } });
    open.push(chat);
    await until('the conversation id', () => chat.conversationId);
    await chat.send('What are your opening hours on Sunday?');
    await until('the answer', () => chat.snapshot().lines.filter((l) => l.role === 'agent').length >= 2);
    const d = await vscode.commands.executeCommand<DetailHandle>('agentWorkbench.openChatTranscript');
    assert.ok(d, 'the viewer opened');
    open.push(d);
    await d.loaded;
    await until('the conversation', () => d.shown);
    assert.equal(d.conversationId, chat.conversationId);
    assert.ok(
      d.shown!.turns.some((t) => t.user === 'What are your opening hours on Sunday?'),
      'the message sent in the chat is in the transcript',
    );
  });

  test('a list scrolled past the records it keeps opens an older row by looking it up around its start, beside the list or in a panel of its own', async function () {
    this.timeout(180_000);
    // Older than the demo week, in a range of their own: the other tests' lists do not see them.
    const range = { start: '2020-01-01T00:00:00Z', end: '2020-01-11T00:00:00Z' };
    await admin.generateConversations({ count: 6_000, start_time: range.start, end_time: range.end });
    try {
      const p = await list({ filters: { ...DEFAULT_FILTERS, range: 'custom', ...range } });
      await settled(p);
      while (p.status().more) {
        await p.loadMore();
        await settled(p);
      }
      assert.equal(p.shownRows().length, 6_000);
      const [oldest] = p.shownRows();
      const voice = p.shownRows().find((r) => r.channel === 'VOICE-SIP' && r.from)!;
      p.reveal(true);
      assert.doesNotMatch(p.shownRows().find((r) => r.id === voice.id)!.from, /•/, 'numbers shown on request');
      p.reveal(false);
      assert.match(p.shownRows().find((r) => r.id === voice.id)!.from, /•/, 'and masked again');

      const since = await lastRequestSeq(admin);
      const beside = (await p.open(oldest!.id)) as DetailHandle;
      await beside.loaded;
      assert.equal(beside.shown?.row.id, oldest!.id, 'the oldest row, found again');
      const asked = await conversationRequests(admin, since);
      assert.ok(asked.length > 0, 'its record was read from the platform again');
      const around = Date.parse(oldest!.startedAt);
      for (const r of asked) {
        assert.ok(Math.abs(Date.parse(r.query.start_time![0]!) - around) <= 60_000, 'around its start');
        assert.ok(Math.abs(Date.parse(r.query.end_time![0]!) - around) <= 60_000);
      }
      const own = (await p.open(oldest!.id, true)) as DetailHandle;
      open.push(own);
      assert.ok(own.panel, 'with Ctrl: a panel of its own');
      await own.loaded;
      assert.equal(own.shown?.row.id, oldest!.id);
    } finally {
      await admin.reset('demo');
    }
  });
});
