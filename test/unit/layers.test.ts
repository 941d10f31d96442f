// The layer rules of .dependency-cruiser.cjs report what they forbid: each file of test/fixtures/layers
// breaks one rule on purpose (the same rules `npm run lint` applies to src/ and webview/).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

const FIXTURES = 'test/fixtures/layers';

let cached: Array<[rule: string, from: string, to: string]> | undefined;

function violations(): Array<[rule: string, from: string, to: string]> {
  if (cached) return cached;
  const out = execFileSync(
    process.execPath,
    [
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      FIXTURES,
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const report = JSON.parse(out) as { summary: { violations: Violation[] } };
  cached = report.summary.violations.map((v) => [
    v.rule.name,
    v.from.slice(FIXTURES.length + 1),
    v.to.startsWith(FIXTURES) ? v.to.slice(FIXTURES.length + 1) : v.to,
  ]);
  return cached;
}

/** Asserts that the fixtures' cruise reports `rule` for the import of `to` by `from`. */
function has(rule: string, from: string, to: string): void {
  assert.ok(
    violations().some(([r, f, t]) => r === rule && f === from && t === to),
    `${rule}: ${from} → ${to} not reported`,
  );
}

test('every layer rule reports the import that breaks it, vscode also when reached through other modules', () => {
  has('core-imports-nothing', 'src/core/usesUi.ts', 'src/ui/view.ts');
  has('contract-only-core', 'src/contract/usesClient.ts', 'src/client/usesWorkspace.ts');
  has('client-not-above', 'src/client/usesWorkspace.ts', 'src/workspace/usesUi.ts');
  has('workspace-not-above', 'src/workspace/usesUi.ts', 'src/ui/view.ts');
  has('localPlatform-beside-client', 'src/localPlatform/usesClient.ts', 'src/client/reachesEditor.ts');
  has('protocol-types-only', 'src/protocol/message.ts', 'src/core/usesUi.ts');
  has('protocol-beside-contract', 'src/protocol/usesLocalPlatform.ts', 'src/localPlatform/usesClient.ts');
  has('webview-only-protocol', 'webview/app.ts', 'src/client/usesWorkspace.ts');
  has('cli-headless', 'src/cli/usesUi.ts', 'src/ui/view.ts');
  has('lint-below-ui', 'src/lint/usesClient.ts', 'src/client/reachesEditor.ts');
  has('nothing-imports-cli', 'src/client/usesCli.ts', 'src/cli/usesUi.ts');
  has('agentTests-headless', 'src/agentTests/usesLocalPlatform.ts', 'src/localPlatform/usesClient.ts');
  has('agentTests-above-client', 'src/client/usesAgentTests.ts', 'src/agentTests/usesLocalPlatform.ts');
  has('assistantTools-headless', 'src/assistantTools/usesLocalPlatform.ts', 'src/localPlatform/usesClient.ts');
  has('assistantTools-above-engines', 'src/lint/usesAssistantTools.ts', 'src/assistantTools/usesLocalPlatform.ts');
  has('vscode-only-in-ui', 'src/core/opensEditor.ts', 'vscode');
  // client may import core; it is the core module it uses that brings 'vscode' in.
  has('vscode-only-in-ui', 'src/client/reachesEditor.ts', 'vscode');
  // A type import is an import: workspace names a type of src/ui, and so reaches 'vscode'.
  has('vscode-only-in-ui', 'src/workspace/usesUi.ts', 'vscode');
  // A cycle, even of type imports only.
  has('no-circular', 'src/core/cycleA.ts', 'src/core/cycleB.ts');
});

test('inside src/ui, the base folders are below the feature folders and a feature folder imports another only along a written edge', () => {
  has('ui-root-below-folders', 'src/ui/names.ts', 'src/ui/common/usesModel.ts');
  has('ui-common-below-features', 'src/ui/common/usesModel.ts', 'src/ui/model/usesConnection.ts');
  has('ui-model-below-features', 'src/ui/model/usesConnection.ts', 'src/ui/connection/usesExplorer.ts');
  has('ui-connection-below-features', 'src/ui/connection/usesExplorer.ts', 'src/ui/explorer/node.ts');
  has('ui-explorer-apart', 'src/ui/explorer/usesCommands.ts', 'src/ui/commands/takesNode.ts');
  has('ui-commands-apart', 'src/ui/commands/usesFiles.ts', 'src/ui/files/usesPanels.ts');
  has('ui-files-apart', 'src/ui/files/usesPanels.ts', 'src/ui/panels/chat/namesTool.ts');
  has('ui-panels-apart', 'src/ui/panels/replay/usesChat.ts', 'src/ui/commands/takesNode.ts');
  has('ui-runtimeTools-apart', 'src/ui/runtimeTools/usesLocalPlatform.ts', 'src/ui/localPlatform/usesExplorer.ts');
  has('ui-localPlatform-apart', 'src/ui/localPlatform/usesExplorer.ts', 'src/ui/explorer/node.ts');
  has('ui-testing-apart', 'src/ui/testing/usesPanels.ts', 'src/ui/panels/host.ts');
  has('ui-assistant-apart', 'src/ui/assistant/usesTesting.ts', 'src/ui/testing/usesPanels.ts');
  // The one narrow edge: the chat panel may name a runtime tool's types, nothing more, and no other panel may.
  has('ui-panels-chat-runtimeTools-types-only', 'src/ui/panels/chat/usesTool.ts', 'src/ui/runtimeTools/tool.ts');
  has('ui-runtimeTools-only-from-panels-chat', 'src/ui/panels/replay/usesTool.ts', 'src/ui/runtimeTools/tool.ts');
  has('ui-each-panel-apart', 'src/ui/panels/replay/usesChat.ts', 'src/ui/panels/chat/namesTool.ts');
  has('ui-panel-host-below-panels', 'src/ui/panels/host.ts', 'src/ui/panels/replay/usesTool.ts');
  // The agents family is read and written through the model: its client, even as a type, and the model's door to it.
  has('ui-clients-through-model', 'src/ui/commands/publishes.ts', 'src/client/agents.ts');
  has('ui-clients-through-model', 'src/ui/commands/publishes.ts', 'src/ui/model/agentsClientOf.ts');
});

test('outside src/ui/model, nothing of src/ui imports the Alerts API client: its writes and reads go through the alerts model', () => {
  has('ui-alerts-writes-in-model', 'src/ui/commands/writesAlerts.ts', 'src/client/alerts.ts');
  assert.ok(
    !violations().some(([, from]) => from === 'src/ui/model/alertsWrites.ts'),
    'the alerts model may use the client',
  );
});

test('what the rules allow is not reported', () => {
  const found = violations();
  assert.ok(!found.some(([, from]) => from === 'src/ui/view.ts'), 'src/ui may import vscode');
  assert.ok(
    !found.some(([, from, to]) => from === 'webview/app.ts' && to === 'src/protocol/message.ts'),
    'webview may use src/protocol',
  );
  assert.ok(
    !found.some(([rule, from]) => rule !== 'vscode-only-in-ui' && from === 'src/client/reachesEditor.ts'),
    'client may import core',
  );
  assert.ok(!found.some(([, from]) => from === 'src/ui/commands/takesNode.ts'), 'commands may import explorer');
  assert.ok(
    !found.some(([, from]) => from === 'src/ui/panels/chat/namesTool.ts'),
    'the chat panel may import types of a runtime tool',
  );
  assert.ok(!found.some(([, from]) => from === 'src/ui/explorer/node.ts'), 'a module that imports nothing is fine');
  assert.ok(
    !found.some(([, from]) => from === 'src/ui/model/agentsClientOf.ts'),
    'the model reaches the agents client',
  );
});
