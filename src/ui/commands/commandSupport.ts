import * as vscode from 'vscode';
import type { ClientContext } from '../../client/context';
import type { Connection } from '../connection/connection';
import { failureReport } from './failure';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

export { isPlatformError } from './failure';

/** The active profile's client context, or an error that says what to do. */
export function requireContext(connection: Connection): ClientContext {
  const ctx = connection.context;
  if (!ctx) throw new UserFacingError(vscode.l10n.t('Choose a connection profile first (Agent Workbench: Switch Connection Profile), or start the local platform.'));
  return ctx;
}

/** An error whose message is already written for a person. */
export class UserFacingError extends Error {}

/**
 * Runs a command body and shows any failure as an error message that says what to fix. Transient
 * failures of actions that are not repeated automatically offer a Retry button. Returns undefined
 * on failure, so callers (and tests) can tell.
 */
export async function runCommand<T>(fn: () => Promise<T>, opts: { retry?: () => Promise<T | undefined> } = {}): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    const report = failureReport(vscode.l10n, err, opts.retry !== undefined);
    if (!report) return undefined;
    const retry = vscode.l10n.t('Retry');
    const showLog = vscode.l10n.t('Show Log');
    void prompts.error(report.message, ...(report.offerRetry ? [retry, showLog] : [showLog])).then((choice) => {
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
