import * as vscode from 'vscode';
import { prompts } from '../common/prompts';
import { Command } from '../ids';

/** The part of Check Agent Folder's answer Push reads (the checks are a feature of their own, reached by command). */
interface FolderCheck {
  problems: Array<{
    severity: string;
    ruleId: string;
    path: string;
    range: { start: { line: number } };
    message: string;
  }>;
}

/** How many errors the question lists by name; the Problems panel has them all. */
const LISTED = 5;

/**
 * Before a push: the checks of the folder run on its files and open documents, and when errors remain the person
 * is told which (rule, file and line) and chooses to push anyway, look at them, or stop. Resolves true to go on;
 * also when the checks cannot run, since they never stand between a person and the platform.
 */
export async function confirmPushDespiteErrors(folder: vscode.Uri, agentName: string): Promise<boolean> {
  const check = await Promise.resolve(
    vscode.commands.executeCommand<FolderCheck | undefined>(Command.checkAgentFolder, folder, { quiet: true }),
  ).catch(() => undefined);
  const errors = check?.problems.filter((p) => p.severity === 'error') ?? [];
  if (errors.length === 0) return true;
  const go = vscode.l10n.t('Push Anyway');
  const show = vscode.l10n.t('Show Problems');
  const named = errors
    .slice(0, LISTED)
    .map((e) => `${e.path}:${e.range.start.line + 1} ${e.ruleId}: ${e.message}`)
    .join('\n');
  const answer = await prompts.ask(
    errors.length === 1
      ? vscode.l10n.t('1 error remains in {0}. Push anyway?', agentName)
      : vscode.l10n.t('{0} errors remain in {1}. Push anyway?', errors.length, agentName),
    {
      detail:
        errors.length > LISTED
          ? `${named}\n${vscode.l10n.t('…and {0} more in the Problems panel.', errors.length - LISTED)}`
          : named,
      severity: 'warning',
    },
    go,
    show,
  );
  if (answer === show) void vscode.commands.executeCommand('workbench.actions.view.problems');
  return answer === go;
}
