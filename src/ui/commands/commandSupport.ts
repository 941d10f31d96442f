import * as vscode from 'vscode';
import type { ClientContext } from '../../client/context';
import type { PlatformError } from '../../client/errors';
import type { Connection } from '../connection/connection';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** The active profile's client context, or an error that says what to do. */
export function requireContext(connection: Connection): ClientContext {
  const ctx = connection.context;
  if (!ctx) throw new UserFacingError(vscode.l10n.t('Choose a connection profile first (Agent Workbench: Switch Connection Profile), or start the local platform.'));
  return ctx;
}

/** An error whose message is already written for a person. */
export class UserFacingError extends Error {}

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof Error && err.name === 'PlatformError';
}

/**
 * Runs a command body and shows any failure as an error message that says what to fix. Transient
 * failures of actions that are not repeated automatically offer a Retry button. Returns undefined
 * on failure, so callers (and tests) can tell.
 */
export async function runCommand<T>(fn: () => Promise<T>, opts: { retry?: () => Promise<T | undefined> } = {}): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if ((isPlatformError(err) && err.kind === 'cancelled') || (err instanceof Error && err.name === 'AbortError')) return undefined;
    let message = err instanceof Error ? err.message : String(err);
    const retry = vscode.l10n.t('Retry');
    const showLog = vscode.l10n.t('Show Log');
    // Retry only when the platform answered that it did nothing; after a lost answer the action may have happened.
    const nothingDone = isPlatformError(err) && ['rateLimited', 'server', 'badGateway', 'unavailable'].includes(err.kind);
    if (isPlatformError(err) && (err.kind === 'network' || err.kind === 'timeout') && opts.retry) {
      message += ` ${vscode.l10n.t('It may have been done before the answer was lost: refresh and check before trying again.')}`;
    }
    const actions = nothingDone && opts.retry ? [retry, showLog] : [showLog];
    void prompts.error(message, ...actions).then((choice) => {
      if (choice === retry) void opts.retry?.();
      if (choice === showLog) void vscode.commands.executeCommand(Command.showLog);
    });
    return undefined;
  }
}

/** Runs a long platform call with progress in a notification, cancellable, wired to an AbortSignal. */
export function withProgress<T>(title: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_p, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    return fn(controller.signal).finally(() => sub.dispose());
  }));
}
