import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import * as vscode from 'vscode';
import type * as Ws from 'ws';
import { Disposable, toDisposable } from '../../core/disposable';
import { Emitter } from '../../core/event';

/** How long a panel's page waits for the editor to make the channel's address reachable. */
const EXTERNAL_URI_WAIT_MS = 2_000;
/** The largest message a page may send on its socket (a report of paint times; anything larger ends it). */
const MAX_REPORT_BYTES = 64 * 1024;
/** A page's socket that has not answered a ping within this long is ended. */
const HEARTBEAT_MS = 15_000;

/**
 * A WebSocket from the extension host straight into a panel's page, for notifications that stream (a chat's
 * answer being written): a message posted to a webview passes through the workbench and two frames and takes
 * several milliseconds, a loopback socket well under one. One server on 127.0.0.1 serves every panel; each
 * panel has a random token of its own in the socket's path, and a connection without a known token is
 * refused. What the page sends on it is for reports many a second (a benchmark's paint times), which would
 * otherwise load the workbench's thread the page shares: the panel checks each one as it checks a posted
 * message. Other commands and requests keep going through the webview's messages. Where the socket cannot be
 * opened, the panel keeps posting messages as before.
 */
export class DirectChannel extends Disposable {
  private socket: Ws.WebSocket | undefined;
  private readonly _onDidOpen = this.register(new Emitter<void>());
  private readonly _onDidClose = this.register(new Emitter<void>());
  private readonly _onDidReceive = this.register(new Emitter<unknown>());
  /** The page connected: notifications go through the socket from now on. */
  readonly onDidOpen = this._onDidOpen.event;
  /** The page's socket closed (page hidden, reloaded or gone). */
  readonly onDidClose = this._onDidClose.event;
  /** A message the page sent on its socket, parsed from JSON and not checked yet. */
  readonly onDidReceive = this._onDidReceive.event;

  private constructor(
    private readonly hub: ChannelHub,
    readonly token: string,
    /** The address the page connects to (ws: or wss:), as the editor makes it reachable from the page. */
    readonly url: string,
  ) {
    super();
    this.register(
      toDisposable(() => {
        this.hub.channels.delete(this.token);
        const socket = this.socket;
        this.socket = undefined;
        socket?.terminate();
      }),
    );
  }

  /** A channel for one panel, or undefined where no loopback server can be started or reached. */
  static async open(): Promise<DirectChannel | undefined> {
    try {
      const hub = await ChannelHub.shared();
      const base = await hub.address;
      if (!base) return undefined;
      const token = randomBytes(24).toString('base64url');
      const channel = new DirectChannel(hub, token, `${base}${token}`);
      hub.channels.set(token, channel);
      return channel;
    } catch {
      return undefined;
    }
  }

  /** The address's origin, for the page's content security policy (connect-src). */
  get origin(): string {
    const u = new URL(this.url);
    return `${u.protocol}//${u.host}`;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === 1;
  }

  /** Sends one message; false when the socket is not open (the caller posts it instead). */
  send(message: unknown): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Ends the page's socket as a lost connection would (tests): the page goes back to posted messages. */
  drop(): void {
    this.socket?.terminate();
  }

  /** A page connected with this channel's token; a page loaded again replaces the one before. */
  accept(socket: Ws.WebSocket): void {
    // The panel closed while the page was connecting.
    if (this.isDisposed) return void socket.terminate();
    const before = this.socket;
    this.socket = socket;
    before?.terminate();
    // A socket that stops answering pings (a tunnel broken by sleep) is ended: the page then gets posted messages.
    let answered = true;
    socket.on('pong', () => (answered = true));
    const heartbeat = setInterval(() => {
      if (!answered) socket.terminate();
      else {
        answered = false;
        socket.ping();
      }
    }, HEARTBEAT_MS).unref();
    socket.on('close', () => {
      clearInterval(heartbeat);
      if (this.socket !== socket) return;
      this.socket = undefined;
      this._onDidClose.fire();
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (data, isBinary) => {
      if (isBinary || this.socket !== socket) return;
      let message: unknown;
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      this._onDidReceive.fire(message);
    });
    this._onDidOpen.fire();
  }
}

/** The one loopback server of every panel's channel, started when the first channel is asked for. */
class ChannelHub {
  private static started: Promise<ChannelHub> | undefined;
  readonly channels = new Map<string, DirectChannel>();

  /**
   * The address pages connect to, ending in `/`, asked of the editor once: in a browser or a remote window it
   * forwards the port or names its proxy for it. Pages wait for it, so not for long: undefined without an answer.
   */
  readonly address: Promise<string | undefined>;

  private constructor(
    server: Server,
    readonly port: number,
  ) {
    this.address = ChannelHub.externalAddress(port);
    // Failures of the server after it listens never stop the extension host.
    server.on('error', () => undefined);
    // ws is required with the first channel, not at activation (dist/ws.js, which the client shares).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { WebSocketServer } = require('ws') as typeof Ws;
    const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_REPORT_BYTES });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      // The token is the last segment of the path (the editor's proxy may put a path of its own before it).
      const channel = this.channels.get((req.url ?? '').replace(/^.*\//, ''));
      if (!channel) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      sockets.handleUpgrade(req, socket, head, (ws) => channel.accept(ws));
    });
  }

  private static async externalAddress(port: number): Promise<string | undefined> {
    try {
      const local = vscode.Uri.parse(`http://127.0.0.1:${port}/`);
      const external = await Promise.race([
        vscode.env.asExternalUri(local),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), EXTERNAL_URI_WAIT_MS).unref()),
      ]);
      const scheme = external?.scheme === 'https' ? 'wss' : external?.scheme === 'http' ? 'ws' : undefined;
      if (!external || !scheme) return undefined;
      return external.with({ scheme }).toString(true).replace(/\/?$/, '/');
    } catch {
      return undefined;
    }
  }

  static shared(): Promise<ChannelHub> {
    ChannelHub.started ??= new Promise<ChannelHub>((resolve, reject) => {
      const server = createServer((_req, res) => res.writeHead(404).end());
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (address === null || typeof address === 'string') reject(new Error('no port'));
        else {
          // The server never keeps the extension host running by itself.
          server.unref();
          resolve(new ChannelHub(server, address.port));
        }
      });
    }).catch((err: unknown) => {
      ChannelHub.started = undefined;
      throw err;
    });
    return ChannelHub.started;
  }
}
