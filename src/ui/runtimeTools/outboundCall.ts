import * as vscode from 'vscode';
import type { OutboundEncryption, PhoneNumberResult } from '../../contract/outbound';
import { platformContract } from '../model/platformClients';
import { agentIdOf, reachAgentById, reachedAgentName } from '../connection/agentReach';
import type { Connection } from '../connection/connection';
import { requireClients, runCommand, withProgress } from '../common/commandSupport';
import { MultiStepInput } from '../common/multiStep';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import { copyAction, formatSize } from './toolSupport';

/** What a placed test call gives back (also to automation and tests). */
export interface PlacedCall {
  callSid: string;
  /** The number as sent, in E.164. */
  toNumber: string;
  encryption: OutboundEncryption;
  metadata: Record<string, string>;
}

/**
 * Opens the conversation of a placed call. The transcript viewer hands one to
 * {@link registerOutboundCallCommand}.
 */
export type OpenCallConversation = (callSid: string) => Thenable<unknown>;

const outbound = () => platformContract().outboundContract;

/** The live line under the metadata box: the encoded size against the platform's 26 KB limit. */
function sizeLine(metadata: Record<string, string>): { text: string; over: boolean } {
  const { metadataBase64Bytes, OUTBOUND_METADATA_MAX_BASE64_BYTES: max } = outbound();
  const size = metadataBase64Bytes(metadata);
  return {
    text: vscode.l10n.t('Metadata is {0} of {1} once encoded (base64).', formatSize(size), formatSize(max)),
    over: size >= max,
  };
}

/** Reads `key=value`; the value is a string as typed (the platform takes string values only). */
function splitPair(text: string): { key: string; value: string } | undefined {
  const at = text.indexOf('=');
  if (at <= 0) return undefined;
  return { key: text.slice(0, at).trim(), value: text.slice(at + 1) };
}

/**
 * This editor's guard, not the platform's (which refuses only an unparseable number): a call rings a real
 * phone at once, so a number libphonenumber-js does not know as valid is stopped unless the setting is off.
 */
function invalidNumberProblem(checked: PhoneNumberResult, country?: string): string | undefined {
  if (!checked.ok || checked.valid) return undefined;
  if (!vscode.workspace.getConfiguration('agentWorkbench.outbound').get<boolean>('checkNumberValidity', true))
    return undefined;
  return country === undefined
    ? vscode.l10n.t(
        'This number could not be parsed as a valid phone number: this editor checks it before a phone rings (setting agentWorkbench.outbound.checkNumberValidity).',
      )
    : vscode.l10n.t(
        'This number could not be parsed as a valid phone number for country {0}: this editor checks it before a phone rings (setting agentWorkbench.outbound.checkNumberValidity).',
        country.toUpperCase(),
      );
}

interface CallDraft {
  number: string;
  /** Set when the number was typed in national form. */
  country?: string;
  toNumber: string;
  pairs: Array<{ key: string; value: string }>;
  encryption?: OutboundEncryption;
}

/** The most metadata pairs asked one at a time; far beyond what fits in the platform's 26 KB. */
const MAX_PAIRS = 256;

const metadataOf = (pairs: CallDraft['pairs']): Record<string, string> =>
  Object.fromEntries(pairs.map((p) => [p.key, p.value]));

/**
 * Asks the number, its country when national, the metadata pairs and the encryption, in one multi-step input
 * with Back (a national number typed without its country can be corrected). Nothing is sent here.
 */
