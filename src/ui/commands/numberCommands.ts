import * as vscode from 'vscode';
import type { ImportPhoneNumbersResponse, PhoneNumber } from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { platformContract } from '../model/platformClients';
import type { Connection } from '../connection/connection';
import { ConnectorNode, NumbersNode } from '../explorer/agents/telephonyNodes';
import { type AgentArg, resolveAgent } from '../connection/agentChoice';
import { requireModel, runCommand, UserFacingError, withProgress } from '../common/commandSupport';
import type { ProfileModels } from '../model/profileModels';
import { Command } from '../ids';
import { prompts } from '../common/prompts';
import { findHolders, holderText, type NumberHolder } from './numberHolders';
import { environmentItems, servedVersions } from './environmentChoice';

/** Splits pasted text into numbers: commas, semicolons, spaces between groups of digits are not separators. */
export function splitNumbers(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((s) => s.replace(/[\s().-]/g, ''))
    .filter(Boolean);
}

export interface ImportReport extends ImportPhoneNumbersResponse {
  /** Numbers refused before sending, with why. */
  rejected: Array<{ number: string; reason: string }>;
  /**
   * Numbers sent that the answer names neither as imported nor as skipped: the spec's answer shows only
   * `imported`, so a platform that says no more leaves these unexplained (often numbers it already had).
   */
  unreported: string[];
  /** Numbers given more than once in the input (sent once). */
  duplicates: string[];
  /** Numbers not imported because they are held already, with who holds each where a number list shows it. */
  held: NumberHolder[];
}

/** The platform names a refused number by its place in the request (`phoneNumbers[4]`): name the number instead. */
export function namingNumbers(message: string, sent: readonly string[]): string {
  return message.replace(/phoneNumbers\[(\d+)\]/g, (whole, i: string) => sent[Number(i)] ?? whole);
}

/** This editor's limit on numbers per import (the spec shows none). */
function maxPerImport(): number {
  return vscode.workspace.getConfiguration('agentWorkbench.numbers').get<number>('maxPerImport', 100);
}

function countNumbers(n: number): string {
  return n === 1 ? vscode.l10n.t('1 number') : vscode.l10n.t('{0} numbers', n);
}

