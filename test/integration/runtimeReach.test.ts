import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PROJECTS, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { agentNodeNamed } from '../support/editor/agentsView';
import { type LocalPlatformUrls, type WorkbenchExports, otherPlatformProfile } from '../support/editor/extension';
import type { ScriptedPrompts, Shown } from '../support/editor/prompts';
import type { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

const BELLA = DEMO_PROJECTS.restaurant;

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/**
 * Every runtime feature opened for an agent reaches that agent, as the chat does: runtime keys belong to a project
 * and a project serves one agent. The Local profile reaches every project of the local platform with that project's
 * keys; on another platform a feature opened for an agent another project serves says which agent the profile's
 * keys reach and offers that project's profile in one click. Opened from the palette, it names the agent the keys
 * reach.
 */
suite('Runtime features reach the agent they were opened for', function () {
  this.timeout(180_000);
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const open: Array<{ dispose(): void }> = [];

  const editor = editorSuite({ seed: 'demo' });
  suiteSetup(() => ({ api, urls, admin, ui } = editor));

  // A test may leave another profile active.
  setup(async () => {
    await exec('switchProfile', 'local');
    await exec('refreshAgents');
  });

  teardown(async () => {
    open.splice(0).forEach((p) => p.dispose());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await exec('switchProfile', 'local');
  });

  const agentNode = (name: string): Promise<unknown> => agentNodeNamed(api, name);

  /** The question that said the remote profile reaches Support Desk, not Bella Tavola, and offered a profile of its project. */
  function askedAboutBella(feature: RegExp): Shown {
    const question = ui.shown.find((s) => s.modal);
    assert.ok(question, `the person was told; shown: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
    assert.match(question.message, /Bella Tavola Bookings is served by project PROJECT-b7e11a7a/);
    assert.match(question.message, /which serves Support Desk/);
    assert.match(question.message, feature);
    assert.deepEqual(question.items, ['Add Profile for Project PROJECT-b7e11a7a']);
    return question;
  }

  /** Paths the runtime base was asked since `since`. */
  const runtimePaths = async (since: number, path: string) =>
    (await admin.requests({ base: 'runtime', path, since })).map((r) => r.path);
  const lastSeq = () => admin.lastRequestSeq();

  test("Open Conversations on Bella Tavola Bookings under the Local profile asks nothing and lists Bella Tavola's conversations, not Support Desk's", async () => {
    const since = await lastSeq();
    const list = await exec<{ dispose(): void; status(): { loading: boolean } } | undefined>(
      'openConversations',
      await agentNode('Bella Tavola Bookings'),
    );
    assert.ok(list, `the list opened; shown: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
    open.push(list);
    assert.deepEqual(
      ui.shown.map((s) => s.message),
      [],
      'nothing asked',
    );
    assert.equal(api.testing!.conversationTests().connection.profiles.active?.id, 'local', 'the Local profile kept');
    // The Agents view may read the Local profile's own conversations meanwhile: the list's read is Bella Tavola's.
    await until("the list read from Bella Tavola's project", async () =>
      (await runtimePaths(since, '/conversations')).some(
        (p) => p.includes(`/${BELLA.projectId}/`) || p.includes(`/${BELLA.projectPrefixedId}/`),
      ),
    );
  });

  test("on another platform, Open Conversations, the chart, Replay, a test call and a number reservation for an agent another project serves are offered that project's profile; declined, they send nothing", async () => {
    const { connection } = api.testing!.conversationTests();
    // Another platform as the editor sees it: a saved profile of the support desk's project (the keys its own).
    const id = 'remote-desk-reach';
    await connection.profiles.save(otherPlatformProfile(urls, id, 'Remote desk', LOCAL_PROJECT.id));
    try {
      await connection.vault.set(id, 'agentsApiKey', LOCAL_KEYS.agents);
      await exec('switchProfile', id);
      await exec('refreshAgents');
      const since = await lastSeq();
      const node = await agentNode('Bella Tavola Bookings');
      const features: Array<[string, unknown, RegExp]> = [
        ['openConversations', node, /Conversations would reach/],
        ['openConcurrencyChart', node, /The chart would reach/],
        [
          'replayConversation',
          { conversationId: 'conv_x', agentId: BELLA.agentId, variantId: '' },
          /Replay would reach/,
        ],
        ['placeTestCall', node, /A test call would reach/],
        ['reserveNumber', { agentId: BELLA.agentId }, /A number would reach/],
      ];
      for (const [command, arg, feature] of features) {
        ui.shown.length = 0;
        assert.equal(await exec(command, arg), undefined, `${command} opened nothing`);
        askedAboutBella(feature);
        assert.equal(
          ui.shown.filter((s) => s.kind === 'input' || s.kind === 'pick').length,
          0,
          `${command} asked nothing more`,
        );
      }
      const sent = (await admin.requests({ since })).filter((r) => r.base === 'runtime' || r.base === 'messaging');
      assert.deepEqual(
        sent.map((r) => r.path),
        [],
        'nothing reached the runtime',
      );
    } finally {
      await exec('switchProfile', 'local');
      await connection.profiles.remove(id);
    }
  });

  test('the chart for Support Desk asks nothing; a test call and a reservation from the palette name the agent they reach', async () => {
    const chart = await exec<{ dispose(): void } | undefined>('openConcurrencyChart', await agentNode('Support Desk'));
    assert.ok(chart);
    open.push(chart);
    assert.equal(ui.shown.filter((s) => s.modal).length, 0, 'no question: the profile reaches Support Desk');

    ui.setAnswer(() => undefined);
    await exec('placeTestCall');
    const number = ui.shown.find((s) => s.kind === 'input');
    assert.equal(number?.detail, 'Place Test Call: Support Desk calls', 'the title names the agent that calls');
    ui.shown.length = 0;
    await exec('reserveNumber');
    assert.equal(
      ui.shown.find((s) => s.kind === 'input')?.detail,
      'Reserve Phone Number for Support Desk',
      'the title names the agent the number routes to',
    );
  });
  test("publishing Bella Tavola Bookings from its project's profile of the local platform: the report points at this editor's checks, not a studio", async () => {
    // Reached as a person reaches it: a runtime feature opened for Bella Tavola offers its project in one click.
    ui.setAnswer((s) =>
      s.modal ? (s.items.find((i) => /^(Add|Use) Profile/.test(i)) ?? s.items[0]) : s.kind === 'input' ? '' : undefined,
    );
    const list = await exec<{ dispose(): void } | undefined>(
      'openConversations',
      await agentNode('Bella Tavola Bookings'),
    );
    if (list) open.push(list);
    ui.shown.length = 0;
    const published = await exec<{ testRunIds: string[] } | undefined>(
      'publish',
      { agentId: BELLA.agentId },
      { deploymentMessage: '' },
    );
    assert.ok(published, ui.lastError());
    const report = await until('the publish report', () =>
      ui.shown.find((s) => /^Published main: Bella Tavola Bookings now serves/.test(s.message)),
    );
    if (published.testRunIds.length > 0)
      assert.match(report.message, /The local platform runs no tests behind these ids/);
    assert.doesNotMatch(report.message, /studio/);
  });
});
