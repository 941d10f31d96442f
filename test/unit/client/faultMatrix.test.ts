import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isPlatformError, type PlatformError } from '../../../src/client/errors';
import { Transport } from '../../../src/client/transport';
import { failureText } from '../../../src/assistantTools/failure';
import { type LocalPlatform, startLocalPlatform } from '../../../src/localPlatform/server';
import { plainL10n } from '../../../src/ui/common/l10n';
import { failureReport } from '../../../src/ui/common/failure';
import { expected, MATRIX_OPERATIONS, type MatrixOperation, RETRIES, targetOf } from '../../support/faultMatrix';
import { FAULT_KINDS, FAULT_LABEL, type FaultKind, faultFor, messageProblem } from '../../support/faults';
import { LocalAdmin } from '../../support/localAdmin';
import { localContext } from '../../support/localClient';
import { assumed, RESPONSES } from '../../support/localPlatform';
import { until } from '../../support/until';

/** The timeout of the matrix's transport for the timeout column; the slow answer is waited with the default one. */
const TIMEOUT_MS = 1_000;

/**
 * The client under each fault, against the real local platform on loopback: every operation of the matrix
 * (test/support/faultMatrix.ts) under every fault of test/support/faults.ts. The operations run side by side (each
 * fault is armed on its own operation's method and path only, and cleared after), the faults of one operation one
 * after another. docs/reliability.md shows the same table (test/unit/reliabilityDoc.test.ts keeps them equal).
 */
describe('client fault matrix: each family, a read and a write, under each fault', { concurrency: true }, () => {
  // The product's backoff (3 repeats) with short waits; the product's default timeout for the slow answer.
  const backoff = { retries: RETRIES, baseMs: 5, maxMs: 20 };
  const quick = new Transport({ backoff, timeoutMs: TIMEOUT_MS });
  const patient = new Transport({ backoff });
  after(() => {
    quick.dispose();
    patient.dispose();
  });

  for (const op of MATRIX_OPERATIONS) {
    const skip = op.assumed ? assumed(op.assumed) : false;
    // Each operation has a platform of its own, so that what it prepares and counts is its own; its faults come one
    // after another.
    describe(`${op.family} ${op.role}: ${op.name}`, { skip, concurrency: 1 }, () => {
      let lp: LocalPlatform;
      before(async () => {
        lp = await startLocalPlatform({
          seed: 'base',
          streamDelayMs: 0,
          responses: RESPONSES,
          // Room for the rules, sessions and tokens the matrix makes.
          maxAlertRules: 10_000,
          messagingHttpPerMinute: 1_000_000,
        });
      });
      after(() => lp.close());
      for (const fault of FAULT_KINDS) {
        const want = expected(op, fault);
        it(`[${op.rules}] ${op.name} under ${FAULT_LABEL[fault]}: ${want.result}`, () => cell(lp, op, fault));
      }
    });
  }

  async function cell(lp: LocalPlatform, op: MatrixOperation, fault: FaultKind): Promise<void> {
    const want = expected(op, fault);
    const admin = new LocalAdmin(lp.urls.admin);
    const ctx = localContext(lp, { transport: fault === 'slow' ? patient : quick });
    const world = { lp, admin };
    const prepared = await op.prepare?.(ctx, world);
    const marker = `m${Math.random().toString(36).slice(2, 10)}`;
    const since = lp.platform.requests.list().at(-1)?.seq ?? 0;
    const armed = await admin.addFault(faultFor(fault, targetOf(op), TIMEOUT_MS));
    const started = Date.now();
    let error: PlatformError | undefined;
    try {
      await op.run(ctx, marker, prepared);
    } catch (err) {
      assert.ok(isPlatformError(err), `not a platform error: ${String(err)}`);
      error = err;
    } finally {
      await admin.removeFault(armed.id);
    }
    const took = Date.now() - started;
    const attempts = lp.platform.requests
      .list({ since })
      .filter((r) => r.method === op.method && matches(op, r.path)).length;
    assert.equal(attempts, want.attempts, `requests that reached the platform${error ? `; ${error.message}` : ''}`);

    if (want.outcome === 'answered') {
      assert.equal(error, undefined, error?.message);
      if (fault === 'retryAfterShort') assert.ok(took >= 950, `waited Retry-After (${took} ms)`);
    } else {
      assert.ok(error, 'the call failed');
      assert.equal(error.kind, want.outcome, error.message);
      for (const words of want.says) assert.match(error.message, words);
      for (const words of want.never) assert.doesNotMatch(error.message, words);
      if (fault === 'retryAfterLong') assert.ok(took < 5_000, `a long Retry-After is not waited (${took} ms)`);
      // What the person reads: the client's sentence, as a command and an assistant tool give it.
      const once = op.repeat === 'once';
      for (const [where, message] of [
        ['client', error.message],
        [
          'command',
          error.kind === 'acceptedUnreadable' ? error.message : failureReport(plainL10n, error, once)?.message,
        ],
        ['assistant tool', failureText(error, once ? 'change' : 'read')],
      ] as const) {
        assert.ok(message, `${where}: a message`);
        assert.equal(messageProblem(message), undefined, `${where}: ${messageProblem(message)}: ${message}`);
        assert.ok((message.match(/may have been done/g) ?? []).length <= 1, `${where} says it once: ${message}`);
      }
    }
    if (want.carriedOut !== undefined && op.done) {
      const done = (): boolean | Promise<boolean> => op.done!(world, marker, prepared);
      if (want.carriedOut === 'later')
        await until('carried out after the client stopped waiting', done, { timeoutMs: 10_000 });
      else assert.equal(await done(), want.carriedOut, want.carriedOut ? 'carried out' : 'not carried out');
    }
  }
});

function matches(op: MatrixOperation, path: string): boolean {
  return op.path.startsWith('/^') ? new RegExp(op.path.slice(1, -1)).test(path) : path === op.path;
}
