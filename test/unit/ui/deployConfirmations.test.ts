import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainL10n } from '../../../src/ui/common/l10n';
import {
  promoteConfirmation,
  publishConfirmation,
  rollbackConfirmation,
  rollbackTarget,
  typedNameProblem,
} from '../../../src/ui/commands/deployConfirmations';

const d = (environment: 'sandbox' | 'pre-release' | 'live') => ({
  version: '3',
  environment,
  artifactVersion: 'art-7',
});

test('publishing asks with its own button and never asks for the name', () => {
  const c = publishConfirmation(plainL10n, 'Support Desk');
  assert.equal(c.question, 'Publish the draft of Support Desk to sandbox?');
  assert.equal(c.go, 'Publish');
  assert.equal(c.typeName, undefined);
});

test('promoting names where the version goes; only a promotion to live asks for the name', () => {
  const toPre = promoteConfirmation(plainL10n, 'Support Desk', d('sandbox'))!;
  assert.equal(toPre.question, 'Promote version 3 of Support Desk from sandbox to pre-release?');
  assert.equal(toPre.detail, 'pre-release will serve version 3 (artifact art-7).');
  assert.equal(toPre.go, 'Promote to pre-release');
  assert.equal(toPre.typeName, undefined);
  const toLive = promoteConfirmation(plainL10n, 'Support Desk', d('pre-release'))!;
  assert.equal(toLive.go, 'Promote to live');
  assert.equal(toLive.typeName, 'Support Desk');
  assert.match(toLive.detail, /type the agent name/);
  assert.equal(promoteConfirmation(plainL10n, 'Support Desk', d('live')), undefined, 'nothing is beyond live');
});

test('rolling back asks for the name only in live', () => {
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('live')).typeName, 'Support Desk');
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('pre-release')).typeName, undefined);
  assert.equal(rollbackConfirmation(plainL10n, 'Support Desk', d('live')).go, 'Roll Back');
});

test('the name must be typed exactly', () => {
  assert.equal(typedNameProblem(plainL10n, 'Support Desk', 'Support Desk'), undefined);
  assert.equal(typedNameProblem(plainL10n, 'support desk', 'Support Desk'), 'Type exactly: Support Desk');
  assert.equal(typedNameProblem(plainL10n, 'Support Desk ', 'Support Desk'), 'Type exactly: Support Desk');
});

test('a rollback names the version and artifact it goes back to, when the history shows it', () => {
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
  assert.equal(
    rollbackConfirmation(plainL10n, 'Support Desk', active, previous).detail,
    'live stops serving version 3 (artifact art-7) and goes back to version 2 (artifact art-5), as a new deployment.',
  );
  assert.equal(rollbackTarget(active, [active]), undefined);
});