async function askCall(agentName: string | undefined): Promise<Omit<PlacedCall, 'callSid'> | undefined> {
  // The agent that will speak: the one the profile's runtime keys reach.
  const title = agentName ? vscode.l10n.t('Place Test Call: {0} calls', agentName) : vscode.l10n.t('Place Test Call');
  const { normalizeToNumber, OUTBOUND_ENCRYPTIONS, DEFAULT_OUTBOUND_ENCRYPTION } = outbound();
  const NUMBER = 0;
  const COUNTRY = 1;
  const ENCRYPTION = 2;
  const PAIR = 3;
  const numberStep = async (input: MultiStepInput, d: CallDraft): Promise<number> => {
    d.number = await input.text({
      title,
      prompt: vscode.l10n.t(
        'Number to call: E.164 such as +14155550123, or a national number (its country is asked next)',
      ),
      value: d.number,
      validate: (v) => {
        const text = v.trim();
        if (!text) return vscode.l10n.t('Enter the number to call.');
        if (!text.startsWith('+'))
          return /^[\d\s().-]+$/.test(text)
            ? undefined
            : vscode.l10n.t('A phone number has digits, spaces, dashes or brackets, and may start with +.');
        const checked = normalizeToNumber(text);
        return checked.ok ? invalidNumberProblem(checked) : vscode.l10n.t('This number {0}.', checked.message);
      },
    });
    if (!d.number.startsWith('+')) return COUNTRY;
    const checked = normalizeToNumber(d.number);
    if (!checked.ok) return NUMBER;
    d.country = undefined;
    d.toNumber = checked.e164;
    return PAIR;
  };
  const countryStep = async (input: MultiStepInput, d: CallDraft): Promise<number> => {
    const country = await input.text({
      title,
      prompt: vscode.l10n.t(
        'Country of {0}: two letters such as US, GB or DE (Back to type the number in E.164 form instead)',
        d.number,
      ),
      value: d.country ?? '',
      validate: (v) => {
        const checked = normalizeToNumber(d.number, v.trim());
        return checked.ok
          ? invalidNumberProblem(checked, v.trim())
          : checked.field === 'country_code'
            ? vscode.l10n.t('"{0}" is not a country code with a numbering plan.', v.trim())
            : vscode.l10n.t('This number {0}.', checked.message);
      },
    });
    const checked = normalizeToNumber(d.number, country);
    if (!checked.ok) return COUNTRY;
    d.country = country;
    d.toNumber = checked.e164;
    return PAIR;
  };
  /** One `key=value` pair a step, until an empty answer; the encoded size is shown as typed and an oversized pair is refused. */
  const pairStep =
    (k: number) =>
    async (input: MultiStepInput, d: CallDraft): Promise<number> => {
      const before = d.pairs.slice(0, k);
      const kept = metadataOf(before);
      const previous = d.pairs[k];
      const typed = await input.text({
        title,
        prompt:
          k === 0
            ? vscode.l10n.t(
                'Metadata for the agent, one key=value pair at a time (values are sent as strings). Leave empty to go on.',
              )
            : k === 1
              ? vscode.l10n.t('1 metadata pair so far. Another key=value, or leave empty to go on.')
              : vscode.l10n.t('{0} metadata pairs so far. Another key=value, or leave empty to go on.', k),
        value: previous ? `${previous.key}=${previous.value}` : '',
        validate: (v) => {
          if (!v.trim()) return { message: sizeLine(kept).text, severity: 'info' };
          const pair = splitPair(v);
          if (!pair || !pair.key) return vscode.l10n.t('Write a pair as key=value.');
          const line = sizeLine({ ...kept, [pair.key]: pair.value });
          if (line.over) return vscode.l10n.t('Too large: {0} It must stay under the limit.', line.text);
          return { message: line.text, severity: 'info' };
        },
      });
      const pair = splitPair(typed);
      if (!pair || !pair.key || k + 1 >= MAX_PAIRS) {
        d.pairs = before;
        return ENCRYPTION;
      }
      d.pairs = [...before, pair];
      return PAIR + k + 1;
    };
  const encryptionStep = async (input: MultiStepInput, d: CallDraft): Promise<'done'> => {
    const items = OUTBOUND_ENCRYPTIONS.map((e) => ({
      label: e,
      description: e === DEFAULT_OUTBOUND_ENCRYPTION ? vscode.l10n.t('default') : undefined,
    }));
    const pick = await input.pick({
      title,
      placeholder: vscode.l10n.t('Encryption of the call (signalling/media)'),
      items,
      active: items.find((i) => i.label === (d.encryption ?? DEFAULT_OUTBOUND_ENCRYPTION)),
    });
    d.encryption = pick.label;
    return 'done';
  };
  // Four steps, numbered by their place: number, country (only for a national number: else the counter goes from
  // 1/4 to 3/4), the metadata pairs (one step, however many pairs: each says how many so far), encryption. The total
  // stays the same as the person goes.
  const place = (index: number): number =>
    index === NUMBER ? 1 : index === COUNTRY ? 2 : index === ENCRYPTION ? 4 : 3;
  const draft: CallDraft = { number: '', toNumber: '', pairs: [] };
  const done = await MultiStepInput.run<CallDraft>(
    4,
    draft,
    [numberStep, countryStep, encryptionStep, ...Array.from({ length: MAX_PAIRS }, (_, k) => pairStep(k))],
    place,
  );
  if (!done?.encryption) return undefined;
  return { toNumber: done.toNumber, metadata: metadataOf(done.pairs), encryption: done.encryption };
}

/** Place a test call from the editor: one attempt, a Retry offered by the error only when the platform says nothing was done. */
export function registerOutboundCallCommand(
  connection: Connection,
  models: ProfileModels<object>,
  openConversation?: OpenCallConversation,
): vscode.Disposable {
  async function send(call: Omit<PlacedCall, 'callSid'>, via: Connection): Promise<PlacedCall> {
    const client = requireClients(via).outbound;
    const reply = await withProgress(vscode.l10n.t('Calling {0}…', call.toNumber), (signal) =>
      client.placeCall({ to_number: call.toNumber, metadata: call.metadata, encryption: call.encryption }, signal),
    );
    const placed: PlacedCall = { ...call, callSid: reply.call_sid };
    const open = vscode.l10n.t('Open Conversation');
    const actions = openConversation ? [copyAction(), open] : [copyAction()];
    void prompts
      .info(
        vscode.l10n.t('Call {0} placed to {1} ({2}).', placed.callSid, placed.toNumber, placed.encryption),
        ...actions,
      )
      .then(async (choice) => {
        if (choice === copyAction()) await vscode.env.clipboard.writeText(placed.callSid);
        if (choice === open) await openConversation?.(placed.callSid);
      });
    return placed;
  }

  async function placeTestCall(arg?: unknown): Promise<PlacedCall | undefined> {
    requireClients(connection);
    const reached = await reachAgentById(connection, models, agentIdOf(arg), undefined, vscode.l10n.t('A test call'));
    if (!reached) return undefined;
    const call = await askCall(reached.agent?.name ?? reachedAgentName(connection, models));
    if (!call) return undefined;
    // A call is never placed twice by itself: Retry is the person's choice, after a 500 that placed nothing.
    const attempt = (): Promise<PlacedCall | undefined> =>
      runCommand(() => send(call, connection.through(reached.profile)), { retry: attempt });
    return attempt();
  }

  return vscode.commands.registerCommand(Command.placeTestCall, (arg?: unknown) =>
    runCommand(() => placeTestCall(arg)),
  );
}
