import * as vscode from 'vscode';
import type { RequestLog } from '../client/transport';
import { Disposable } from '../core/disposable';
import { Redactor } from '../core/redact';

/** The extension's log: every line passes the redactor, so no secret reaches the output channel. */
export class Log extends Disposable {
  readonly redactor = new Redactor();
  private readonly channel = this.register(vscode.window.createOutputChannel('Agent Workbench', { log: true }));

  info(message: string): void {
    this.channel.info(this.redactor.redact(message));
  }

  warn(message: string): void {
    this.channel.warn(this.redactor.redact(message));
  }

  error(message: string | Error): void {
    this.channel.error(this.redactor.redact(message instanceof Error ? message.message : message));
  }

  debug(message: string): void {
    this.channel.debug(this.redactor.redact(message));
  }

  /**
   * One line per platform request: the profile it was made for, method, host and path, status ("no answer"
   * when none came), milliseconds, retries.
   */
  request(entry: RequestLog): void {
    const profileName = entry.source;
    const host = hostOf(entry.origin);
    const status = entry.status === undefined ? 'no answer' : String(entry.status);
    const line = `${profileName ? `[${profileName}] ` : ''}${entry.method} ${host}${entry.path} → ${status} in ${entry.ms} ms${entry.retries ? ` after ${entry.retries} ${entry.retries === 1 ? 'retry' : 'retries'}` : ''}${entry.error ? `: ${entry.error}` : ''}`;
    if (entry.error) this.warn(line);
    else this.info(line);
    // What could not be read is shown as it came, never dropped (fields that look like secrets are masked by the client).
    if (entry.answer !== undefined) this.warn(`  the answer as received: ${entry.answer}`);
  }

  show(): void {
    this.channel.show(true);
  }
}

function hostOf(origin: string | undefined): string {
  if (!origin) return '';
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
