import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';

/** Where the receiver listens: this machine only, so nothing outside it can post to the editor. */
export const RECEIVER_HOST = '127.0.0.1';
export const RECEIVER_PATH = '/alerts';
/** Largest body kept: an alert notification is a few hundred bytes. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The signature verdict under the assumed scheme (see {@link WebhookVerifier}); `checking` while the endpoints and
 * their secrets are read, so a delivery is listed as soon as it arrives.
 */
export type Verdict = { verified: true; endpointName: string } | { verified: false; reason: string; checking?: true };

/** The verdict of a delivery whose signature is still being checked. */
export const CHECKING: Verdict = { verified: false, checking: true, reason: 'the signature is being checked' };

/** One notification as it arrived, with what was read from it. */
export interface ReceivedDelivery {
  /** The webhook-id header (the same on every retry of one notification), or a local number. */
  id: string;
  receivedAt: Date;
  body: string;
  headers: Readonly<Record<string, string>>;
  /** The notification's fields when the body reads as one; undefined otherwise. */
  eventType?: string;
  ruleName?: string;
  ruleId?: string;
  values?: {
    metric?: string;
    operator?: string;
    threshold?: number;
    current?: number;
    previousState?: string;
    at?: string;
  };
  verdict: Verdict;
}

/**
 * Checks one delivery's signature. The scheme is not in the specification: the one assumed is the
 * local platform's (Standard Webhooks, `verifyWebhookSignature` of contract/alerts.ts, which its sender signs
 * with); the receiver only asks for a verdict, so the scheme stays in that one place.
 */
export type WebhookVerifier = (
  body: string,
  headers: Readonly<Record<string, string>>,
  receiverUrl: string,
) => Promise<Verdict>;

/**
 * A local HTTP listener for alert notifications. It answers 200 to every POST it can read (it is a
 * viewer, not the system that acts on alerts, so the platform need not retry) and lists each with its verdict.
 */
export class WebhookReceiver extends Disposable {
  private server: Server | undefined;
  private address: string | undefined;
  private readonly received: ReceivedDelivery[] = [];
  private counter = 0;
  private readonly _onDidChange = this.register(new Emitter<void>());
  /** A delivery arrived, the list was cleared, or the receiver started or stopped. */
  readonly onDidChange: Event<void> = this._onDidChange.event;

  constructor(
    private readonly verify: WebhookVerifier,
    private readonly onError: (message: string) => void,
  ) {
    super();
  }

  override dispose(): void {
    super.dispose();
    void this.stop();
  }

  /** The address to register as a webhook endpoint, while listening. */
  get url(): string | undefined {
    return this.address;
  }

  get deliveries(): readonly ReceivedDelivery[] {
    return this.received;
  }

  clear(): void {
    this.received.length = 0;
    this._onDidChange.fire();
  }

  /** Starts listening (again on the same port when it was started before and the port is free), and answers the address. */
  async start(port = 0): Promise<string> {
    if (this.address) return this.address;
    const server = createServer((req, res) => {
      if (req.method !== 'POST' || !req.url?.startsWith(RECEIVER_PATH)) {
        res.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) chunks.push(c);
      });
      req.on('end', () => {
        if (size > MAX_BODY_BYTES) {
          res.writeHead(413).end();
          return;
        }
        res.writeHead(200).end();
        void this.take(Buffer.concat(chunks).toString('utf8'), flatten(req.headers));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, RECEIVER_HOST, () => resolve());
    });
    this.server = server;
    this.address = `http://${RECEIVER_HOST}:${(server.address() as AddressInfo).port}${RECEIVER_PATH}`;
    this._onDidChange.fire();
    return this.address;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.address = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (!this.isDisposed) this._onDidChange.fire();
  }

  /** Lists a delivery at once, then with its verdict once the signature is checked (a platform call may be slow). */
  private async take(body: string, headers: Record<string, string>): Promise<void> {
    const receiverUrl = this.address ?? '';
    const delivery: ReceivedDelivery = {
      id: headers['webhook-id'] ?? `local-${++this.counter}`,
      receivedAt: new Date(),
      body,
      headers,
      ...readNotification(body),
      verdict: CHECKING,
    };
    this.received.unshift(delivery);
    this._onDidChange.fire();
    try {
      delivery.verdict = await this.verify(body, headers, receiverUrl);
    } catch (err) {
      delivery.verdict = { verified: false, reason: (err as Error).message };
      this.onError(`Webhook receiver: the signature could not be checked: ${delivery.verdict.reason}`);
    }
    if (this.isDisposed) return;
    this._onDidChange.fire();
  }
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The fields of an alert notification, read tolerantly: a body of another shape is still listed. */
function readNotification(body: string): Pick<ReceivedDelivery, 'eventType' | 'ruleName' | 'ruleId' | 'values'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const n = parsed as { event_type?: unknown; alert?: Record<string, unknown> };
  const a = typeof n.alert === 'object' && n.alert !== null ? n.alert : {};
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  return {
    eventType: str(n.event_type),
    ruleName: str(a.name),
    ruleId: str(a.id),
    values: {
      metric: str(a.metric),
      operator: str(a.operator),
      threshold: num(a.threshold_value),
      current: num(a.current_value),
      previousState: str(a.previous_state),
      at: str(a.triggered_at) ?? str(a.resolved_at),
    },
  };
}
