import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redactor } from '../../../src/core/redact';
import { backoffDelay, parseRetryAfter } from '../../../src/core/retry';

describe('Redactor', () => {
  it('masks registered secrets wherever they appear', () => {
    const r = new Redactor();
    r.add('sk_live_abcdef123456');
    assert.equal(r.redact('key=sk_live_abcdef123456 failed'), 'key=‹redacted› failed');
  });

  it('masks JWTs, secret query parameters and secret header values without registration', () => {
    const r = new Redactor();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJlX2hlcmU';
    assert.doesNotMatch(r.redact(`token ${jwt}`), /eyJ/);
    assert.equal(
      r.redact('GET /ws?access_token=abc.def&session_id=s1'),
      'GET /ws?access_token=‹redacted›&session_id=s1',
    );
    assert.equal(r.redact('x-api-key: topsecret'), 'x-api-key: ‹redacted›');
    assert.equal(r.redact('{"Authorization":"Bearer zzz"}'), '{"Authorization":"‹redacted›"}');
  });

  it('ignores values too short to be secrets, so ordinary words survive', () => {
    const r = new Redactor();
    r.add('abc');
    assert.equal(r.redact('abc def'), 'abc def');
  });
});

describe('retry timing', () => {
  it('bounds exponential backoff by the maximum', () => {
    const policy = { retries: 5, baseMs: 100, maxMs: 1000 };
    assert.equal(
      backoffDelay(policy, 1, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(policy, 3, () => 1),
      400,
    );
    assert.equal(
      backoffDelay(policy, 10, () => 1),
      1000,
    );
    assert.equal(
      backoffDelay(policy, 3, () => 0),
      0,
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});
