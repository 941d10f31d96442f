import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlatformError } from '../../../src/client/errors';
import { plainL10n } from '../../../src/ui/common/l10n';
import { failureReport } from '../../../src/ui/common/failure';

const failed = (kind: ConstructorParameters<typeof PlatformError>[0]['kind']) =>
  new PlatformError({ family: 'agents', kind, operation: 'Publish to sandbox' });

test('Retry is offered only where the platform answered that nothing was done', () => {
  for (const kind of ['rateLimited', 'server', 'badGateway', 'unavailable'] as const)
    assert.equal(failureReport(plainL10n, failed(kind), true)?.offerRetry, true, kind);
  for (const kind of ['network', 'timeout', 'notFound', 'conflict'] as const)
    assert.equal(failureReport(plainL10n, failed(kind), true)?.offerRetry, false, kind);
});

test('a command that is not retried by hand never offers Retry', () => {
  assert.equal(failureReport(plainL10n, failed('server'), false)?.offerRetry, false);
});

test('a lost answer warns that the action may have happened', () => {
  assert.match(
    failureReport(plainL10n, failed('timeout'), true)!.message,
    /may have been done before the answer was lost/,
  );
  assert.doesNotMatch(failureReport(plainL10n, failed('timeout'), false)!.message, /may have been done/);
  assert.doesNotMatch(failureReport(plainL10n, failed('server'), true)!.message, /may have been done/);
});

test('a cancelled command says nothing; any other error says its message', () => {
  assert.equal(failureReport(plainL10n, failed('cancelled'), true), undefined);
  const abort = new Error('aborted');
  abort.name = 'AbortError';
  assert.equal(failureReport(plainL10n, abort, true), undefined);
  assert.deepEqual(failureReport(plainL10n, new Error('Type a name.'), false), {
    message: 'Type a name.',
    offerRetry: false,
  });
});
