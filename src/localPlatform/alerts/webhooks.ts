import {
  signWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../contract/alerts';
import type { IDisposable } from '../../core/disposable';
import type { Platform } from '../platform';
import { alertsOf, type StoredDelivery } from './model';

/** Attempts per delivery: the first one and four retries. */
export const WEBHOOK_MAX_ATTEMPTS = 5;
/** How long one attempt waits for the receiver's answer. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = 'AgentWorkbench-LocalPlatform-Webhooks/1';

/** The local platform sends notifications only to this machine. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Sends deliveries as signed POSTs (Standard Webhooks headers) and retries failures
 * (non-2xx or no answer) with exponential backoff: base, 2 x base, 4 x base, ... up to
 * WEBHOOK_MAX_ATTEMPTS attempts. Timers and requests in flight are dropped on reset.
 */
export class WebhookSender implements IDisposable {
  private generation = 0;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<AbortController>();
  private readonly resetSub: IDisposable;

  constructor(private readonly platform: Platform) {
    this.resetSub = platform.onDidReset(() => {
      this.cancelAll();
      this.resumePending();
    });
  }

  /** Starts delivering now. */
  send(deliveries: readonly StoredDelivery[]): void {
    for (const d of deliveries) void this.attempt(d, this.generation);
  }

  /** Picks up deliveries left pending in the state (after a restart with --data-dir). */
  resumePending(): void {
    for (const d of alertsOf(this.platform).deliveries) {
      if (d.status !== 'pending') continue;
      const wait = d.next_attempt_at ? Math.max(0, Date.parse(d.next_attempt_at) - this.platform.clock.now()) : 0;
      this.schedule(d, Math.min(wait, this.retryDelay(WEBHOOK_MAX_ATTEMPTS)));
    }
  }

  private retryDelay(attemptsMade: number): number {
    return this.platform.options.webhookRetryBaseMs * 2 ** Math.max(0, attemptsMade - 1);
  }

  private schedule(d: StoredDelivery, delayMs: number): void {
    const gen = this.generation;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(d, gen);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(d: StoredDelivery, gen: number): Promise<void> {
    if (gen !== this.generation || d.status !== 'pending') return;
    const endpoint = alertsOf(this.platform).endpoints.find((e) => e.id === d.endpoint_id);
    if (!endpoint) return this.finish(d, 'failed', 'The webhook endpoint was deleted');
    if (!isLoopbackUrl(endpoint.url)) {
      return this.finish(
        d,
        'failed',
        'Not sent: the local platform delivers only to loopback addresses (127.0.0.1, ::1, localhost)',
      );
    }
    const body = JSON.stringify(d.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const controller = new AbortController();
    this.inFlight.add(controller);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(WEBHOOK_ATTEMPT_TIMEOUT_MS)]),
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          [WEBHOOK_ID_HEADER]: d.id,
          [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(endpoint.signing_secret, d.id, timestamp, body),
        },
        body,
      });
      statusCode = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (statusCode < 200 || statusCode > 299) error = `The endpoint answered HTTP ${statusCode}`;
    } catch (err) {
      error = describeNetworkError(err);
    } finally {
      this.inFlight.delete(controller);
    }
    if (gen !== this.generation) return;

    d.attempts.push({ attempt: d.attempts.length + 1, at: this.platform.now(), status_code: statusCode, error });
    if (error === null) return this.finish(d, 'delivered', null);
    if (d.attempts.length >= WEBHOOK_MAX_ATTEMPTS)
      return this.finish(d, 'failed', `${error} (gave up after ${WEBHOOK_MAX_ATTEMPTS} attempts)`);
    const delay = this.retryDelay(d.attempts.length);
    d.last_error = error;
    d.next_attempt_at = new Date(this.platform.clock.now() + delay).toISOString();
    this.platform.mutated();
    this.schedule(d, delay);
  }

  private finish(d: StoredDelivery, status: 'delivered' | 'failed', error: string | null): void {
    d.status = status;
    d.last_error = error;
    d.next_attempt_at = null;
    this.platform.mutated();
  }

  private cancelAll(): void {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
  }

  dispose(): void {
    this.resetSub.dispose();
    this.cancelAll();
  }
}

function describeNetworkError(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (cause instanceof Error && cause.name === 'TimeoutError')
    return `No answer within ${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s`;
  const code = (cause as { code?: unknown }).code;
  return `Could not reach the endpoint${typeof code === 'string' ? ` (${code})` : ''}`;
}
