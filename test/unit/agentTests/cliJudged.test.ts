// `node dist/cli.js test` with judged criteria: recorded against the scripted model server, then replayed from the
// cassettes with the server stopped: the same results, and no model called.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { addLabel } from '../../../src/agentTests/model/labels';
import { nodeTextFiles } from '../../../src/agentTests/model/textFiles';
import { runCli } from '../../support/commandLine';
import { startScriptedModel } from '../../support/scriptedModel';

const KEY = 'sk-scripted-key-that-must-not-leak';
const cli = (args: string[], env: NodeJS.ProcessEnv) => runCli(args, { env });

const FILE = `agent: ag_support
cases:
  - name: Hours
    turns:
      - user: What are your opening hours?
        contains: Monday
        expect: gives the opening hours
  - name: Polite
    criteria: offers a discount
    turns:
      - user: What are your opening hours?
        expect: gives the opening hours
`;

/** The output without what differs from run to run: timings. */
const steady = (out: string) =>
  out
    .replace(/ \d+ ms/g, ' N ms')
    .split('\n')
    .filter((l) => !/model call/.test(l))
    .join('\n');

test('recorded against the model server, then replayed with the server stopped: the same results and no model called', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aw-judged-'));
  mkdirSync(join(dir, 'tests'));
  const file = join(dir, 'tests', 'judged.yaml');
  writeFileSync(file, FILE);
  const model = await startScriptedModel({
    key: KEY,
    answer: (r) =>
      JSON.stringify(
        r.text.includes('offers a discount')
          ? { verdict: 'fail', reason: 'no discount is offered', quotes: [] }
          : { verdict: 'pass', reason: 'it gives the hours', quotes: [] },
      ),
  });
  const env = { ...process.env, AGENT_WORKBENCH_MODEL_KEY: KEY };
  const flags = ['--local', '--model-base-url', model.baseUrl, '--model', 'scripted-model'];
  const junit = join(dir, 'record.xml');
  const recorded = await cli(['test', file, ...flags, '--cassette', 'record', '--junit', junit], env);
  await model.close();
  const calls = model.calls();
  assert.equal(recorded.code, 1, recorded.stdout + recorded.stderr);
  assert.ok(calls >= 3, `the model was called ${calls} times`);
  assert.match(recorded.stdout, /✔ .*Hours/);
  assert.match(
    recorded.stdout,
    /✖ .*Polite.*criterion "offers a discount" \(line 9\): judged not to hold: no discount is offered/,
  );
  assert.match(recorded.stdout, new RegExp(`1 passed, 1 failed, ${calls} model calls`));

  const replayed = await cli(['test', file, ...flags, '--junit', join(dir, 'replay.xml')], env);
  assert.equal(replayed.code, 1, replayed.stdout + replayed.stderr);
  assert.equal(steady(replayed.stdout), steady(recorded.stdout));
  assert.match(replayed.stdout, new RegExp(`1 passed, 1 failed, 0 model calls, ${calls} replayed`));
  assert.match(readFileSync(join(dir, 'replay.xml'), 'utf8'), /<property name="model.calls" value="0"\/>/);

  // The key is nowhere: not in the output, the JUnit, or the cassettes beside the test file.
  const written = readdirSync(join(dir, 'tests')).map((f) => readFileSync(join(dir, 'tests', f), 'utf8'));
  for (const text of [recorded.stdout, recorded.stderr, replayed.stdout, readFileSync(junit, 'utf8'), ...written])
    assert.ok(!text.includes(KEY));
  assert.ok(written.length > 1, 'a cassette is written beside the test file');

  // A person said the judge was wrong on "offers a discount" (as the editor's The Judge Was Wrong writes it): the
  // next run says so of that criterion, advisory below the agreement threshold, and leaves the others unmarked.
  await addLabel(nodeTextFiles, file, {
    caseName: 'Polite',
    criterion: 'offers a discount',
    verdict: 'fail',
    label: 'wrong',
    conversationId: 'conv_1',
  });
  const labelled = await cli(['test', file, ...flags], env);
  assert.match(
    labelled.stdout,
    /✖ criterion "offers a discount" \(line 9\): fail: no discount is offered \(advisory: 1 label, the judge agreed 0%\)/,
  );
  assert.doesNotMatch(labelled.stdout, /"gives the opening hours".*label/);
  const lenient = await cli(['test', file, ...flags, '--agreement-threshold', '0'], env);
  assert.match(lenient.stdout, /fail: no discount is offered \(1 label, the judge agreed 0%\)/);
});

test('with no model flags, judged criteria are skipped with how to set a model, and nothing judged passes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aw-judged-'));
  mkdirSync(join(dir, 'tests'));
  const file = join(dir, 'tests', 'judged.yaml');
  writeFileSync(file, FILE);
  const run = await cli(['test', file, '--local'], process.env);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /- .*Hours: skipped, the scripted checks held, but the criterion "gives the opening hours" was not judged: no model is set: give --model-base-url and --model/,
  );
  assert.match(run.stdout, /- .*Polite: skipped, every check is judged: no model is set/);
  assert.match(run.stdout, /0 passed, 0 failed, 2 skipped\n$/);
});

test('a wrong model flag is a usage error', async () => {
  const only = await cli(['test', '--local', '--model', 'm'], process.env);
  assert.equal(only.code, 2);
  assert.match(only.stderr, /Give both --model-base-url and --model/);
  const mode = await cli(['test', '--local', '--cassette', 'sometimes'], process.env);
  assert.equal(mode.code, 2);
  assert.match(mode.stderr, /--cassette must be one of replay, record, live/);
});
