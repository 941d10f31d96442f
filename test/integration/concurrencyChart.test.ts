import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChartLabelBox, ChartLayout, ChartQuery, ChartView } from '../../src/protocol/concurrency';
import { until } from '../support/until';
import { call } from '../support/http';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import {
  activateExtension,
  type LocalPlatformUrls,
  openPanel,
  startLocalPlatformInEditor,
} from '../support/editor/extension';
import { agentNodeNamed } from '../support/editor/agentsView';
import { scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';

/** What Open Concurrency Chart returns: the panel as the suite drives it (the webview posts the same queries). */
interface ChartPanelHandle {
  readonly view: ChartView;
  lastSent: Record<string, unknown> | undefined;
  show(query: ChartQuery): Promise<ChartView>;
  onDidDraw: vscode.Event<number>;
  /** What the webview drew last: the deployment labels' boxes and the colours. */
  readonly layout: ChartLayout | undefined;
  dispose(): void;
}

/** Whether two drawn boxes share any area. */
const intersect = (a: ChartLabelBox, b: ChartLabelBox): boolean =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

const AGENT = 'ag_support';
const ACCOUNT = 'acme';
const PROJECT = 'support-desk';
const KEY = 'lp_conversations_key';

suite('Concurrency chart', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let mode: ResponsesMode;
  const open: ChartPanelHandle[] = [];
  const asked = () => admin.concurrencyQueries();
  const platformNow = async () => Date.parse((await admin.clock()).now);
  const chart = async (args: unknown) => {
    const p = await openPanel<ChartPanelHandle>('agentWorkbench.openConcurrencyChart', args);
    open.push(p);
    return p;
  };

  suiteSetup(async () => {
    urls = await startLocalPlatformInEditor();
    admin = new LocalAdmin(urls.admin);
    mode = (await admin.responses()).mode;
    await admin.reset('demo');
  });

  teardown(() => open.splice(0).forEach((p) => p.dispose()));

  suiteTeardown(async () => {
    await admin.setResponses(mode);
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('a day of the demo week sliced by variant: the platform is asked for that range and slice, and the panel draws what it answered, with the deployments on the axis', async () => {
    // The editor's local platform ends the demo week at the current hour.
    const hour = Math.floor((await platformNow()) / 3_600_000) * 3_600_000;
    const start = new Date(hour - 24 * 3_600_000).toISOString();
    const end = new Date(hour).toISOString();
    const p = await chart({
      agentId: AGENT,
      label: 'Support Desk',
      start,
      end,
      environment: 'live',
      sliceByVariant: true,
    });
    let drawn = 0;
    p.onDidDraw((n) => (drawn = n));
    await until('the chart', () => p.view.state === 'ready' || p.view.state === 'failed', 30_000);
    assert.equal(p.view.state, 'ready', p.view.message);

    const query = (await asked()).at(-1)!;
    assert.equal(query.start_time, start);
    assert.equal(query.end_time, end);
    assert.equal(query.slice_by, 'variant');
    assert.equal(query.client_env, 'live');

    // What the platform answers for the same query is what the panel shows.
    const direct = await call<{
      intervals: Array<{ time: string; variant_name: string; max_concurrent_conversations: number }>;
    }>(
      'GET',
      `${urls.runtime}/v1/${ACCOUNT}/${PROJECT}/conversations/concurrency?${new URLSearchParams(query).toString()}`,
      { headers: { 'x-api-key': KEY } },
    );
    assert.equal(direct.status, 200);
    const view = p.view;
    assert.equal(view.times.length, 24 * 12, 'one value per 5-minute window of the day');
    assert.deepEqual(view.series.map((s) => s.label).sort(), ['Default', 'Friendly Tone']);
    for (const s of view.series) {
      const expected = direct.body.intervals
        .filter((i) => i.variant_name === s.label)
        .map((i) => i.max_concurrent_conversations);
      assert.deepEqual(s.values, expected, `the ${s.label} line`);
    }
    assert.ok(Math.max(...view.series.flatMap((s) => s.values)) > 0, 'the demo day has conversations');
    if (mode === 'spec-only') {
      // The spec shows no deployment list: the series stands, and the panel says why the demo's are not marked.
      assert.match(view.note ?? '', /Deployments cannot be listed/);
    } else {
      assert.ok(view.deployments.length > 0, 'the demo deployments are marked at the end of the week');
      assert.equal(view.note, undefined);
    }
    assert.ok(view.deployments.every((d) => d.label.includes(d.version)));
    await until('the webview to draw the chart', () => drawn > 0, 30_000);
    assert.equal(drawn, view.times.length * view.series.length);
  });

  test('opened without an environment, the chart is of the environment the status bar shows, not live', async () => {
    await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'pre-release');
    try {
      const p = await chart({ agentId: AGENT, label: 'Support Desk' });
      await until('the chart', () => p.view.state === 'ready' || p.view.state === 'failed', 30_000);
      assert.equal(p.view.query.environment, 'pre-release');
      assert.equal((await asked()).at(-1)?.client_env, 'pre-release');
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.selectEnvironment', 'sandbox');
    }
  });

  test("opened from the palette, the chart names the agent the profile's project serves and marks its deployments as the Agents view's chart does", async () => {
    const api = await activateExtension();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    const fromPalette = await chart(undefined);
    // Where agents cannot be listed the Agents view has no agent row: the chart is opened for the agent by its id.
    const fromTree = await chart(mode === 'spec-only' ? { agentId: AGENT } : await agentNodeNamed(api, 'Support Desk'));
    for (const p of [fromPalette, fromTree])
      await until('the chart', () => p.view.state === 'ready' || p.view.state === 'failed', 30_000);
    assert.equal(fromPalette.view.state, 'ready', fromPalette.view.message);
    assert.equal(fromPalette.view.title, 'Support Desk');
    assert.equal(fromPalette.view.agentId, AGENT);
    assert.deepEqual(fromPalette.view.deployments, fromTree.view.deployments);
    if (mode !== 'spec-only') assert.ok(fromPalette.view.deployments.length > 0, 'the demo deployments are marked');
  });

  test('a range longer than a week is refused before anything is sent, saying what to fix; a variant filter by name is sent as a name', async () => {
    const p = await chart({ preset: '6h', environment: 'sandbox' });
    await until('the first chart', () => p.view.state === 'ready', 30_000);
    const first = (await asked()).at(-1)!;
    assert.equal(Date.parse(first.end_time!) - Date.parse(first.start_time!), 6 * 3_600_000, 'the preset is six hours');
    assert.ok(Date.parse(first.end_time!) >= Date.now() - 60_000, 'ending now');
    assert.equal(first.client_env, 'sandbox');
    assert.equal(first.slice_by, undefined);
    const before = (await asked()).length;
    const refused = await p.show({
      start: '2025-12-20T00:00:00Z',
      end: '2025-12-28T00:00:01Z',
      environment: 'live',
      sliceByVariant: false,
    });
    assert.equal(refused.state, 'failed');
    assert.match(refused.message ?? '', /longer than a week/);
    assert.equal((await asked()).length, before, 'nothing was sent');

    const backwards = await p.show({
      start: '2026-01-02T00:00:00Z',
      end: '2026-01-01T00:00:00Z',
      environment: 'live',
      sliceByVariant: false,
    });
    assert.match(backwards.message ?? '', /end must be after the start/);
    assert.equal((await asked()).length, before, 'nothing was sent');

    const byName = await p.show({
      start: '2026-01-02T12:00:00Z',
      end: '2026-01-02T18:00:00Z',
      environment: 'live',
      sliceByVariant: false,
      variant: 'Friendly Tone',
    });
    assert.equal(byName.state, 'ready', byName.message);
    const last = (await asked()).at(-1)!;
    assert.equal(last.variant_name, 'Friendly Tone');
    assert.equal(last.variant_id, undefined);
    assert.deepEqual(
      byName.series.map((s) => s.label),
      ['All'],
    );
    assert.equal(byName.times.length, 6 * 12);

    // The person says which it is: an id without the var_ look is still sent as an id.
    await p.show({
      start: '2026-01-02T12:00:00Z',
      end: '2026-01-02T18:00:00Z',
      environment: 'live',
      sliceByVariant: false,
      variant: 'friendly-2',
      variantBy: 'id',
    });
    const byId = (await asked()).at(-1)!;
    assert.deepEqual([byId.variant_id, byId.variant_name], ['friendly-2', undefined]);
  });

  test('windows the answer does not list read 0, so no line is drawn across them', async () => {
    const p = await chart({ preset: '6h', environment: 'live' });
    await until('the first chart', () => p.view.state === 'ready', 30_000);
    // A platform that lists only the windows with conversations: two, an hour apart.
    await admin.addFault({
      family: 'runtime',
      method: 'GET',
      path: 'concurrency',
      times: 1,
      replyBody: {
        account_id: ACCOUNT,
        project_id: PROJECT,
        intervals: [
          { time: '2026-01-02T12:00:00Z', max_concurrent_conversations: 3 },
          { time: '2026-01-02T13:00:00Z', max_concurrent_conversations: 2 },
        ],
      },
    });
    const view = await p.show({
      start: '2026-01-02T12:00:00Z',
      end: '2026-01-02T14:00:00Z',
      environment: 'live',
      sliceByVariant: false,
    });
    assert.equal(view.state, 'ready', view.message);
    assert.equal(view.times.length, 2 * 12, 'every window of the two hours');
    const values = view.series[0]!.values;
    assert.deepEqual([values[0], values[1], values[11], values[12], values[13]], [3, 0, 0, 2, 0]);
  });

  test('deployments made minutes apart get labels that never cover each other, and a marker with a tooltip where no label fits', async function () {
    this.timeout(180_000);
    const ui = scriptedPrompts(await activateExtension());
    try {
      // Go ahead at every question, typing the agent's name where asked, with an empty deployment message.
      ui.setAnswer((s) =>
        s.modal
          ? s.items[0]
          : s.kind === 'input'
            ? (/^Type the agent name "(.+)"/.exec(s.message)?.[1] ?? '')
            : undefined,
      );
      const made: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await vscode.commands.executeCommand<{ deployment: { id: string; version: string } } | undefined>(
          'agentWorkbench.publish',
          { agentId: AGENT },
          { deploymentMessage: '' },
        );
        assert.ok(r, 'published');
        made.push(r.deployment.version);
      }
      const now = await platformNow();
      const p = await chart({
        agentId: AGENT,
        label: 'Support Desk',
        start: new Date(now - 6 * 3_600_000).toISOString(),
        end: new Date(now + 600_000).toISOString(),
        environment: 'sandbox',
      });
      await until('the chart', () => p.view.state === 'ready' || p.view.state === 'failed', 30_000);
      assert.equal(p.view.state, 'ready', p.view.message);
      const layout = await until(
        'the labels drawn',
        () => (p.layout && p.layout.labels.length >= made.length ? p.layout : undefined),
        30_000,
      );
      const texts = layout.labels.filter((l) => !l.marker);
      assert.ok(texts.length >= 2, `several labels drawn: ${JSON.stringify(layout.labels)}`);
      for (const [i, a] of texts.entries())
        for (const b of texts.slice(i + 1))
          assert.ok(!intersect(a, b), `"${a.text}" and "${b.text}" overlap: ${JSON.stringify([a, b])}`);
      // Every deployment made is named, by a label or by a marker's tooltip.
      for (const v of made)
        assert.ok(
          layout.labels.some((l) => new RegExp(`\\bversion ${v}\\b`, 'i').test(l.text)),
          `version ${v} is named: ${layout.labels.map((l) => l.text).join(' | ')}`,
        );
    } finally {
      ui.dispose();
    }
  });

  test('in a High Contrast theme the grid lines are not the colour of any series', async function () {
    this.timeout(120_000);
    const workbench = vscode.workspace.getConfiguration('workbench');
    const before = workbench.inspect<string>('colorTheme')?.globalValue;
    const p = await chart({
      agentId: AGENT,
      label: 'Support Desk',
      preset: '24h',
      environment: 'live',
      sliceByVariant: true,
    });
    await until('the chart', () => p.view.state === 'ready', 30_000);
    try {
      for (const theme of ['Default High Contrast', 'Default High Contrast Light']) {
        await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        const layout = await until(
          'the chart drawn in High Contrast',
          () => (p.layout?.highContrast ? p.layout : undefined),
          30_000,
        );
        assert.ok(layout.series.length >= 2, 'one line per variant');
        assert.ok(layout.grid, 'the grid has a colour');
        for (const c of layout.series)
          assert.notEqual(
            c.replace(/\s/g, '').toLowerCase(),
            layout.grid.replace(/\s/g, '').toLowerCase(),
            `${theme}: a series has the grid's colour`,
          );
        assert.equal(new Set(layout.series).size, layout.series.length, `${theme}: the series differ from each other`);
        await workbench.update('colorTheme', before, vscode.ConfigurationTarget.Global);
        await until(
          'the chart drawn again out of High Contrast',
          () => (p.layout && !p.layout.highContrast ? p.layout : undefined),
          30_000,
        );
      }
    } finally {
      await workbench.update('colorTheme', before, vscode.ConfigurationTarget.Global);
    }
  });

  test('AGENT-6 where deployments cannot be listed, the concurrency is still drawn, and a deployment published here is marked', async function () {
    this.timeout(120_000);
    await admin.setResponses('spec-only');
    const ui = scriptedPrompts(await activateExtension());
    try {
      // Publish, going ahead at every question and leaving the message empty.
      ui.setAnswer((s) => (s.modal ? s.items[0] : s.kind === 'input' ? '' : undefined));
      const published = await vscode.commands.executeCommand<
        { deployment: { id: string; version: string; environment: string } } | undefined
      >('agentWorkbench.publish', { agentId: AGENT }, { deploymentMessage: '' });
      assert.ok(published, 'published');
      const now = await platformNow();
      const p = await chart({
        agentId: AGENT,
        label: 'Support Desk',
        start: new Date(now - 3_600_000).toISOString(),
        end: new Date(now + 600_000).toISOString(),
        environment: 'live',
      });
      await until('the chart', () => p.view.state === 'ready' || p.view.state === 'failed', 30_000);
      assert.equal(p.view.state, 'ready', p.view.message);
      assert.equal(p.view.series.length, 1, 'the concurrency series is shown');
      assert.match(p.view.note ?? '', /only those published, promoted or rolled back from this editor are marked/);
      assert.ok(
        p.view.deployments.some((d) => d.version === published.deployment.version && d.environment === 'sandbox'),
        `the published deployment is marked: ${JSON.stringify(p.view.deployments)}`,
      );
    } finally {
      ui.dispose();
      await admin.setResponses(mode);
    }
  });
});
