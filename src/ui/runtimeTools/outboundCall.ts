import * as vscode from 'vscode';
import type { OutboundEncryption, PhoneNumberResult } from '../../contract/outbound';
import { platformContract } from '../model/platformClients';
import type { Connection } from '../connection/connection';
import { requireClients, runCommand, withProgress } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
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

/** Asks the number, its country when national, the metadata pairs and the encryption. Nothing is sent here. */
async function askCall(): Promise<Omit<PlacedCall, 'callSid'> | undefined> {
  const title = vscode.l10n.t('Place Test Call');
  const { normalizeToNumber } = outbound();
  const number = await prompts.input({
    title,
    prompt: vscode.l10n.t(
      'Number to call: E.164 such as +14155550123, or a national number (its country is asked next)',
    ),
    ignoreFocusOut: true,
    validateInput: (v) => {
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
  if (number === undefined) return undefined;
  let toNumber = number.trim();
  if (!toNumber.startsWith('+')) {
    const country = await prompts.input({
      title,
      prompt: vscode.l10n.t('Country of {0}: two letters such as US, GB or DE', toNumber),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const checked = normalizeToNumber(toNumber, v.trim());
        return checked.ok
          ? invalidNumberProblem(checked, v.trim())
          : checked.field === 'country_code'
            ? vscode.l10n.t('"{0}" is not a country code with a numbering plan.', v.trim())
            : vscode.l10n.t('This number {0}.', checked.message);
      },
    });
    if (country === undefined) return undefined;
    const checked = normalizeToNumber(toNumber, country.trim());
    if (!checked.ok || invalidNumberProblem(checked, country.trim())) return undefined;
    toNumber = checked.e164;
  } else {
    const checked = normalizeToNumber(toNumber);
    if (!checked.ok || invalidNumberProblem(checked)) return undefined;
    toNumber = checked.e164;
  }
  const metadata = await askMetadata(title);
  if (!metadata) return undefined;
  const { OUTBOUND_ENCRYPTIONS, DEFAULT_OUTBOUND_ENCRYPTION } = outbound();
  const encryption = await prompts.pick(
    OUTBOUND_ENCRYPTIONS.map((e) => ({
      label: e,
      description: e === DEFAULT_OUTBOUND_ENCRYPTION ? vscode.l10n.t('default') : undefined,
    })),
    { title, placeHolder: vscode.l10n.t('Encryption of the call (signalling/media)') },
  );
  if (!encryption) return undefined;
  return { toNumber, metadata, encryption: encryption.label };
}

/** One `key=value` pair a box, until an empty answer; the encoded size is shown as typed and an oversized pair is refused. */
async function askMetadata(title: string): Promise<Record<string, string> | undefined> {
  const metadata: Record<string, string> = {};
  for (;;) {
    const count = Object.keys(metadata).length;
    const typed = await prompts.input({
      title,
      prompt:
        count === 0
          ? vscode.l10n.t(
              'Metadata for the agent, one key=value pair at a time (values are sent as strings). Leave empty to go on.',
            )
          : count === 1
            ? vscode.l10n.t('1 metadata pair so far. Another key=value, or leave empty to go on.')
            : vscode.l10n.t('{0} metadata pairs so far. Another key=value, or leave empty to go on.', count),
      ignoreFocusOut: true,
      validateInput: (v) => {
        if (!v.trim()) return { message: sizeLine(metadata).text, severity: vscode.InputBoxValidationSeverity.Info };
        const pair = splitPair(v);
        if (!pair || !pair.key) return vscode.l10n.t('Write a pair as key=value.');
        const line = sizeLine({ ...metadata, [pair.key]: pair.value });
        if (line.over) return vscode.l10n.t('Too large: {0} It must stay under the limit.', line.text);
        return { message: line.text, severity: vscode.InputBoxValidationSeverity.Info };
      },
    });
    if (typed === undefined) return undefined;
    const pair = splitPair(typed);
    if (!pair) return metadata;
    metadata[pair.key] = pair.value;
  }
}

/** Place a test call from the editor: one attempt, a Retry offered by the error only when the platform says nothing was done. */
export function registerOutboundCallCommand(
  connection: Connection,
  openConversation?: OpenCallConversation,
): vscode.Disposable {
  async function send(call: Omit<PlacedCall, 'callSid'>): Promise<PlacedCall> {
    const client = requireClients(connection).outbound;
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

  async function placeTestCall(): Promise<PlacedCall | undefined> {
    requireClients(connection);
    const call = await askCall();
    if (!call) return undefined;
    // A call is never placed twice by itself: Retry is the person's choice, after a 500 that placed nothing.
    const attempt = (): Promise<PlacedCall | undefined> => runCommand(() => send(call), { retry: attempt });
    return attempt();
  }

  return vscode.commands.registerCommand(Command.placeTestCall, () => runCommand(placeTestCall));
}
