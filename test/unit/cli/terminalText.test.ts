// The command line's terminal output shows what the platform and the test files said, never obeys it: an escape
// sequence in a case name or a failure cannot clear the terminal, set its title, make a link or recolour the log.
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../support/commandLine';

/** A case whose name clears the screen, sets the window title and reads backwards, and whose check fails. */
function hostileSuite(): string {
  const root = mkdtempSync(join(tmpdir(), 'aw-terminal-'));
  const agent = join(root, 'support-desk');
  mkdirSync(join(agent, 'tests'), { recursive: true });
  cpSync('test/fixtures/conversationTests/support-desk/agent.json', join(agent, 'agent.json'));
  writeFileSync(
    join(agent, 'tests', 'hostile.yaml'),
    [
      'cases:',
      '  - name: "Hours \\e[2J\\e]0;owned\\a \\u202Eexe.txt \\e[31mred"',
      '    turns:',
      '      - user: What are your opening hours?',
      '        contains: "\\e]8;;https://remote.invalid\\aclick\\e]8;;\\a"',
      '',
    ].join('\n'),
  );
  return root;
}

test('the line reporter prints a case name and a failure with escape sequences and a right-to-left override as their codes, its own colours only', async () => {
  const root = hostileSuite();
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1' };
  delete env.NO_COLOR;
  delete env.GITHUB_STEP_SUMMARY;
  const run = await runCli(['test', '--local'], { cwd: root, env });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /Hours ⟦U\+001B⟧\[2J⟦U\+001B⟧\]0;owned⟦U\+0007⟧ ⟦U\+202E⟧exe\.txt ⟦U\+001B⟧\[31mred/);
  assert.match(
    run.stdout,
    /⟦U\+001B⟧\]8;;https:\/\/remote\.invalid⟦U\+0007⟧click/,
    'the failing check is shown as text',
  );
  assert.doesNotMatch(run.stdout, /\u202E|\u0007/, 'no override or bell reaches the terminal');
  // The reporter's own colours are the only escapes: SGR codes of one number each (a mark, the summary in bold).
  const escapes = run.stdout.match(/\u001b[^m]*m?/g) ?? [];
  assert.ok(escapes.length > 0, 'FORCE_COLOR colours the output');
  for (const e of escapes)
    assert.match(e, /^\u001b\[\d+m$/, `an escape the reporter did not write: ${JSON.stringify(e)}`);
});