/** Import numbers (several at once, each checked as E.164 first) and list numbers by connector. */
export function registerNumberCommands(connection: Connection, models: ProfileModels<object>): vscode.Disposable {
  /** What was typed per agent until an import of it succeeds. */
  const typedBefore = new Map<string, string>();
  async function importNumbers(
    arg?: AgentArg | NumbersNode,
    given?: { numbers?: string[]; clientEnv?: Environment; connectorId?: string },
  ): Promise<ImportReport | undefined> {
    const agent = await resolveAgent(models, arg instanceof NumbersNode ? arg.agentNode : arg);
    if (!agent) return undefined;
    // This editor's own rules, not the platform's (the spec shows no format or count for imports): numbers go out
    // in E.164 form, and at most `maxPerImport` at a time, since an imported number cannot be removed through the API.
    const problemOf = platformContract().agentsContract.phoneNumberProblem;
    const most = maxPerImport();
    const tooMany = (n: number) =>
      vscode.l10n.t(
        'This editor imports at most {0} numbers at a time (setting agentWorkbench.numbers.maxPerImport); {1} were given.',
        most,
        n,
      );
    const named = (list: string[]) => list.map((n) => vscode.l10n.t('{0} ({1})', n, problemOf(n) ?? '')).join(', ');
    let numbers = given?.numbers;
    if (!numbers) {
      const text = await prompts.input({
        title: vscode.l10n.t('Import Phone Numbers to {0} (1/2)', agent.name),
        prompt: vscode.l10n.t(
          'Numbers in E.164 form, separated by commas or new lines, e.g. +14155550123, +442071838750',
        ),
        // What was typed before comes back after a failure, so a retry is one correction away.
        value: typedBefore.get(agent.agentId),
        ignoreFocusOut: true,
        validateInput: (v) => {
          const list = splitNumbers(v);
          if (list.length === 0) return vscode.l10n.t('Enter at least one number.');
          if (new Set(list).size > most) return tooMany(new Set(list).size);
          const bad = list.filter((n) => problemOf(n) !== undefined);
          if (bad.length === 0) return undefined;
          return bad.length === 1
            ? vscode.l10n.t('This editor sends numbers in E.164 form: {0}', named(bad))
            : vscode.l10n.t('This editor sends numbers in E.164 form; not these {0}: {1}', bad.length, named(bad));
        },
      });
      if (text === undefined) return undefined;
      typedBefore.set(agent.agentId, text);
      numbers = splitNumbers(text);
    }
    // Each number is judged alone: a refused one is reported by name and the others are still imported.
    const unique = [...new Set(numbers)];
    const valid = unique.filter((n) => problemOf(n) === undefined);
    const rejected = unique
      .filter((n) => problemOf(n) !== undefined)
      .map((n) => ({ number: n, reason: problemOf(n)! }));
    if (valid.length === 0)
      throw new UserFacingError(
        vscode.l10n.t(
          'Nothing was imported: this editor sends numbers in E.164 form, not {0}.',
          named(unique) || vscode.l10n.t('an empty list'),
        ),
      );
    if (valid.length > most) throw new UserFacingError(tooMany(valid.length));
    // The default is where the agent is deployed (the selected environment when it is deployed there).
    const served = given?.clientEnv
      ? undefined
      : await requireModel(models)
          .agents.agent(agent.agentId)
          .knownDeployments.get()
          .then((known) => servedVersions(known.items))
          .catch(() => undefined);
    const clientEnv =
      given?.clientEnv ??
      (
        await prompts.pick(environmentItems(vscode.l10n, connection.profiles.environment, served), {
          title: vscode.l10n.t('Import Phone Numbers to {0} (2/2)', agent.name),
          placeHolder: vscode.l10n.t('Environment whose agent answers calls to these numbers'),
        })
      )?.label;
    if (!clientEnv) return undefined;
    const model = requireModel(models).agents;
    const result = await withProgress(
      valid.length === 1 ? vscode.l10n.t('Importing 1 number…') : vscode.l10n.t('Importing {0} numbers…', valid.length),
      (signal) =>
        model
          .agent(agent.agentId)
          .importNumbers(
            { phoneNumbers: valid, clientEnv, ...(given?.connectorId ? { connectorId: given.connectorId } : {}) },
            signal,
          ),
    ).catch((err: unknown) => {
      throw err instanceof Error ? Object.assign(err, { message: namingNumbers(err.message, valid) }) : err;
    });
    typedBefore.delete(agent.agentId);
    const skipped = result.skipped ?? [];
    const accounted = new Set([...result.imported, ...skipped.map((s) => s.number)]);
    const unreported = valid.filter((n) => !accounted.has(n));
    const givenTwice = numbers.filter((n, i) => numbers.indexOf(n) !== i);
    const duplicates = [
      ...new Set([...givenTwice, ...skipped.filter((s) => s.reason === 'duplicate').map((s) => s.number)]),
    ];
    // Held already: the platform skipped them (not as repeats), or did not report them as imported.
    const notTaken = [
      ...new Set([...skipped.filter((s) => s.reason !== 'duplicate').map((s) => s.number), ...unreported]),
    ].filter((n) => !result.imported.includes(n));
    const holders = notTaken.length
      ? await findHolders(
          notTaken,
          agent,
          () => model.agents.get(),
          (id) => model.agent(id).numbersOf(),
        )
      : [];
    const held = holders.filter((h) => h.agent || !unreported.includes(h.number));
    const unexplained = holders.filter((h) => !h.agent && unreported.includes(h.number)).map((h) => h.number);
    const report: ImportReport = { ...result, rejected, unreported, duplicates, held };
    const heldBy = held.filter((h) => h.agent);
    const unnamed = held.filter((h) => !h.agent).map((h) => h.number);
    const lines = [
      unique.length === 1
        ? vscode.l10n.t('Imported {0} of 1 number to {1} ({2}).', result.imported.length, agent.name, clientEnv)
        : vscode.l10n.t(
            'Imported {0} of {1} numbers to {2} ({3}).',
            result.imported.length,
            unique.length,
            agent.name,
            clientEnv,
          ),
      ...(duplicates.length ? [vscode.l10n.t('Given more than once, sent once: {0}.', duplicates.join(', '))] : []),
      ...(heldBy.length ? [vscode.l10n.t('Not imported, already held: {0}.', heldBy.map(holderText).join(', '))] : []),
      ...(unnamed.length
        ? [
            vscode.l10n.t(
              'Not imported, already held on the platform (its answer does not say by which agent): {0}.',
              unnamed.join(', '),
            ),
          ]
        : []),
      ...(unexplained.length
        ? [
            vscode.l10n.t(
              'Not reported as imported by the platform (it may have them already): {0}.',
              unexplained.join(', '),
            ),
          ]
        : []),
      ...(rejected.length
        ? [
            vscode.l10n.t(
              'Not sent, not in E.164 form: {0}.',
              rejected.map((r) => `${r.number} (${r.reason})`).join(', '),
            ),
          ]
        : []),
    ];
    if (held.length || rejected.length || unexplained.length) void prompts.warn(lines.join(' '));
    else void prompts.info(lines.join(' '));
    return report;
  }

  async function listByConnector(
    arg?: AgentArg | ConnectorNode,
    connectorId?: string,
  ): Promise<PhoneNumber[] | undefined> {
    const agent = await resolveAgent(models, arg instanceof ConnectorNode ? arg.envNode.group.agentNode : arg);
    if (!agent) return undefined;
    const model = requireModel(models).agents.agent(agent.agentId);
    let connector = arg instanceof ConnectorNode ? arg.connectorId : connectorId;
    if (!connector) {
      const all = await model.numbersOf();
      const ids = [...new Set(all.map((n) => n.connectorId))].sort();
      if (ids.length === 0) throw new UserFacingError(vscode.l10n.t('{0} has no phone numbers yet.', agent.name));
      connector = (
        await prompts.pick(
          ids.map((id) => ({ label: id, description: countNumbers(all.filter((n) => n.connectorId === id).length) })),
          { placeHolder: vscode.l10n.t('Connector') },
        )
      )?.label;
      if (!connector) return undefined;
    }
    const numbers = await model.numbersOf(connector);
    if (!connectorId) {
      void prompts.pick(
        numbers.map((n) => ({
          label: n.number,
          description: n.clientEnv,
          detail: vscode.l10n.t('connector {0} · project {1}', n.connectorId, n.projectId),
        })),
        { title: vscode.l10n.t('Numbers of connector {0}', connector) },
      );
    }
    return numbers;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      Command.importNumbers,
      (arg?: AgentArg | NumbersNode, given?: { numbers?: string[]; clientEnv?: Environment; connectorId?: string }) =>
        runCommand(() => importNumbers(arg, given)),
    ),
    vscode.commands.registerCommand(
      Command.listNumbersByConnector,
      (arg?: AgentArg | ConnectorNode, connectorId?: string) => runCommand(() => listByConnector(arg, connectorId)),
    ),
  );
}
