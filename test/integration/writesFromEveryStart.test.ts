// One publish, one promote and one branch creation, started from a command, from an assistant tool and from the
// Testing view, against a platform that has only the spec's endpoints (the local platform's spec-only mode, whatever
// mode the run set): each is made once by the agents model, so each shows in the Agents view where nothing can be
// listed, from the deployment kept, and a branch whose answer carries no id is answered the same way everywhere.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import {
  activateExtension,
  child,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { TOOL_PREFIX, ToolSession } from '../support/editor/languageModelTools';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

type ActionResult = { deployment: { id: string; environment: string; version: string } } | undefined;
const AGENT = 'ag_support';
const tool = (short: string) => `${TOOL_PREFIX}${short}`;

suite(
  'AGENT-2 AGENT-6 AGENT-7 publish, promote and branch creation from a command, an assistant tool and the Testing view are one write, shown in the Agents view and kept',
  function () {
    this.timeout(240_000);
    let api: WorkbenchExports;
    let admin: LocalAdmin;
    let ui: ScriptedPrompts;
    let tools: ToolSession;
    let modeBefore: ResponsesMode;
    const folders: string[] = [];
    const sent = async (method: string, path: RegExp) =>
      (await admin.requests({ base: 'build' })).filter((r) => r.method === method && path.test(r.path)).length;
    /** What the Agents view shows of an environment of the agent: its description (`v3 · …` when it serves one). */
    const shownIn = async (environment: string): Promise<string> => {
      const agents = await treeItems(api.agentsView);
      const agent = agents.find((i) => i.item.id === `agent/${AGENT}`);
      assert.ok(agent, `the Agents view shows ${AGENT}: ${JSON.stringify(agents.map((a) => a.label))}`);
      const deployments = await child(api.agentsView, agent.node, 'Deployments');
      const env = (await treeItems(api.agentsView, deployments.node)).find((e) => e.label === environment);
      return env?.description ?? '';
    };
    /** Every question goes ahead: the first button (a promotion past tagged tests other suites left), the name typed. */
    const goAhead = () =>
      ui.setAnswer((s) =>
        s.modal
          ? s.items.includes('Promote Without Testing')
            ? 'Promote Without Testing'
            : s.items.includes('Continue on Live')
              ? 'Continue on Live'
              : s.items[0]
          : s.kind === 'input'
            ? (/^Type the agent name "([^"]+)"/.exec(s.message)?.[1] ?? '')
            : undefined,
      );

    suiteSetup(async () => {
      api = await activateExtension();
      const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
      admin = new LocalAdmin(urls.admin);
      modeBefore = (await admin.responses()).mode;
      await admin.setResponses('spec-only');
      await admin.reset();
      // The platform's data is made afresh: deployments kept by earlier suites name what is gone.
      await api.testing!.forgetKeptDeployments('local');
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      ui = scriptedPrompts(api);
      tools = new ToolSession(api);
      // Agents are not listed: the agent is added by its id, as a person would.
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.addAgentById', AGENT), AGENT, ui.lastError());
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    });

    suiteTeardown(async () => {
      ui.dispose();
      for (const folder of folders) await rm(folder, { recursive: true, force: true });
      await admin.setResponses(modeBefore);
      await admin.reset();
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    });

    setup(() => {
      ui.shown.length = 0;
      goAhead();
    });

    test('from a command: Publish and Promote show in the Agents view from the deployments kept; Create Branch answers without an id', async () => {
      const publishes = await sent('POST', /\/deployments\/publish$/);
      const published = await vscode.commands.executeCommand<ActionResult>(
        'agentWorkbench.publish',
        { agentId: AGENT },
        { deploymentMessage: '' },
      );
      assert.equal(published?.deployment.environment, 'sandbox', ui.lastError());
      assert.equal((await sent('POST', /\/deployments\/publish$/)) - publishes, 1, 'sent once');
      assert.match(await shownIn('sandbox'), new RegExp(`^v${published.deployment.version} · `));

      const promoted = await vscode.commands.executeCommand<ActionResult>(
        'agentWorkbench.promote',
        { agentId: AGENT, deploymentId: published.deployment.id },
        { deploymentMessage: '' },
      );
      assert.equal(promoted?.deployment.environment, 'pre-release', ui.lastError());
      assert.match(await shownIn('pre-release'), new RegExp(`^v${promoted.deployment.version} · `));

      const branches = await sent('POST', /\/branches$/);
      const branch = await vscode.commands.executeCommand<{ name: string; branchId?: string }>(
        'agentWorkbench.createBranch',
        { agentId: AGENT },
        'from-a-command',
      );
      assert.equal(branch?.name, 'from-a-command', ui.lastError());
      assert.equal(branch.branchId, undefined, 'the spec-only answer carries no id, and none is made up');
      assert.equal((await sent('POST', /\/branches$/)) - branches, 1);
      assert.ok(ui.shown.some((s) => s.kind === 'info' && /did not say its id/.test(s.message)));
    });

    test('from an assistant tool: publishToSandbox and promote show in the Agents view as the commands do; createBranch answers the same', async () => {
      const published = await tools.invoke(tool('publishToSandbox'), { agentId: AGENT });
      const version = /version (\d+)/.exec(published)?.[1];
      const deploymentId = /deployment (\S+), version/.exec(published)?.[1];
      assert.ok(version && deploymentId, published);
      assert.match(await shownIn('sandbox'), new RegExp(`^v${version} · `), 'the view shows what the tool published');

      const promoted = await tools.invoke(tool('promote'), { agentId: AGENT, deploymentId });
      assert.match(promoted, /now in pre-release/);
      const promotedVersion = /version (\d+)/.exec(promoted)?.[1];
      assert.ok(promotedVersion, promoted);
      assert.match(await shownIn('pre-release'), new RegExp(`^v${promotedVersion} · `));

      const branches = await sent('POST', /\/branches$/);
      const made = await tools.invoke(tool('createBranch'), { agentId: AGENT, name: 'from-a-tool' });
      assert.match(
        made,
        /Created branch from-a-tool of agent ag_support; the platform's answer did not carry its id\./,
      );
      assert.equal((await sent('POST', /\/branches$/)) - branches, 1);
    });

    test("from the Testing view: Push and Publish publishes through the model, so the Agents view shows the run's deployment, kept", async () => {
      const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      const folder = join(root, `every-start-${randomBytes(4).toString('hex')}`);
      folders.push(folder);
      // Checked out and pushed while the platform answers in full: spec-only cannot read a branch to push it.
      await admin.setResponses('full');
      try {
        assert.equal(
          await vscode.commands.executeCommand('agentWorkbench.checkOut', {
            agentId: AGENT,
            branchId: 'br_support_main',
            folder,
          }),
          folder,
          ui.lastError(),
        );
        const behavior = vscode.Uri.file(join(folder, 'behavior.md'));
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(behavior));
        await vscode.workspace.fs.writeFile(
          behavior,
          new TextEncoder().encode(`${text.trimEnd()}\nSay hello first.\n`),
        );
        const testFile = vscode.Uri.file(join(folder, 'tests', 'hello.yaml'));
        await vscode.workspace.fs.writeFile(
          testFile,
          new TextEncoder().encode('cases:\n  - name: Says hello\n    turns:\n      - contains: ""\n'),
        );
        await vscode.workspace.openTextDocument(testFile);
        ui.setAnswer((s) =>
          s.modal && /publish to the local sandbox/.test(s.message) ? 'Push and Publish' : undefined,
        );
        const tests = api.testing!.conversationTests();
        await tests.discover();
        const item = await until(
          'the case in the Testing view',
          () => {
            let found: vscode.TestItem | undefined;
            tests.controller.items.get(testFile.toString())?.children.forEach((c) => {
              if (c.label === 'Says hello') found = c;
            });
            return found;
          },
          { timeoutMs: 90_000 },
        );
        const profile = tests.runProfiles[0]!;
        await profile.runHandler(
          new vscode.TestRunRequest([item], undefined, profile),
          new vscode.CancellationTokenSource().token,
        );
        const output = tests.runs.at(-1)!.output;
        const version = /Published Support Desk to the local sandbox \(version (\d+)\)/.exec(output)?.[1];
        assert.ok(version, output);
        // Back to spec-only: nothing can be listed, and the view shows the deployment the run kept.
        await admin.setResponses('spec-only');
        await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
        assert.match(await shownIn('sandbox'), new RegExp(`^v${version} · `));
      } finally {
        await admin.setResponses('spec-only');
      }
    });
  },
);
