// Record checks on the command line: JUnit shows each record check as a test case of its own, and against a profile
// the Conversations key comes only from AGENT_WORKBENCH_CONVERSATIONS_API_KEY.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
} from '../../../src/localPlatform/seed/credentials';
import { runCli } from '../../support/commandLine';
import { useLocalPlatform } from '../../support/localPlatform';

const xml2js = createRequire(__filename)('xml2js') as { parseStringPromise(text: string): Promise<unknown> };

interface JUnitCase {
  $: { name: string };
  failure?: Array<{ $: { message: string } }>;
  skipped?: Array<{ $: { message: string } }>;
}
interface JUnit {
  testsuites: { $: { tests: string; failures: string; skipped: string }; testsuite: Array<{ testcase: JUnitCase[] }> };
}

const local = useLocalPlatform();

const BOOKING = `cases:
  - name: Booking is made
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
        entities: { party_size: "4" }
    state:
      booking_confirmed: true
      booking_reference: { matches: "^BT-" }
      booking_name: { exists: true }
`;

function testDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aw-records-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'tests', 'booking.yaml'), BOOKING);
  return dir;
}

test('JUnit has one test case per record check, a failed one with its message, and the case line says why', async () => {
  const dir = testDir();
  const junit = join(dir, 'results.xml');
  const run = await runCli(['test', dir, '--local', '--junit', junit]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /✖ .*Booking is made.*record state\.booking_name \(line 10\): The record's state has no key booking_name; it has .*booking_reference/,
  );
  assert.match(run.stdout, /✔ record state\.booking_reference \(line 9\): "BT-/);
  const report = (await xml2js.parseStringPromise(readFileSync(junit, 'utf8'))) as JUnit;
  const cases = report.testsuites.testsuite.flatMap((s) => s.testcase);
  assert.deepEqual(
    cases.map((c) => [c.$.name, c.failure ? 'failure' : c.skipped ? 'skipped' : 'passed']),
    [
      ['Booking is made', 'failure'],
      ['Booking is made › record state.booking_confirmed (line 8)', 'passed'],
      ['Booking is made › record state.booking_reference (line 9)', 'passed'],
      ['Booking is made › record state.booking_name (line 10)', 'failure'],
      ['Booking is made › record turn 1 intents (line 4)', 'passed'],
      ['Booking is made › record turn 1 entities (line 4)', 'passed'],
    ],
  );
});

test('against a profile, record checks read the key of AGENT_WORKBENCH_CONVERSATIONS_API_KEY; without it they are not checked, never passed', async () => {
  const dir = testDir();
  writeFileSync(join(dir, 'tests', 'booking.yaml'), BOOKING.replace(/\n {6}booking_name: \{ exists: true \}/, ''));
  const profile = join(dir, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({ accountId: LOCAL_ACCOUNT.slug, projectId: LOCAL_PROJECT.slug, runtimeUrl: local.lp.urls.runtime }),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AGENT_WORKBENCH_CHAT_API_KEY: LOCAL_KEYS.chat,
    AGENT_WORKBENCH_CHAT_TOKEN: LOCAL_CONNECTORS.chatToken,
  };
  delete env.AGENT_WORKBENCH_CONVERSATIONS_API_KEY;
  const args = ['test', dir, '--profile-file', profile, '--environment', 'sandbox', '--record-wait', '2'];
  const without = await runCli(args, { env });
  assert.equal(without.code, 0, without.stdout + without.stderr);
  assert.match(
    without.stdout,
    /- .*Booking is made: skipped, the scripted checks held, but 4 record checks .* were not checked: no Conversations API key is set: set AGENT_WORKBENCH_CONVERSATIONS_API_KEY/,
  );
  const withKey = await runCli(args, {
    env: { ...env, AGENT_WORKBENCH_CONVERSATIONS_API_KEY: LOCAL_KEYS.conversations },
  });
  assert.equal(withKey.code, 0, withKey.stdout + withKey.stderr);
  assert.match(withKey.stdout, /✔ .*Booking is made/);
  assert.doesNotMatch(
    withKey.stdout + withKey.stderr,
    new RegExp(LOCAL_KEYS.conversations),
    'the key is never printed',
  );
});
