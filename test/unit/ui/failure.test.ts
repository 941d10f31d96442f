import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlatformError } from '../../../src/client/errors';
import { plainL10n } from '../../../src/ui/common/l10n';
import { eitherMissing, failureReport } from '../../../src/ui/common/failure';

const failed = (kind: ConstructorParameters<typeof PlatformError>[0]['kind']) =>
  new PlatformError({ family: 'agents', kind, operation: 'Publish to sandbox' });

test("Retry is offered only where the platform said nothing was done: a 429, or the spec's 500 for outbound calls", () => {
  assert.equal(failureReport(plainL10n, failed('rateLimited'), true)?.offerRetry, true);
  const outbound500 = new PlatformError({ family: 'outbound', kind: 'server', status: 500, operation: 'Place a call' });
  assert.equal(failureReport(plainL10n, outbound500, true)?.offerRetry, true);
  for (const kind of ['server', 'badGateway', 'unavailable', 'network', 'timeout', 'notFound', 'conflict'] as const)
    assert.equal(failureReport(plainL10n, failed(kind), true)?.offerRetry, false, kind);
});

test('after 502, 503 or 504 a write that must not repeat says it may have been done, and offers no Retry', () => {
  for (const [status, kind] of [
    [502, 'badGateway'],
    [503, 'unavailable'],
    [504, 'unavailable'],
  ] as const) {
    const err = new PlatformError({ family: 'alerts', kind, status, operation: 'Create alert rule "Slow"' });
    const report = failureReport(plainL10n, err, true)!;
    assert.equal(report.offerRetry, false, String(status));
    assert.match(report.message, /It may have been done: check before trying again\.$/);
    assert.doesNotMatch(report.message, /Try again;/);
  }
  const reserve = new PlatformError({ family: 'dni', kind: 'badGateway', status: 502, operation: 'Reserve a number' });
  assert.match(failureReport(plainL10n, reserve, true)!.message, /may have been done: check before trying again/);
  // A read is not a write: its message keeps the advice to try again.
  assert.match(failureReport(plainL10n, failed('badGateway'), false)!.message, /Try again/);
});

test('a 404 from an assumed endpoint naming one item says either the item or the endpoint is missing, with the row', () => {
  const words = eitherMissing(plainL10n, {
    resource: 'topic tp_1',
    row: 'Topics: not shown.',
    manualPath: 'Edit the topic in the studio.',
  });
  assert.equal(
    words,
    'either topic tp_1 does not exist or this platform has no such endpoint (assumption: row "Topics: not shown", see docs/api-assumptions.md). Edit the topic in the studio.',
  );
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
