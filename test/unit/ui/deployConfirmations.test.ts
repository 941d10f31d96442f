import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainL10n } from '../../../src/ui/common/l10n';
import { typedNameProblem } from '../../../src/ui/common/typedName';
import { actorShort, actorText } from '../../../src/ui/explorer/agents/deploymentActors';
import {
  confirmationName,
  promoteConfirmation,
  publishConfirmation,
  rollbackConfirmation,
  rollbackTarget,
  testRunsText,
} from '../../../src/ui/commands/deployConfirmations';

const d = (environment: 'sandbox' | 'pre-release' | 'live') => ({
  version: '3',
  environment,
  artifactVersion: 'art-7',
});

test('publishing names main, says what sandbox serves, and never asks for the name', () => {
  const c = publishConfirmation(plainL10n, 'Support Desk', { sandboxVersion: '2' });
  assert.equal(c.question, 'Publish the main branch of Support Desk to sandbox?');
  assert.match(c.detail, /sandbox, which serves version 2 now/);
  assert.equal(c.go, 'Publish');
  assert.equal(c.alternative, undefined);
  assert.equal(c.typeName, undefined);
  assert.match(publishConfirmation(plainL10n, 'Support Desk').detail, /first version in sandbox/);
});

test('publishing from another branch says main is published and offers to merge that branch first', () => {
  const c = publishConfirmation(plainL10n, 'Support Desk', { branch: 'feature/tone', sandboxVersion: '2' });
  assert.match(c.detail, /^The platform publishes the main branch, not feature\/tone/);
  assert.equal(c.go, 'Publish main Only');
  assert.equal(c.alternative, 'Merge feature/tone into main, then Publish');
});

test('publishing warns of an empty behavior and of a main unchanged since the version sandbox serves', () => {
  const empty = publishConfirmation(plainL10n, 'Support Desk', { emptyBehavior: true });
  assert.match(empty.detail, /Warning: the behavior of main is empty/);
  assert.equal(empty.go, 'Publish Anyway');
  const same = publishConfirmation(plainL10n, 'Support Desk', { unchanged: true, sandboxVersion: '4' });
  assert.match(same.detail, /Warning: main has not changed since version 4/);
  assert.equal(same.go, 'Publish Anyway');
});

test('a promotion says what the target serves now, where the platform has shown the target', () => {
  const d4 = { version: '4', environment: 'sandbox' as const, artifactVersion: 'art_4' };
  const shown = 'pre-release';
  assert.match(
    promoteConfirmation(
      plainL10n,
      'Support Desk',
      { ...d4, version: '5', artifactVersion: 'art_5' },
      { shown, serves: d4 },
    )!.detail,
    /^pre-release serves version 4 now\. The last promotion from sandbox went to pre-release.* pre-release will serve version 5/,
  );
  assert.match(
    promoteConfirmation(plainL10n, 'Support Desk', d4, { shown, serves: d4 })!.detail,
    /^pre-release already serves version 4/,
  );
  assert.match(
    promoteConfirmation(plainL10n, 'Support Desk', d4, { shown, serves: null })!.detail,
    /^pre-release serves nothing yet/,
  );
  assert.doesNotMatch(promoteConfirmation(plainL10n, 'Support Desk', d4, { serves: null })!.detail, /serves nothing/);
});

test("who deployed is said in a person's words: which API key by its label, the same under every profile", () => {
  assert.equal(actorShort(plainL10n, 'Agents API key'), 'API key "Agents API key"');
  assert.equal(
    actorText(plainL10n, 'Agents API key'),
    'the API key "Agents API key" (a key of the workspace, not a person)',
  );
  assert.equal(actorShort(plainL10n, 'Dana Reyes'), 'Dana Reyes');
  assert.equal(actorText(plainL10n, undefined), 'someone unknown');
});

test('test runs name their ids and where their results are', () => {
  assert.equal(testRunsText(plainL10n, []), 'No test runs were started.');
  assert.match(testRunsText(plainL10n, ['tr_1']), /^It triggered test run tr_1\. .*see their results in the studio/);
  assert.match(testRunsText(plainL10n, ['tr_1', 'tr_2']), /^It triggered 2 test runs: tr_1, tr_2\./);
  // The local platform has no studio: the words point at this editor's Testing view and chat instead.
  const local = testRunsText(plainL10n, ['tr_1'], true);
  assert.match(
    local,
    /^It triggered test run tr_1\. The local platform runs no tests behind these ids: .*Testing view, or with Open Chat\.$/,
  );
  assert.doesNotMatch(local, /studio/);
});

