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

test('every layer rule reports the import that breaks it, vscode also when reached through other modules', () => {
  const found = violations();
  const has = (rule: string, from: string, to: string): void =>
    assert.ok(
      found.some(([r, f, t]) => r === rule && f === from && t === to),
      `${rule}: ${from} → ${to} not reported`,
    );
  has('core-imports-nothing', 'src/core/usesUi.ts', 'src/ui/view.ts');
  has('contract-only-core', 'src/contract/usesClient.ts', 'src/client/usesWorkspace.ts');
  has('client-not-above', 'src/client/usesWorkspace.ts', 'src/workspace/usesUi.ts');
  has('workspace-not-above', 'src/workspace/usesUi.ts', 'src/ui/view.ts');
  has('localPlatform-beside-client', 'src/localPlatform/usesClient.ts', 'src/client/reachesEditor.ts');
  has('protocol-types-only', 'src/protocol/message.ts', 'src/core/usesUi.ts');
  has('protocol-beside-contract', 'src/protocol/usesLocalPlatform.ts', 'src/localPlatform/usesClient.ts');
  has('webview-only-protocol', 'webview/app.ts', 'src/client/usesWorkspace.ts');
  has('vscode-only-in-ui', 'src/core/opensEditor.ts', 'vscode');
  // client may import core; it is the core module it uses that brings 'vscode' in.
  has('vscode-only-in-ui', 'src/client/reachesEditor.ts', 'vscode');
  // A type import is an import: workspace names a type of src/ui, and so reaches 'vscode'.
  has('vscode-only-in-ui', 'src/workspace/usesUi.ts', 'vscode');
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
});
