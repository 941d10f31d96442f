import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import { PlatformError } from '../../../src/client/errors';
import { type RequestLog, Transport } from '../../../src/client/transport';
import { useLocalPlatform } from '../../support/localPlatform';
import type { FaultRequest } from '../../../src/localPlatform/adminApi';

describe('Transport against the local platform', () => {
  const t = useLocalPlatform();
  const logs: RequestLog[] = [];
  const transport = new Transport({ backoff: { retries: 3, baseMs: 5, maxMs: 20 }, onRequest: (l) => logs.push(l) });
  after(() => transport.dispose());

  const fault = (body: FaultRequest): Promise<unknown> => t.admin.addFault(body);

  it('parses a success body with the schema', async () => {
    const res = await transport.request({
      family: 'agents',
      baseUrl: t.lp.urls.admin,
      method: 'GET',
      path: '/health',
      retry: 'safe',
      schema: z.object({ ok: z.boolean() }),
    });
    assert.equal(res.body.ok, true);
  });

  it('names the missing field and the endpoint when a success body has an unexpected shape', async () => {
    await assert.rejects(
      transport.request({
        family: 'agents',
        operation: 'Check health',
        baseUrl: t.lp.urls.admin,
        method: 'GET',
        path: '/health',
        retry: 'safe',
        schema: z.object({ ok: z.boolean(), version: z.string() }),
      }),
      (err: unknown) => {
        assert.ok(err instanceof PlatformError);
        assert.equal(err.kind, 'unexpectedResponse');
        assert.match(err.message, /Check health/);
        assert.match(err.message, /version/);
        assert.match(err.message, /GET \/health/);
        return true;
      },
    );
  });

  it('maps a 404 to a typed error with the server message and no retry', async () => {
    logs.length = 0;
    await assert.rejects(
      transport.request({
        family: 'agents',
        operation: 'Open agent',
        baseUrl: t.lp.urls.build,
        method: 'GET',
        path: '/v1/nothing-here',
        retry: 'safe',
      }),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.kind === 'notFound' &&
        err.status === 404 &&
        /Open agent failed: it was not found/.test(err.message),
    );
    assert.equal(logs.at(-1)?.retries, 0);
  });

  it('retries a 5xx with backoff for a safe request and reports the retries', async () => {
    logs.length = 0;
    await fault({ family: 'build', path: '/v1/retry-me', status: 500, times: 2 });
    await assert.rejects(
      transport.request({
        family: 'agents',
        baseUrl: t.lp.urls.build,
        method: 'GET',
        path: '/v1/retry-me',
        retry: 'safe',
      }),
      (err: unknown) => err instanceof PlatformError && err.status === 404,
    );
    assert.equal(logs.at(-1)?.retries, 2);
  });

  it('never retries a request marked never (publish, promote, merge, outbound, imports)', async () => {
    logs.length = 0;
    await fault({ family: 'build', path: '/v1/publish-like', status: 500, times: 1 });
    await assert.rejects(
      transport.request({
        family: 'agents',
        operation: 'Publish to sandbox',
        baseUrl: t.lp.urls.build,
        method: 'POST',
        path: '/v1/publish-like',
        body: {},
        retry: 'never',
      }),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.kind === 'server' &&
        err.isTransient &&
        /Publish to sandbox failed: the platform had an internal error/.test(err.message),
    );
    assert.equal(logs.at(-1)?.retries, 0);
  });

  /** A safe read of a path the platform does not have (404 once the faults are past). */
  const safeRead = (path: string) =>
    transport.request({ family: 'conversations', baseUrl: t.lp.urls.runtime, method: 'GET', path, retry: 'safe' });

  for (const status of [429, 503]) {
    it(`honours Retry-After on ${status} for a safe request, and returns a long one to the caller`, async () => {
      const path = `/v1/waited-${status}`;
      logs.length = 0;
      await fault({ family: 'runtime', path, status, retryAfter: 0.05, times: 1 });
      const started = Date.now();
      await assert.rejects(safeRead(path), (err: unknown) => err instanceof PlatformError && err.status === 404);
      assert.ok(Date.now() - started >= 45, 'waited for Retry-After');
      assert.equal(logs.at(-1)?.retries, 1);
      logs.length = 0;
      await fault({ family: 'runtime', path, status, retryAfter: 600, times: 1 });
      await assert.rejects(
        safeRead(path),
        (err: unknown) => err instanceof PlatformError && err.status === status && err.retryAfterMs === 600_000,
      );
      assert.equal(logs.at(-1)?.retries, 0);
    });
  }

  /** A write that must not repeat, to a path the platform does not have. */
  const createOnce = (path: string) =>
    transport.request({
      family: 'agents',
      operation: 'Create agent',
      baseUrl: t.lp.urls.build,
      method: 'POST',
      path,
      body: {},
      retry: 'never',
    });

  it('shows the title of an HTML error page, never its markup, and a reset as a closed connection, not an unreachable host', async () => {
    await fault({
      family: 'build',
      path: '/v1/proxied',
      status: 502,
      rawBody: '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
      times: 1,
    });
    await assert.rejects(
      createOnce('/v1/proxied'),
      (err: unknown) =>
        err instanceof PlatformError &&
        /HTTP 502\)\. 502 Bad Gateway\. It may have been done/.test(err.message) &&
        !/</.test(err.message),
    );
    logs.length = 0;
    await fault({ family: 'build', path: '/v1/reset', reset: 'before', times: 1 });
    await assert.rejects(
      createOnce('/v1/reset'),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.kind === 'network' &&
        err.closed &&
        err.toldMayHaveActed &&
        /^Create agent: the connection to the Agents API at [\d.:]+ was closed before its answer came\. It may have been done/.test(
          err.message,
        ),
    );
    assert.equal(logs.at(-1)?.unreachable, undefined, 'a closed connection is not an unreachable host');
  });

  it('returns a 429 with its Retry-After to the caller when the request is not safe to repeat', async () => {
    await fault({ family: 'runtime', path: '/v1/outbound-calling', status: 429, retryAfter: 7, times: 1 });
    await assert.rejects(
      transport.request({
        family: 'outbound',
        operation: 'Place a test call',
        baseUrl: t.lp.urls.runtime,
        method: 'POST',
        path: '/v1/outbound-calling',
        body: {},
        retry: 'never',
      }),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.kind === 'rateLimited' &&
        err.retryAfterMs === 7000 &&
        /Try again in 7 s/.test(err.message),
    );
  });

  it('carries field errors of a build error body into the message', async () => {
    await fault({ family: 'build', path: '/v1/validate', status: 400, times: 1 });
    await assert.rejects(
      transport.request({
        family: 'agents',
        operation: 'Create agent',
        baseUrl: t.lp.urls.build,
        method: 'POST',
        path: '/v1/validate',
        body: {},
        retry: 'never',
      }),
      (err: unknown) => err instanceof PlatformError && err.kind === 'validation' && /Injected fault/.test(err.message),
    );
  });

  it('times out a slow answer and cancels through an AbortSignal', async () => {
    // undici's timeouts tick coarsely (about every half second), so the answer is held well past that.
    await fault({ family: 'build', path: '/v1/slow', delayMs: 2500, times: 2 });
    await assert.rejects(
      transport.request({
        family: 'agents',
        baseUrl: t.lp.urls.build,
        method: 'GET',
        path: '/v1/slow',
        retry: 'never',
        timeoutMs: 100,
      }),
      (err: unknown) => err instanceof PlatformError && err.kind === 'timeout',
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(
      transport.request({
        family: 'agents',
        baseUrl: t.lp.urls.build,
        method: 'GET',
        path: '/v1/slow',
        retry: 'safe',
        signal: controller.signal,
      }),
      (err: unknown) => err instanceof PlatformError && err.kind === 'cancelled',
    );
  });

  it('treats a redirect as an error that says to check the base address, never as success', async () => {
    await fault({ family: 'build', path: '/v1/alert-rules/ar_1', method: 'DELETE', status: 302, times: 1 });
    await assert.rejects(
      transport.request({
        family: 'alerts',
        operation: 'Delete alert rule',
        baseUrl: t.lp.urls.build,
        method: 'DELETE',
        path: '/v1/alert-rules/ar_1',
        retry: 'safe',
      }),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.kind === 'unexpectedResponse' &&
        err.status === 302 &&
        /redirect .*base address/.test(err.message),
    );
  });

  it('reports an unreachable platform as a network error that names what to check', async () => {
    const quick = new Transport({ backoff: { retries: 1, baseMs: 1, maxMs: 2 } });
    try {
      await assert.rejects(
        quick.request({
          family: 'agents',
          operation: 'List agents',
          baseUrl: 'http://127.0.0.1:9',
          method: 'GET',
          path: '/v1/agents',
          retry: 'safe',
        }),
        (err: unknown) =>
          err instanceof PlatformError &&
          err.kind === 'network' &&
          /could not be reached at 127\.0\.0\.1:9 \(nothing answers there/.test(err.message) &&
          /Check the build address of the connection profile/.test(err.message),
      );
    } finally {
      quick.dispose();
    }
  });
});
