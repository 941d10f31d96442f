import * as vscode from 'vscode';
import type { LocalPlatformUrls } from '../../localPlatform/server';
import type { Connection } from '../connection/connection';
import type { LocalPlatformHost } from './localPlatformHost';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** Start and stop the local platform inside the editor; while it runs, the Local profile points at it. */
export function registerLocalPlatformCommands(host: LocalPlatformHost, connection: Connection): vscode.Disposable {
  return vscode.Disposable.from(
    host.onDidChange((lp) => {
      if (!lp) connection.detachLocal();
    }),
    // A platform started outside the editor (npm start, node dist/cli.js serve) that stops says nothing: the host's
    // watch notices, and the editor says so, offers to start one, and takes it up again when it answers again.
    // A request that finds nothing there is the first sign: the watch asks at once rather than at its next turn.
    connection.onDidNotReach((origin) => host.notReached(origin)),
    host.onDidLose(({ origin, external }) => {
      const start = vscode.l10n.t('Start Local Platform');
      void prompts
        .warn(
          external
            ? vscode.l10n.t(
                'The local platform at {0} stopped answering: it runs outside the editor (for example by npm start) and was stopped or ended there. The Local profile is gone until it answers again; the editor checks every few seconds.',
                origin,
              )
            : vscode.l10n.t(
                'The local platform the editor ran at {0} ended without being stopped here (see the Agent Workbench log). The Local profile is gone until it starts again.',
                origin,
              ),
          start,
        )
        .then((choice) => choice === start && vscode.commands.executeCommand(Command.startLocalPlatform));
    }),
    host.onDidReturn((lp) =>
      connection.attachLocal(lp).then(
        () =>
          void prompts.info(
            vscode.l10n.t('The local platform at {0} answers again: the Local profile is back.', lp.urls.origin),
          ),
        (err: unknown) =>
          host.log.warn(
            `The local platform at ${lp.urls.origin} could not be used: ${err instanceof Error ? err.message : String(err)}`,
          ),
      ),
    ),
    vscode.commands.registerCommand(
      Command.startLocalPlatform,
      async (opts?: { inEditor?: boolean }): Promise<LocalPlatformUrls | undefined> => {
        const configured = host.configuredUrl;
        try {
          const lp = await vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title:
                configured && !opts?.inEditor
                  ? vscode.l10n.t('Connecting to the local platform at {0}…', configured)
                  : vscode.l10n.t('Starting the local platform…'),
            },
            () => host.start(opts),
          );
          await connection.attachLocal(lp);
          void prompts.info(vscode.l10n.t('The local platform is running on {0}.', lp.urls.origin));
          return lp.urls;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (configured && !opts?.inEditor) {
            const inEditor = vscode.l10n.t('Start One in the Editor');
            void prompts
              .error(
                vscode.l10n.t(
                  'No local platform answers at {0} (setting agentWorkbench.localPlatform.url): {1}. Start it with `node dist/cli.js serve`, or run one inside the editor.',
                  configured,
                  message,
                ),
                inEditor,
              )
              .then(
                (choice) => choice && vscode.commands.executeCommand(Command.startLocalPlatform, { inEditor: true }),
              );
          } else {
            void prompts.error(vscode.l10n.t('The local platform could not start: {0}', message));
          }
          return undefined;
        }
      },
    ),
    // With a configured address (as `npm start` writes), use that platform as soon as the editor opens.
    autoAttach(host, connection),
    vscode.commands.registerCommand(Command.stopLocalPlatform, async () => {
      const done = await host.stop();
      void prompts.info(
        !done
          ? vscode.l10n.t('No local platform is in use: there was nothing to stop.')
          : done.outcome === 'stopped'
            ? vscode.l10n.t(
                'The local platform at {0} stopped; the Local profile is gone until it starts again.',
                done.origin,
              )
            : vscode.l10n.t(
                'The editor no longer uses the local platform at {0}. It was started outside the editor (for example by npm start) and keeps running: stop it where it was started.',
                done.origin,
              ),
      );
      return done;
    }),
  );
}

function autoAttach(host: LocalPlatformHost, connection: Connection): vscode.Disposable {
  if (!host.configuredUrl) return new vscode.Disposable(() => undefined);
  void host.start().then(
    (lp) =>
      connection
        .attachLocal(lp)
        .catch((err: unknown) =>
          host.log.warn(
            `The local platform at ${lp.urls.origin} could not be used: ${err instanceof Error ? err.message : String(err)}`,
          ),
        ),
    () => undefined, // Not running yet: the Start Local Platform command says what to do.
  );
  return new vscode.Disposable(() => undefined);
}
