import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { IDisposable } from '../core/disposable';
import type { Router } from './http';
import type { Platform } from './platform';

/** Which of the three base addresses a family is served under. */
export type Base = 'runtime' | 'build' | 'messaging';

/** One API family of the local platform, plugged into the server. */
export interface Family extends Partial<IDisposable> {
  readonly name: string;
  readonly base: Base;
  readonly router: Router;
  /** Handles a WebSocket upgrade under this family's base; returns false when the path is not its. */
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, query: URLSearchParams): boolean;
}

export interface FamilyContext {
  readonly platform: Platform;
  /** Routes under `/_local/`, for tests and demos only. */
  readonly admin: Router;
}

export type FamilyFactory = (ctx: FamilyContext) => Family;
