import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainL10n } from '../../../src/ui/common/l10n';
import { promoteConfirmation, publishConfirmation, rollbackConfirmation, typedNameProblem } from '../../../src/ui/commands/deployConfirmations';

const d = (environment: 'sandbox' | 'pre-release' | 'live') => ({ version: '3', environment, artifactVersion: 'art-7' });

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
