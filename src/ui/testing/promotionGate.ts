import * as vscode from 'vscode';
import { LOCAL_PROFILE_ID } from '../../client/profile';
import { prompts } from '../common/prompts';
import type { Log } from '../log';
import type { ConversationTests } from './conversationTests';

/**
 * Before a promotion: when the workspace has conversation tests of the agent tagged with the source environment,
 * offers to run them against it. A failing run blocks the promotion unless the person types a reason, which is
 * logged with the run's result. Resolves whether the promotion goes on.
 */
export async function promotionGate(
  tests: ConversationTests,
  log: Log,
  agentId: string,
  agentName: string,
  environment: string,
): Promise<boolean> {
  const items = await tests.casesTagged(agentId, environment);
  if (items.length === 0) return true;
  const run = vscode.l10n.t('Run Tests');
  const skip = vscode.l10n.t('Promote Without Testing');
  const answer = await prompts.ask(
    vscode.l10n.t(
      '{0} has {1} conversation tests tagged {2}. Run them against {2} before promoting?',
      agentName,
      items.length,
      environment,
    ),
    { detail: vscode.l10n.t('Each case is a real conversation with the agent in {0}.', environment) },
    run,
    skip,
  );
  if (answer === undefined) return false;
  if (answer === skip) {
    log.info(`Promoting ${agentName} from ${environment} without running its ${items.length} conversation tests.`);
    return true;
  }
  const local = tests.connection.profiles.active?.id === LOCAL_PROFILE_ID;
  const record = await tests.runFor(items, environment, local);
  const failing = [...record.items.values()].filter(
    (i) => items.some((c) => c.id === i.id) && (i.state === 'failed' || i.state === 'errored'),
  );
  // A case failed only by advisory criteria (their judge agrees too rarely with the labels) is reported, not blocking.
  const advisory = failing.filter((i) => i.advisoryOnly);
  const failed = failing.filter((i) => !i.advisoryOnly);
  // The summary line: the spend of a judged run's models may follow it.
  const lines = record.output.trim().split('\n');
  const summary = lines.findLast((l) => /^\d+ passed, \d+ failed/.test(l)) ?? lines.at(-1) ?? '';
  if (advisory.length > 0) {
    const note = vscode.l10n.t(
      '{0} of {1} conversation tests failed on advisory criteria only (their judge agrees too rarely with its labels): reported, not blocking the promotion.',
      advisory.length,
      items.length,
    );
    log.warn(`Promoting ${agentName} from ${environment}: ${note}`);
    void prompts.warn(note);
  }
  if (failed.length === 0) {
    log.info(`Conversation tests of ${agentName} tagged ${environment} before promoting: ${summary}`);
    return true;
  }
  const reason = await prompts.input({
    title: vscode.l10n.t('{0} of {1} conversation tests failed', failed.length, items.length),
    prompt: vscode.l10n.t(
      'The promotion is blocked. To promote anyway, type the reason (it is kept in the log with the result); Escape cancels.',
    ),
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type a reason, or press Escape to cancel.')),
  });
  if (!reason?.trim()) {
    log.warn(`Promotion of ${agentName} from ${environment} blocked by failing conversation tests: ${summary}`);
    return false;
  }
  log.warn(
    `Promoting ${agentName} from ${environment} although conversation tests failed (${summary}). Reason given: ${reason.trim()}`,
  );
  return true;
}
