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
 * is told which (rule, file and line) and chooses to look at them (the default button: Enter pushes nothing), push
 * anyway, or stop. Resolves the errors the push carries (each as "file:line rule"), empty when there are none or the
 * checks cannot run (they never stand between a person and the platform); undefined when the person did not push.
 */
export async function confirmPushDespiteErrors(folder: vscode.Uri, agentName: string): Promise<string[] | undefined> {
  const check = await Promise.resolve(
    vscode.commands.executeCommand<FolderCheck | undefined>(Command.checkAgentFolder, folder, { quiet: true }),
  ).catch(() => undefined);
  const errors = check?.problems.filter((p) => p.severity === 'error') ?? [];
  if (errors.length === 0) return [];
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
    // The first button is the dialog's default: the safe choice.
    show,
    go,
  );
  if (answer === show) void vscode.commands.executeCommand('workbench.actions.view.problems');
  return answer === go ? errors.map((e) => `${e.path}:${e.range.start.line + 1} ${e.ruleId}`) : undefined;
}

/** What a push report adds about the errors the push carried: " It carries 1 error: behavior.md:3 secret." */
export function carriedErrorsText(carried: readonly string[]): string {
  if (carried.length === 0) return '';
  const listed = carried.slice(0, LISTED).join(', ');
  const more = carried.length > LISTED ? vscode.l10n.t(' and {0} more', carried.length - LISTED) : '';
  return carried.length === 1
    ? vscode.l10n.t('It carries 1 error: {0}.', listed)
    : vscode.l10n.t('It carries {0} errors: {1}{2}.', carried.length, listed, more);
}
