import * as vscode from 'vscode';
import type { ImportPhoneNumbersResponse, PhoneNumber } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { clientRuntime } from '../clientRuntime';
import type { Connection } from '../connection/connection';
import { ConnectorNode, NumbersNode } from '../explorer/agents/telephonyNodes';
import { type AgentArg, agentsClient, resolveAgent } from './agentCommands';
import { requireModel, runCommand, UserFacingError, withProgress } from './commandSupport';
import type { ProfileModels } from '../model/profileModels';
import { Command } from '../ids';
import { prompts } from '../common/prompts';


/** Splits pasted text into numbers: commas, semicolons, spaces between groups of digits are not separators. */
export function splitNumbers(text: string): string[] {
  return text.split(/[\n,;]+/).map((s) => s.replace(/[\s().-]/g, '')).filter(Boolean);
}

export interface ImportReport extends ImportPhoneNumbersResponse {
  /** Numbers refused before sending, with why. */
  rejected: Array<{ number: string; reason: string }>;
}

/** Import numbers (several at once, each checked as E.164 first) and list numbers by connector. */
export function registerNumberCommands(connection: Connection, models: ProfileModels<object>): vscode.Disposable {
  async function importNumbers(arg?: AgentArg | NumbersNode, given?: { numbers?: string[]; clientEnv?: Environment; connectorId?: string }): Promise<ImportReport | undefined> {
    const agent = await resolveAgent(models, arg instanceof NumbersNode ? arg.agentNode : arg);
    if (!agent) return undefined;
    // The contract's pattern: the same check the client makes before sending.
    const E164 = clientRuntime().agentsContract.E164_PATTERN;
    let numbers = given?.numbers;
    if (!numbers) {
      const text = await prompts.input({
        title: vscode.l10n.t('Import Phone Numbers to {0} (1/2)', agent.name),
        prompt: vscode.l10n.t('Numbers in E.164 form, separated by commas or new lines, e.g. +14155550123, +442071838750'),
        ignoreFocusOut: true,
        validateInput: (v) => {
          const list = splitNumbers(v);
          if (list.length === 0) return vscode.l10n.t('Enter at least one number.');
          const bad = list.filter((n) => !E164.test(n));
          return bad.length ? vscode.l10n.t('Not E.164 (a + then country code and number, up to 15 digits): {0}', bad.join(', ')) : undefined;
        },
      });
      if (text === undefined) return undefined;
      numbers = splitNumbers(text);
    }
    const valid = numbers.filter((n) => E164.test(n));
    const rejected = numbers.filter((n) => !E164.test(n)).map((n) => ({ number: n, reason: vscode.l10n.t('not in E.164 form') }));
    if (valid.length === 0) throw new UserFacingError(vscode.l10n.t('Nothing was imported: no number is in E.164 form ({0}).', numbers.join(', ') || vscode.l10n.t('none given')));
    const clientEnv = given?.clientEnv ?? ((await prompts.pick(
      [{ label: 'live' as Environment, description: vscode.l10n.t('default') }, { label: 'pre-release' as Environment }, { label: 'sandbox' as Environment }],
      { title: vscode.l10n.t('Import Phone Numbers to {0} (2/2)', agent.name), placeHolder: vscode.l10n.t('Client environment the numbers route to') },
    ))?.label);
    if (!clientEnv) return undefined;
    const client = agentsClient(connection);
    const result = await withProgress(vscode.l10n.t('Importing {0} numbers…', valid.length), (signal) =>
      client.importPhoneNumbers(agent.agentId, { phoneNumbers: valid, clientEnv, ...(given?.connectorId ? { connectorId: given.connectorId } : {}) }, signal));
    const report: ImportReport = { ...result, rejected };
    const skipped = result.skipped ?? [];
    const lines = [
      vscode.l10n.t('Imported {0} of {1} numbers to {2} ({3}).', result.imported.length, numbers.length, agent.name, clientEnv),
      ...(skipped.length ? [vscode.l10n.t('Skipped: {0}.', skipped.map((s) => `${s.number} (${s.reason})`).join(', '))] : []),
      ...(rejected.length ? [vscode.l10n.t('Rejected before sending: {0}.', rejected.map((r) => `${r.number} (${r.reason})`).join(', '))] : []),
    ];
    if (skipped.length || rejected.length) void prompts.warn(lines.join(' '));
    else void prompts.info(lines.join(' '));
    requireModel(models).agents.agent(agent.agentId).numbers.invalidate();
    return report;
  }

  async function listByConnector(arg?: AgentArg | ConnectorNode, connectorId?: string): Promise<PhoneNumber[] | undefined> {
    const agent = await resolveAgent(models, arg instanceof ConnectorNode ? arg.envNode.group.agentNode : arg);
    if (!agent) return undefined;
    const client = agentsClient(connection);
    let connector = arg instanceof ConnectorNode ? arg.connectorId : connectorId;
    if (!connector) {
      const all = await client.listPhoneNumbers(agent.agentId);
      const ids = [...new Set(all.map((n) => n.connectorId))].sort();
      if (ids.length === 0) throw new UserFacingError(vscode.l10n.t('{0} has no phone numbers yet.', agent.name));
      connector = (await prompts.pick(ids.map((id) => ({ label: id, description: vscode.l10n.t('{0} numbers', all.filter((n) => n.connectorId === id).length) })), { placeHolder: vscode.l10n.t('Connector') }))?.label;
      if (!connector) return undefined;
    }
    const numbers = await client.listPhoneNumbers(agent.agentId, connector);
    if (!connectorId) {
      void prompts.pick(numbers.map((n) => ({ label: n.number, description: n.clientEnv, detail: vscode.l10n.t('connector {0} · project {1}', n.connectorId, n.projectId) })), { title: vscode.l10n.t('Numbers of connector {0}', connector) });
    }
    return numbers;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.importNumbers, (arg?: AgentArg | NumbersNode, given?: { numbers?: string[]; clientEnv?: Environment; connectorId?: string }) => runCommand(() => importNumbers(arg, given))),
    vscode.commands.registerCommand(Command.listNumbersByConnector, (arg?: AgentArg | ConnectorNode, connectorId?: string) => runCommand(() => listByConnector(arg, connectorId))),
  );
}
