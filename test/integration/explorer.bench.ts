import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { call } from '../support/http';
import { activateExtension, type LocalPlatformUrls, recordMetric } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { median } from '../support/median';

const AGENTS = 1000;

/** How fast the Agents view resolves with 1,000 agents on the local platform, as VS Code asks for it. */
suite('Explorer figures', () => {
  test('Agents root and agent expansion with 1,000 agents', async () => {
    const api = await activateExtension();
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await new LocalAdmin(urls.admin).reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    for (let i = 1; i < AGENTS; i++) {
      const res = await call('POST', `${urls.build}/v1/agents`, {
        headers: { 'x-api-key': LOCAL_KEYS.agents },
        body: { name: `Agent ${String(i).padStart(4, '0')}`, description: 'Benchmark agent' },
      });
      assert.equal(res.status, 201);
    }
    const provider = api.agentsView;
    const rootTimes: number[] = [];
    let roots: unknown[] = [];
    for (let run = 0; run < 7; run++) {
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
      const started = performance.now();
      roots = (await provider.getChildren()) ?? [];
      await Promise.all(roots.map((n) => provider.getTreeItem(n)));
      rootTimes.push(performance.now() - started);
    }
    assert.equal(roots.length, AGENTS);
    const expandTimes: number[] = [];
    for (let run = 0; run < 15; run++) {
      const node = roots[(run * 37) % roots.length];
      // Forget what is known of the agent (its model and its node), so the branches are read from the platform.
      await vscode.commands.executeCommand('agentWorkbench.refreshNode', node);
      const started = performance.now();
      const children = (await provider.getChildren(node)) ?? [];
      await Promise.all(children.map((c) => provider.getTreeItem(c)));
      expandTimes.push(performance.now() - started);
      assert.ok(children.length >= 4);
    }
    recordMetric('agentsRootMs', median(rootTimes));
    recordMetric('agentExpandMs', median(expandTimes));
  });
});
