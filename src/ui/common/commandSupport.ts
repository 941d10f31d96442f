import * as vscode from 'vscode';
import type { PlatformError } from '../../client/errors';
import { failureReport, isPlatformError } from './failure';
import { Command } from '../ids';
import { prompts } from './prompts';

function noProfile(): UserFacingError {
  return new UserFacingError(
    vscode.l10n.t(
      'Choose a connection profile first (Agent Workbench: Switch Connection Profile), or start the local platform.',
    ),
  );
}

/** The platform clients of the active profile (the connection's), or an error that says what to do. */
export function requireClients<Clients>(connection: { readonly clients: Clients | undefined }): Clients {
  const clients = connection.clients;
  if (!clients) throw noProfile();
  return clients;
}

/** What the editor knows through the active profile (the profile models' active one), or an error that says what to do. */
export function requireModel<Model>(models: { active(): Model | undefined }): Model {
  const model = models.active();
  if (!model) throw noProfile();
  return model;
}

/** Rejects with an AbortError when the signal aborts first (the read itself goes on and is kept for later). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** An error whose message is already written for a person. */
export class UserFacingError extends Error {}

/**
 * Runs a command body and shows any failure as an error message that says what to fix. Transient
 * failures of actions that are not repeated automatically offer a Retry button. Returns undefined
 * on failure, so callers (and tests) can tell.
 */
export async function runCommand<T>(
  fn: () => Promise<T>,
  opts: {
    retry?: () => Promise<T | undefined>;
    /** A sentence added to the failure's message: what was kept of what the person typed, and where. */
    kept?: (err: unknown) => string | undefined;
  } = {},
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (isPlatformError(err) && err.kind === 'acceptedUnreadable') {
      // Text where JSON was due may not be the platform's: it may not have been done, and what was typed is kept.
      acceptedUnreadable(err, err.toldMayHaveActed ? opts.kept?.(err) : undefined);
      return undefined;
    }
    const report = failureReport(vscode.l10n, err, opts.retry !== undefined);
    if (!report) return undefined;
    const retry = vscode.l10n.t('Retry');
    const showLog = vscode.l10n.t('Show Log');
    const kept = opts.kept?.(err);
    const message = kept ? `${report.message} ${kept}` : report.message;
    void prompts.error(message, ...(report.offerRetry ? [retry, showLog] : [showLog])).then((choice) => {
      if (choice === retry) void opts.retry?.();
      if (choice === showLog) void vscode.commands.executeCommand(Command.showLog);
    });
    return undefined;
  }
}

/**
 * A write the platform accepted (2xx) whose answer could not be read: it was done, so it is told as done,
 * never as a failure and never with Retry (a repeat would act twice). The views are refreshed to show the
 * result, and the answer as received is in the log.
 */
function acceptedUnreadable(err: PlatformError, kept: string | undefined): void {
  const showLog = vscode.l10n.t('Show Log');
  void prompts.info(kept ? `${err.message} ${kept}` : err.message, showLog).then((choice) => {
    if (choice === showLog) void vscode.commands.executeCommand(Command.showLog);
  });
  for (const view of [Command.refreshAgents, Command.refreshAlerts])
    void vscode.commands.executeCommand(view).then(undefined, () => undefined);
}

/** Runs a long platform call with progress in a notification, cancellable, wired to an AbortSignal. */
export function withProgress<T>(title: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (_p, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        return fn(controller.signal).finally(() => sub.dispose());
      },
    ),
  );
}
