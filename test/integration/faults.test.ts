// Every place of the editor under every fault of the local platform's fault API: trees, panels, commands, the status
// bar, a test run and assistant tools. For each fault, the places run side by side (each fault armed on the request of
// its own place), and each must end in a bounded time with what test/support/faultPlaces.ts says: its content, or a
// message that says what failed and what to do; a write sent once, and said to be possibly done where its answer was
// lost; what the person typed kept. docs/reliability.md shows the same table.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FaultRequest } from '../../src/localPlatform/adminApi';
import type { ChartQuery, ChartView } from '../../src/protocol/concurrency';
import type { ConversationFilters } from '../../src/protocol/transcripts';
import { DEFAULT_FILTERS } from '../../src/protocol/transcripts';
import type { ConversationTests } from '../../src/ui/testing/conversationTests';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import {
  FAULT_PLACES,
  type FaultPlace,
  keptExpected,
  type PlaceOutcome,
  placeExpected,
  placesFor,
} from '../support/faultPlaces';
import { exactPath, FAULT_KINDS, FAULT_LABEL, type FaultKind, faultFor, messageProblem } from '../support/faults';
import { answers, type ChatPanelHandle, greeted, openChat } from '../support/editor/chatPanel';
import { openPanel, treeItems, type WorkbenchExports } from '../support/editor/extension';
import type { Shown } from '../support/editor/prompts';
import { editorSuite } from '../support/editor/suite';
import { testFilesUnder } from '../support/editor/testingView';
import { type ListHandle, demoWeek, openList } from '../support/editor/transcriptPanels';
import { welcomeShown } from '../support/editor/welcome';
import { ToolSession } from '../support/editor/languageModelTools';
import { call } from '../support/http';
import type { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

/** The editor's timeout for each answer in this suite: the timeout fault holds an answer past it. */
const TIMEOUT_S = 2;
/** How long any place may take to end, beyond the fault's own wait (the slow answer, the short Retry-After). */
const BOUND_MS = 20_000;

interface ChartHandle {
  readonly view: ChartView;
  show(query: ChartQuery): Promise<ChartView>;
  dispose(): void;
}

/** What a place showed at the end of its run. */
interface Seen {
  outcome: PlaceOutcome;
  /** The words the person reads (a message, a tooltip, a welcome, an answer), when it is not the content. */
  message?: string;
  /** Requests of the place's write that reached the platform. */
  sent?: number;
  /** Whether what the person typed was kept. */
  kept?: boolean;
  /** Whether a Retry button was offered. */
  retry?: boolean;
  ms: number;
}

/** One place's part in a round: the request its fault is armed on, and what it does and reads back. */
interface Runner {
  target(): { family: 'runtime' | 'build' | 'messaging'; method: string; path: string };
  run(fault: FaultKind): Promise<Omit<Seen, 'ms'>>;
}

type Node = unknown;

/** The words of a message tell the outcome: may have been done, done but unreadable, or failed. */
function outcomeOf(message: string): PlaceOutcome {
  if (/may have been done/.test(message)) return 'maybe';
  if (/accepted it|took the message|started a conversation, but/.test(message)) return 'accepted';
  return 'failed';
}

suite('Faults in the editor: every place under every fault', function () {
  // 14 rounds; each waits at most for a slow answer or a timeout, and a few retries.
  this.timeout(10 * 60_000);
  let api: WorkbenchExports;
  let admin: LocalAdmin;
  let ui: ReturnType<typeof editorSuite>['ui'];
  let mode = 'full';
  let places: FaultPlace[] = [];
  const editor = editorSuite({ seed: 'demo', reset: 'once' });
  const exec = <T>(command: string, ...args: unknown[]) =>
    vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);
  const config = (section: string) => vscode.workspace.getConfiguration(section);

  let transcripts: ListHandle;
  let week: ConversationFilters;
  let chart: ChartHandle;
  let chartQuery: ChartQuery;
  let messaging: ChatPanelHandle;
  let chatApi: ChatPanelHandle;
  let tests: ConversationTests;
  let testItem: vscode.TestItem;
  const tools = (): ToolSession => new ToolSession(api);
  /** The rule flow: typing a new rule, or reopened to read what it opens with. */
  const ruleFlow: { typing?: string; reopened?: string } = {};

  suiteSetup(async function () {
    ({ api, admin, ui } = editor);
    mode = (await admin.responses()).mode;
    places = placesFor(mode);
    await config('agentWorkbench').update('requestTimeoutSeconds', TIMEOUT_S, vscode.ConfigurationTarget.Workspace);
    // Nothing reads alerts in the background while faults are armed.
    await config('agentWorkbench.alerts').update('pollIntervalSeconds', 0, vscode.ConfigurationTarget.Workspace);
    ui.setAnswer(answer);
    // Room on the platform for the rules the rounds make (the editor's own count is kept below ten by settle()).
    await admin.setOptions({ maxAlertRules: 1_000 });
    if (mode === 'spec-only')
      // The spec does not list agents: the editor knows those it is told of.
      for (const id of ['ag_support', 'ag_restaurant', 'ag_bank_cards']) await exec('addAgentById', id);
    week = { ...DEFAULT_FILTERS, range: 'custom', ...(await demoWeek(admin)) };
    transcripts = await openList({ filters: week });
    const { end } = week;
    chartQuery = {
      start: new Date(Date.parse(end!) - 24 * 3_600_000).toISOString(),
      end: end!,
      environment: 'live',
      sliceByVariant: false,
    };
    chart = await openPanel<ChartHandle>('agentWorkbench.openConcurrencyChart', { label: 'Project', ...chartQuery });
    messaging = await openChat({ mode: 'messaging', streaming: false, target: { label: 'Faults, messaging' } });
    chatApi = await openChat({ mode: 'chatApi', target: { label: 'Faults, Chat API' } });
    await greeted(messaging);
    await greeted(chatApi);
    tests = api.testing!.conversationTests();
    const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'fault-tests');
    const write = testFilesUnder(tests, root);
    // An agent of another project than the chat panels' (its own Chat key): its faults are its own.
    testItem = await write(`agent: ag_restaurant
cases:
  - name: Opening hours
    turns:
      - user: What are your opening hours?
        end: false
`);
  });

  suiteTeardown(async () => {
    for (const p of [transcripts, chart, messaging, chatApi]) p?.dispose();
    await admin.clearFaults();
    await config('agentWorkbench').update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Workspace);
    await config('agentWorkbench.alerts').update(
      'pollIntervalSeconds',
      undefined,
      vscode.ConfigurationTarget.Workspace,
    );
    const root = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'fault-tests');
    await vscode.workspace.fs.delete(root, { recursive: true }).then(undefined, () => undefined);
  });

  /** The person's answers: the publish confirmation, and the rule flow (typed, or reopened and left). */
  function answer(s: Shown): string | undefined {
    if (s.modal && /^Publish the main branch of/.test(s.message)) return s.items[0];
    if (s.detail === 'Create Alert Rule' && s.step) {
      if (ruleFlow.typing === undefined) {
        // Reopened: what it opens with is read, and the person leaves.
        if (s.step === '1/8') ruleFlow.reopened = s.value ?? '';
        return undefined;
      }
      if (s.kind === 'input') return s.step === '1/8' ? ruleFlow.typing : '1500';
      return s.items[0];
    }
    return undefined;
  }

  // ---- the nodes of the trees, read afresh (without faults) before each round ----

  async function child(parent: Node | undefined, label: RegExp): Promise<Node> {
    const items = await treeItems(api.agentsView, parent);
    const found = items.find((i) => label.test(i.label));
    if (!found) throw new Error(`no ${String(label)} among ${items.map((i) => i.label).join(', ')}`);
    return found.node;
  }

  /** What a tree node's children show: its error item's message, or its content. */
  async function childrenSeen(provider: vscode.TreeDataProvider<unknown>, node: Node): Promise<Omit<Seen, 'ms'>> {
    const children = (await provider.getChildren(node)) ?? [];
    for (const c of children) {
      const item = await provider.getTreeItem(c);
      if (item.contextValue === 'error') {
        const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
        assert.match(label, /^Could not load: /);
        assert.match(tooltip, /Click to try again\./);
        assert.ok(item.command, 'clicking the error item retries');
        const message = (c as { message: string }).message;
        return { outcome: outcomeOf(message), message };
      }
    }
    assert.ok(children.length > 0, 'the group shows its content');
    return { outcome: 'shown' };
  }

  let nodes: {
    support: { deployments: Node; numbers: Node; configs: Node };
    restaurant: Node;
    knowledge: Node;
    bankCards: Node;
    currentAlerts: Node;
  };

  async function readNodes(): Promise<void> {
    // By name, or by id where the platform does not list agents (spec-only: those added by id).
    const support = await child(undefined, /^(Support Desk|ag_support)$/);
    const restaurant = await child(undefined, /^(Bella Tavola|ag_restaurant)/);
    const bankCards = await child(undefined, /^(Northwind|ag_bank_cards)/);
    const assumed = mode !== 'spec-only';
    const main = assumed ? await child(support, /main/) : undefined;
    // The views as the round before left them (settle() read the alerts again).
    const roots = (await api.testing!.alertsView.getChildren()) as Array<{ id: string }>;
    nodes = {
      support: {
        deployments: await child(support, /^Deployments$/),
        numbers: await child(support, /^Telephony Numbers$/),
        configs: await child(support, /^Real-time Configs$/),
      },
      restaurant,
      knowledge: main && (await child(main, /^Knowledge$/)),
      bankCards,
      currentAlerts: roots.find((r) => r.id === 'alerts/current'),
    };
  }

  /** Sent requests of a write during a round: to this path, or to paths that pass this test. */
  async function sentSince(since: number, method: string, path: string | RegExp): Promise<number> {
    const to = (p: string): boolean => (typeof path === 'string' ? p === path : path.test(p));
    return (await admin.requests({ since })).filter((r) => r.method === method && to(r.path)).length;
  }

  /** The welcome a view shows for a failure of its first read, by the fault's kind. */
  const PROBLEM: Partial<Record<FaultKind, string>> = {
    timeout: 'noAnswer',
    resetBefore: 'noAnswer',
    resetAfter: 'noAnswer',
    retryAfterLong: 'busy',
    rateLimited: 'busy',
    status500: 'server',
    status502: 'server',
    status503: 'server',
    status504: 'server',
    errorPage: 'server',
    notJson: 'unreadable',
    wrongShape: 'unreadable',
  };

  /** A view whose whole content is one read: reloaded, it shows the content or the welcome of the failure's kind. */
  const viewRoot = (view: 'agents' | 'alerts', refresh: string, path: string): Runner => ({
    target: () => ({ family: 'build', method: 'GET', path: exactPath(path) }),
    run: async (fault) => {
      const roots = (await exec<unknown[]>(refresh)) ?? (await api.agentsView.getChildren()) ?? [];
      const shown = api.testing!.viewState(view);
      if (shown.state === 'ready') return { outcome: 'shown' };
      assert.equal(shown.state, 'error');
      assert.deepEqual(roots, []);
      assert.equal(shown.problem, PROBLEM[fault], 'the welcome says what kind of failure it was');
      const welcome = welcomeShown(view, shown);
      assert.ok(welcome, `a welcome for ${shown.problem}`);
      return { outcome: 'failed', message: welcome.contents };
    },
  });

  /** A group of a tree, reloaded through its node: its content, or its error item. */
  const treeGroup = (
    path: string,
    node: () => Node,
    provider: () => vscode.TreeDataProvider<unknown> = () => api.agentsView,
    refresh = 'refreshNode',
  ): Runner => ({
    target: () => ({ family: 'build', method: 'GET', path: path.startsWith('/^') ? path : exactPath(path) }),
    run: async () => {
      await exec(refresh, node());
      return childrenSeen(provider(), node());
    },
  });

  const runners: Record<string, Runner> = {
    agents: viewRoot('agents', 'refreshAgents', '/v1/agents'),
    branches: treeGroup('/v1/agents/ag_restaurant/branches', () => nodes.restaurant),
    topics: treeGroup(
      '/^\\/v1\\/agents\\/ag_support\\/branches\\/[^/]+\\/knowledge-base\\/topics$/',
      () => nodes.knowledge,
    ),
    deployments: treeGroup('/v1/agents/ag_support/deployments', () => nodes.support.deployments),
    numbers: treeGroup('/v1/agents/ag_support/telephony/phone-numbers', () => nodes.support.numbers),
    configs: treeGroup('/v1/agents/ag_support/real-time-configs', () => nodes.support.configs),
    rules: viewRoot('alerts', 'refreshAlerts', '/v1/alert-rules'),
    currentAlerts: treeGroup(
      '/v1/alerts',
      () => nodes.currentAlerts,
      () => api.testing!.alertsView,
      'refreshAlertsNode',
    ),
    endpoints: {
      target: () => ({ family: 'build', method: 'GET', path: exactPath('/v1/webhook-endpoints') }),
      run: async () => {
        const children =
          (await exec<Array<{ message?: string; getTreeItem(): vscode.TreeItem }>>('refreshAlertsNode', 'endpoints')) ??
          [];
        const error = children.find((c) => c.getTreeItem().contextValue === 'error');
        if (!error) return { outcome: 'shown' };
        return { outcome: outcomeOf(error.message!), message: error.message! };
      },
    },
    alertBadge: {
      target: () => ({ family: 'build', method: 'GET', path: exactPath('/v1/alerts') }),
      run: async () => {
        const check = await exec<{ badge?: string; unreadable?: string }>('checkAlerts');
        assert.ok(check, 'the alerts were checked');
        if (!check.unreadable) return { outcome: 'shown' };
        assert.equal(check.badge, '$(bell-slash) ?', 'the badge says the alerts are not known');
        return { outcome: 'failed', message: check.unreadable };
      },
    },
    transcripts: {
      target: () => ({ family: 'runtime', method: 'GET', path: '/^\\/v3\\/[^/]+\\/[^/]+\\/conversations$/' }),
      run: async () => {
        await transcripts.apply(week);
        await until('the list to end loading', () => !transcripts.status().loading, BOUND_MS);
        const status = transcripts.status();
        if (!status.error) {
          assert.ok(transcripts.shownRows().length > 0, 'rows are shown');
          return { outcome: 'shown' };
        }
        return { outcome: outcomeOf(status.error), message: status.error };
      },
    },
    chart: {
      target: () => ({ family: 'runtime', method: 'GET', path: '/conversations/concurrency' }),
      run: async () => {
        const view = await chart.show(chartQuery);
        if (view.state === 'ready') return { outcome: 'shown' };
        assert.equal(view.state, 'failed', `the chart ends loading (${view.state})`);
        return { outcome: outcomeOf(view.message ?? ''), message: view.message ?? '' };
      },
    },
    chatSession: {
      target: () => ({ family: 'messaging', method: 'POST', path: exactPath('/api/v1/sessions') }),
      run: async () => {
        // A new session starts a new transcript.
        await messaging.restart();
        await until(
          'the session to start or fail',
          () => messaging.snapshot().status.state === 'failed' || answers(messaging).length > 0,
          BOUND_MS,
        );
        const status = messaging.snapshot().status;
        if (status.state !== 'failed') return { outcome: 'shown' };
        const notice = messaging.snapshot().lines.find((l) => l.role === 'notice' && l.error);
        assert.ok(notice?.fix, 'the failure offers its fix (start again)');
        return { outcome: outcomeOf(notice.text), message: notice.text };
      },
    },
    chatTurn: {
      target: () => ({ family: 'runtime', method: 'POST', path: exactPath('/v1/acme/support-desk/chat/respond') }),
      run: async (fault) => {
        const text = `What are your opening hours? (${fault})`;
        const before = chatApi.snapshot().lines.length;
        const since = await admin.lastRequestSeq();
        await chatApi.send(text);
        await until(
          'the turn to end',
          () => {
            const s = chatApi.snapshot().status;
            return !s.agentTyping && s.canSend;
          },
          BOUND_MS,
        );
        const sent = await sentSince(since, 'POST', '/v1/acme/support-desk/chat/respond');
        const lines = chatApi.snapshot().lines.slice(before);
        const mine = lines.find((l) => l.role === 'user');
        assert.equal(mine?.text, text, 'the message is shown as typed');
        const notice = lines.find((l) => l.role === 'notice');
        if (!notice) {
          assert.ok(
            lines.some((l) => l.role === 'agent'),
            'answered',
          );
          return { outcome: 'shown', sent };
        }
        const outcome = outcomeOf(notice.text);
        return {
          outcome,
          message: notice.text,
          sent,
          // Kept: the line as typed, with Send again (where the platform did not take it).
          kept: mine.error === true && mine.fix?.kind === 'resend',
        };
      },
    },
    publish: {
      target: () => ({
        family: 'build',
        method: 'POST',
        path: exactPath('/v1/agents/ag_bank_cards/deployments/publish'),
      }),
      run: async (fault) => {
        const since = await admin.lastRequestSeq();
        const shownBefore = ui.shown.length;
        const result = await exec<{ deployment: unknown }>(
          'publish',
          { agentId: 'ag_bank_cards' },
          { deploymentMessage: `Faults: ${fault}` },
        );
        const sent = await sentSince(since, 'POST', '/v1/agents/ag_bank_cards/deployments/publish');
        const told = ui.shown.slice(shownBefore).find((s) => !s.modal && /publish/i.test(s.message));
        if (result) return { outcome: 'shown', sent };
        assert.ok(told, 'a message about the publish');
        return { outcome: outcomeOf(told.message), message: told.message, sent, retry: told.items.includes('Retry') };
      },
    },
    createRule: {
      target: () => ({ family: 'build', method: 'POST', path: exactPath('/v1/alert-rules') }),
      run: async (fault) => {
        const name = `Faults ${fault}`;
        const since = await admin.lastRequestSeq();
        const shownBefore = ui.shown.length;
        ruleFlow.typing = name;
        const created = await exec<{ id: string }>('createAlertRule');
        const sent = await sentSince(since, 'POST', '/v1/alert-rules');
        const told = ui.shown
          .slice(shownBefore)
          .find((s) => !s.modal && s.kind !== 'input' && s.kind !== 'pick' && /alert rule/i.test(s.message));
        // Opened again: what does it start from?
        ruleFlow.typing = undefined;
        ruleFlow.reopened = undefined;
        await exec('createAlertRule');
        const kept = ruleFlow.reopened === name;
        if (created) return { outcome: 'shown', sent, kept };
        assert.ok(told, 'a message about the rule');
        return {
          outcome: outcomeOf(told.message),
          message: told.message,
          sent,
          kept,
          retry: told.items.includes('Retry'),
        };
      },
    },
    testRun: {
      // The chat conversations of the test's agent, in its own project.
      target: () => ({
        family: 'runtime',
        method: 'POST',
        path: '/^\\/v1\\/acme\\/(?!support-desk\\/)[^/]+\\/chat\\/create$/',
      }),
      run: async () => {
        const profile = tests.runProfiles[0]!;
        const token = new vscode.CancellationTokenSource().token;
        const since = await admin.lastRequestSeq();
        await profile.runHandler(new vscode.TestRunRequest([testItem], undefined, profile), token);
        const record = tests.runs.at(-1)!;
        let reported: { state: string; messages: Array<{ message: string }> } | undefined;
        testItem.children.forEach((c) => (reported ??= record.items.get(c.id)));
        assert.ok(reported, 'the case was reported');
        const sent = await sentSince(since, 'POST', /^\/v1\/acme\/(?!support-desk\/)[^/]+\/chat\/create$/);
        if (reported.state === 'passed') return { outcome: 'shown', sent };
        // A run the platform stopped fails the case, with the platform's words as its message.
        assert.ok(['failed', 'errored'].includes(reported.state), `${reported.state}: ${record.output}`);
        const message = reported.messages.map((m) => m.message).join(' ');
        return { outcome: outcomeOf(message), message, sent };
      },
    },
    toolRead: {
      target: () => ({ family: 'runtime', method: 'GET', path: '/conversations/concurrency' }),
      run: async () => {
        const text = await tools().invoke('agentWorkbench_concurrency', { lastHours: 24 });
        return failedWords.test(text) ? { outcome: outcomeOf(text), message: text } : { outcome: 'shown' };
      },
    },
    toolWrite: {
      target: () => ({ family: 'build', method: 'POST', path: exactPath('/v1/agents/ag_support/branches') }),
      run: async (fault) => {
        const since = await admin.lastRequestSeq();
        const text = await tools().invoke('agentWorkbench_createBranch', {
          agentId: 'ag_support',
          name: `faults-${fault}`,
        });
        const sent = await sentSince(since, 'POST', '/v1/agents/ag_support/branches');
        return failedWords.test(text) ? { outcome: outcomeOf(text), message: text, sent } : { outcome: 'shown', sent };
      },
    },
  };

  /** Words only a failure's answer has. */
  const failedWords =
    /\b(failed|did not answer|was closed|may have been done|accepted it|could not be read|Try again)\b/;

  /** Places that reload a whole view run after the others, so that they reload nothing the others read. */
  const LAST = new Set(['agents', 'rules']);

  for (const fault of FAULT_KINDS) {
    suite(`under ${FAULT_LABEL[fault]}`, () => {
      const seen = new Map<string, Seen | Error>();

      suiteSetup(async function () {
        // Each test gives the dialogs back to dismissing: the person's answers again.
        ui.setAnswer(answer);
        await readNodes();
        if (fault === 'slow')
          await config('agentWorkbench').update(
            'requestTimeoutSeconds',
            undefined,
            vscode.ConfigurationTarget.Workspace,
          );
        const round = async (which: FaultPlace[]) => {
          const armed: string[] = [];
          for (const place of which) {
            const fr: FaultRequest = faultFor(fault, runners[place.id]!.target(), TIMEOUT_S * 1000);
            armed.push((await admin.addFault(fr)).id);
          }
          await Promise.all(
            which.map(async (place) => {
              const started = Date.now();
              try {
                const result = await runners[place.id]!.run(fault);
                seen.set(place.id, { ...result, ms: Date.now() - started });
              } catch (err) {
                seen.set(place.id, err instanceof Error ? err : new Error(String(err)));
              }
            }),
          );
          await admin.clearFaults();
        };
        const started = Date.now();
        await round(places.filter((p) => !LAST.has(p.id)));
        await round(places.filter((p) => LAST.has(p.id)));
        const times = [...seen].map(([id, r]) => `${id} ${r instanceof Error ? 'error' : r.ms}`).join(', ');
        console.log(`Faults: the round under ${FAULT_LABEL[fault]} took ${Date.now() - started} ms (${times})`);
        if (fault === 'slow')
          await config('agentWorkbench').update(
            'requestTimeoutSeconds',
            TIMEOUT_S,
            vscode.ConfigurationTarget.Workspace,
          );
        await settle();
      });

      for (const place of FAULT_PLACES) {
        const want = placeExpected(place, fault);
        test(`${place.label}: ${want}`, function () {
          if (!places.includes(place)) this.skip();
          const got = seen.get(place.id);
          if (got instanceof Error) throw got;
          assert.ok(got, 'the place ran');
          assert.equal(got.outcome, want, got.message);
          if (got.message !== undefined) {
            const problem = messageProblem(got.message);
            assert.equal(problem, undefined, `${problem}: ${got.message}`);
          }
          if (place.kind === 'write' && got.sent !== undefined) assert.equal(got.sent, 1, 'the write is sent once');
          const kept = keptExpected(place, fault);
          if (kept !== undefined && got.kept !== undefined) assert.equal(got.kept, kept, 'what was typed is kept');
          // Retry is offered only where the platform said nothing was done (a 429), never where it may have been.
          if (got.retry === true)
            assert.ok(['retryAfterShort', 'retryAfterLong', 'rateLimited'].includes(fault), 'Retry only after a 429');
          const bound = BOUND_MS + (fault === 'slow' ? 10_000 : 0);
          assert.ok(got.ms < bound, `ended in ${got.ms} ms`);
        });
      }
    });
  }

  test('[ALERT-8] a rule being edited keeps what was typed when its save fails, and the next edit opens with it', async function () {
    if (mode === 'spec-only') this.skip(); // the rule is found through the rule list, which the spec does not show
    const listed = await call<{ alert_rules: Array<{ id: string; name: string }> }>(
      'GET',
      `${editor.urls.build}/v1/alert-rules`,
      { headers: { 'x-api-key': LOCAL_KEYS.alerts } },
    );
    const rule = listed.body.alert_rules[0]!;
    await exec('refreshAlerts');
    const typed = `${rule.name} (edited)`;
    let reopened: string | undefined;
    let editing = true;
    ui.setAnswer((s) => {
      if (!s.detail.startsWith('Edit Alert Rule') || !s.step) return undefined;
      if (!editing) {
        if (s.step === '1/8') reopened = s.value;
        return undefined;
      }
      if (s.kind === 'input') return s.step === '1/8' ? typed : s.value;
      // The review's first item saves; the other steps keep what the rule has.
      return s.step === '8/8' ? s.items[0] : (s.value ?? s.items[0]);
    });
    await admin.addFault({
      family: 'build',
      method: 'PATCH',
      path: exactPath(`/v1/alert-rules/${rule.id}`),
      status: 503,
    });
    try {
      assert.equal(await exec('editAlertRule', rule.id), undefined);
    } finally {
      await admin.clearFaults();
    }
    const error = ui.lastError();
    assert.match(error, /What you typed is kept: Edit Alert Rule opens with it for this rule\./);
    assert.equal(messageProblem(error), undefined, error);
    editing = false;
    await exec('editAlertRule', rule.id);
    assert.equal(reopened, typed, 'the edit opens with the name typed before');
  });

  /** After a round: rules made by it deleted (an account holds ten), the views read again without faults. */
  async function settle(): Promise<void> {
    await admin.clearFaults();
    await exec('refreshAgents');
    const rules = await call<{ alert_rules?: Array<{ id: string; name: string }> }>(
      'GET',
      `${editor.urls.build}/v1/alert-rules`,
      { headers: { 'x-api-key': LOCAL_KEYS.alerts } },
    );
    for (const r of rules.body.alert_rules ?? [])
      if (r.name.startsWith('Faults '))
        await call('DELETE', `${editor.urls.build}/v1/alert-rules/${r.id}`, {
          headers: { 'x-api-key': LOCAL_KEYS.alerts },
        });
    await exec('refreshAlerts');
  }
});
