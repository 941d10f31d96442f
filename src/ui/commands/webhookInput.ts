import * as vscode from 'vscode';
import type { UpdateWebhookEndpointRequest, WebhookEventType } from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import { MultiStepInput } from '../common/multiStep';
import type { EndpointRecord } from '../model/endpointRecord';
import { UserFacingError } from '../common/commandSupport';
import { prompts, type StepNote } from '../common/prompts';

/** Fields of a webhook endpoint as a caller gives them: the API's own names. */
export interface WebhookEndpointFields {
  name?: string;
  url?: string;
  event_types?: string[];
}

function contract() {
  return platformContract().alertsContract;
}

/**
 * The spec shows `name` and `url` as strings and no limit on them: only an empty one is refused here, and
 * anything else is sent for the platform to judge (its answer is shown).
 */
export function checkEndpointName(value: string): string | undefined {
  return value.trim() ? undefined : vscode.l10n.t('Give the webhook endpoint a name.');
}

export function checkEndpointUrl(value: string): string | undefined {
  return value.trim()
    ? undefined
    : vscode.l10n.t('Give the address that receives the notifications, such as https://example.com/hooks/alerts.');
}

/** A loopback host: plain http there never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * What an acceptable address still risks, as a warning that does not refuse it: a user name or password
 * in the address (sent along and kept by the platform), or plain http to another machine (deliveries
 * and their signatures readable on the way).
 */
export function endpointUrlNote(value: string): StepNote | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password)
    return {
      severity: 'warning',
      message: vscode.l10n.t(
        'This address carries a user name or password: the platform keeps it and shows it to anyone who can read the endpoint. Prefer checking signatures in the receiver.',
      ),
    };
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return {
      severity: 'warning',
      message: vscode.l10n.t(
        'Plain http to {0}: notifications travel unencrypted. Use https unless the receiver is on this machine.',
        url.host,
      ),
    };
  return undefined;
}

export function checkEventTypes(values: readonly string[]): string | undefined {
  const allowed: readonly string[] = contract().WEBHOOK_EVENT_TYPES;
  if (values.length === 0) return vscode.l10n.t('Choose at least one event type ({0}).', allowed.join(', '));
  // The spec names these "for example": another name is sent as given, for the platform to judge.
  if (values.some((v) => typeof v !== 'string' || v.trim() === ''))
    return vscode.l10n.t('Name each event type, such as {0}.', allowed.join(', '));
  if (new Set(values).size !== values.length) return vscode.l10n.t('Name each event type once.');
  return undefined;
}

/** Checks the fields a caller gave, all at once; throws one error naming every problem (nothing is sent). */
export function checkEndpointFields(fields: WebhookEndpointFields): UpdateWebhookEndpointRequest {
  const problems: string[] = [];
  const out: UpdateWebhookEndpointRequest = {};
  if (fields.name !== undefined) {
    const p =
      typeof fields.name === 'string' ? checkEndpointName(fields.name) : vscode.l10n.t('The name must be text.');
    if (p) problems.push(p);
    else out.name = fields.name.trim();
  }
  if (fields.url !== undefined) {
    const p = typeof fields.url === 'string' ? checkEndpointUrl(fields.url) : vscode.l10n.t('The URL must be text.');
    if (p) problems.push(p);
    else out.url = fields.url.trim();
  }
  if (fields.event_types !== undefined) {
    const p = Array.isArray(fields.event_types)
      ? checkEventTypes(fields.event_types.map(String))
      : vscode.l10n.t('event_types must be a list.');
    if (p) problems.push(p);
    else out.event_types = fields.event_types as WebhookEventType[];
  }
  if (problems.length) throw new UserFacingError(`${problems.join(' ')} ${vscode.l10n.t('Nothing was sent.')}`);
  return out;
}

/** The fields of `next` that differ from `endpoint`: what an edit sends. */
export function changedEndpointFields(
  endpoint: EndpointRecord,
  next: UpdateWebhookEndpointRequest,
): UpdateWebhookEndpointRequest {
  const change: UpdateWebhookEndpointRequest = {};
  if (next.name !== undefined && next.name !== endpoint.name) change.name = next.name;
  if (next.url !== undefined && next.url !== endpoint.url) change.url = next.url;
  if (next.event_types !== undefined && [...next.event_types].sort().join() !== [...endpoint.event_types].sort().join())
    change.event_types = next.event_types;
  return change;
}

interface Draft {
  name: string;
  url: string;
  event_types: WebhookEventType[];
}

/** Asks for name and URL (with Back, checked as typed), then the event types (several may be chosen). */
export async function promptEndpoint(title: string, initial?: EndpointRecord): Promise<Draft | undefined> {
  const draft: Draft = { name: initial?.name ?? '', url: initial?.url ?? '', event_types: [] };
  const first = await MultiStepInput.run<Draft>(3, draft, [
    async (input, d) => {
      d.name = await input.text({
        title,
        prompt: vscode.l10n.t('Name of the webhook endpoint'),
        value: d.name,
        validate: checkEndpointName,
      });
      return 1;
    },
    async (input, d) => {
      d.url = await input.text({
        title,
        prompt: vscode.l10n.t('Address that receives the signed notifications (http or https)'),
        placeholder: 'https://example.com/hooks/alerts',
        value: d.url,
        validate: (v) => checkEndpointUrl(v) ?? endpointUrlNote(v),
      });
      return 'done';
    },
  ]);
  if (!first) return undefined;
  const current = new Set(initial?.event_types ?? contract().WEBHOOK_EVENT_TYPES);
  const explain: Record<WebhookEventType, string> = {
    'alerts.triggered': vscode.l10n.t('a rule starts firing'),
    'alerts.resolved': vscode.l10n.t('a firing rule is back within its threshold'),
  };
  // Ask again until at least one event type is chosen, so the name and address typed are kept.
  let picked: ReadonlyArray<{ value: WebhookEventType }> | undefined;
  let placeHolder = vscode.l10n.t('Events to send to {0}', first.url);
  for (;;) {
    picked = await prompts.pickMany(
      contract().WEBHOOK_EVENT_TYPES.map((t) => ({
        label: t,
        description: explain[t],
        picked: current.has(t),
        value: t,
      })),
      { title: vscode.l10n.t('{0} (step 3 of 3)', title), placeHolder, ignoreFocusOut: true },
    );
    if (!picked) return undefined;
    const problem = checkEventTypes(picked.map((p) => p.value));
    if (!problem) break;
    placeHolder = `${problem} ${vscode.l10n.t('Choose at least one, or press Escape to cancel.')}`;
  }
  return { ...first, event_types: picked.map((p) => p.value) };
}
