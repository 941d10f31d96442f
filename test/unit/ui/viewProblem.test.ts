import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ErrorKind, PlatformError } from '../../../src/client/errors';
import { viewProblemOf } from '../../../src/ui/explorer/viewProblem';

const failed = (kind: ErrorKind, more: { closed?: boolean } = {}) =>
  new PlatformError({ family: 'agents', kind, operation: 'List agents', ...more });

test("a view's failed first read shows the welcome of its kind: what failed and what to do", () => {
  const cases: Array<[PlatformError | Error, string]> = [
    [failed('notConfigured'), 'missingKey'],
    [failed('unauthorized'), 'keyRefused'],
    [failed('forbidden'), 'noAccess'],
    // Nothing answered at the address: check it.
    [failed('network'), 'unreachable'],
    // Reached, but no answer came: try again.
    [failed('network', { closed: true }), 'noAnswer'],
    [failed('timeout'), 'noAnswer'],
    [failed('rateLimited'), 'busy'],
    [failed('server'), 'server'],
    [failed('badGateway'), 'server'],
    [failed('unavailable'), 'server'],
    [failed('unexpectedResponse'), 'unreadable'],
    [failed('notFound'), 'other'],
    [new Error('anything else'), 'other'],
  ];
  for (const [err, problem] of cases) assert.equal(viewProblemOf(err), problem, err.message);
});
