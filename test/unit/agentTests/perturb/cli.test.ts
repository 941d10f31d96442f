// `agent-workbench test` with `perturb:`: the words sent and each run's seed in the line report and the JSON report.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CaseRecord } from '../../../../src/cli/reporters/records';
import { runCli } from '../../../support/commandLine';

test('on the command line a failing perturbed case says the words sent and the seed; --repeat takes the next seeds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aw-perturb-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(
    join(dir, 'tests', 'voice.yaml'),
    `cases:
  - name: Voice-shaped return
    perturb: { seed: 7, kinds: { numbers: 1, punctuation: 1 } }
    turns:
      - user: Can I return an item after 30 days?
        contains: a text the agent never says
`,
  );
  const line = await runCli(['test', dir, '--local'], { env: process.env });
  assert.equal(line.code, 1, line.stderr);
  assert.match(
    line.stdout,
    /turn 1 \(line 5\): .*\[sent "can i return an item after thirty days" for "Can I return an item after 30 days\?", perturb seed 7\]/,
  );
  const json = await runCli(['test', dir, '--local', '--repeat', '2', '--reporter', 'json'], { env: process.env });
  const record = json.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string })
    .find((r): r is CaseRecord => r.type === 'case');
  assert.deepEqual(
    record?.runs.map((r) => [r.perturbSeed, r.perturbed?.[0]?.seed, r.perturbed?.[0]?.sent]),
    [
      [7, 7, 'can i return an item after thirty days'],
      [8, 8, 'can i return an item after thirty days'],
    ],
  );
});