test('AGENT-7 promoting names the target only where the platform has shown it, and asks for the name whenever it may be live', () => {
  const unshown = promoteConfirmation(plainL10n, 'Support Desk', d('sandbox'))!;
  assert.equal(unshown.question, 'Promote version 3 of Support Desk from sandbox?');
  assert.match(unshown.detail, /does not say in advance which environment this promotion reaches\. It may reach live/);
  assert.equal(unshown.go, 'Promote');
  assert.equal(unshown.typeName, 'Support Desk');
  const toPre = promoteConfirmation(plainL10n, 'Support Desk', d('sandbox'), { shown: 'pre-release' })!;
  assert.equal(toPre.question, 'Promote version 3 of Support Desk from sandbox to pre-release?');
  assert.match(toPre.detail, /pre-release will serve version 3 \(artifact art-7\)\.$/);
  assert.equal(toPre.go, 'Promote to pre-release');
  assert.equal(toPre.typeName, undefined);
  const toLive = promoteConfirmation(plainL10n, 'Support Desk', d('pre-release'), { shown: 'live' })!;
  assert.equal(toLive.go, 'Promote to live');
  assert.equal(toLive.typeName, 'Support Desk');
  assert.match(toLive.detail, /type the agent name/);
  assert.equal(promoteConfirmation(plainL10n, 'Support Desk', d('live')), undefined, 'nothing is beyond live');
  // A deployment id typed by hand: neither its environment nor its version is known.
  const typed = promoteConfirmation(plainL10n, 'Support Desk', {
    id: 'dep_9',
    version: '',
    environment: '',
    artifactVersion: '',
  })!;
  assert.equal(typed.question, 'Promote deployment dep_9 of Support Desk?');
  assert.equal(typed.typeName, 'Support Desk');
});

test('rolling back asks for the name in live, and where the environment is not shown', () => {
  const typed = rollbackConfirmation(plainL10n, 'Support Desk', { id: 'dep_9', version: '', environment: '' });
  assert.equal(typed.question, 'Roll back deployment dep_9 of Support Desk?');
  assert.equal(typed.typeName, 'Support Desk');
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('live')).typeName, 'Support Desk');
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('pre-release')).typeName, undefined);
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('live')).go, 'Roll Back');
});

test('the name must be typed exactly', () => {
  assert.equal(typedNameProblem(plainL10n, 'Support Desk', 'Support Desk'), undefined);
  assert.equal(typedNameProblem(plainL10n, 'support desk', 'Support Desk'), 'Type exactly: Support Desk');
  assert.equal(typedNameProblem(plainL10n, 'Support Desk ', 'Support Desk'), 'Type exactly: Support Desk');
});

test('AGENT-8 a rollback names its environment, the version served now, the version whose content comes back, and that it is a new deployment', () => {
  const active = {
    id: 'dep_3',
    createdAt: '2026-01-03',
    version: '3',
    artifactVersion: 'art-7',
    environment: 'live' as const,
  };
  const history = [
    active,
    { id: 'dep_1', createdAt: '2026-01-01', version: '1', artifactVersion: 'art-1' },
    { id: 'dep_2', createdAt: '2026-01-02', version: '2', artifactVersion: 'art-5' },
  ];
  const previous = rollbackTarget(active, history);
  assert.equal(previous?.id, 'dep_2');
  const asked = rollbackConfirmation(plainL10n, 'Support Desk', active, previous);
  assert.equal(asked.question, 'Roll back Support Desk in live from version 3 to the content of version 2?');
  assert.equal(
    asked.detail,
    'live serves version 3 (artifact art-7) now. ' +
      'After the rollback, live serves the content of version 2 (artifact art-5), the version it served before 3. ' +
      'The rollback is a new deployment carrying that old content: the platform answers with it, and its version is said when the rollback is done.',
  );
  assert.equal(rollbackTarget(active, [active]), undefined);
  // Without a readable history, what it serves now and that the old content comes back as a new deployment still stand.
  assert.match(
    rollbackConfirmation(plainL10n, 'Support Desk', active).detail,
    /^live serves version 3 \(artifact art-7\) now\. After the rollback, live serves the content of the deployment it served before version 3, as a new deployment/,
  );
});

test('the name typed to confirm a change to live picks out one agent, with its id where another has the same name', () => {
  const billing = { agentId: 'ag_1', name: 'Billing Bot' };
  assert.equal(confirmationName(billing, [billing, { agentId: 'ag_2', name: 'Support' }]), 'Billing Bot');
  const twin = { agentId: 'ag_3', name: 'billing bot' };
  assert.equal(confirmationName(billing, [billing, twin]), 'Billing Bot (ag_1)');
  assert.equal(
    typedNameProblem(plainL10n, 'Billing Bot', confirmationName(billing, [twin])),
    'Type exactly: Billing Bot (ag_1)',
  );
  assert.equal(typedNameProblem(plainL10n, 'Billing Bot (ag_1)', confirmationName(billing, [twin])), undefined);
});
