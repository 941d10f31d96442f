import * as path from 'node:path';
import * as vscode from 'vscode';
import type {
  CreateWebhookEndpointRequest,
  WebhookEndpointWithSecret,
  WebhookVerification,
} from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import type { AlertsModel } from '../model/alertsModel';
import type { EndpointRecord, EndpointResult } from '../model/endpointRecord';
import type { ProfileModels } from '../model/profileModels';
import { EndpointNode } from '../explorer/alerts/endpointNodes';
import { assumedScheme } from '../common/signatureScheme';
import type { WebhookSecrets } from '../connection/webhookSecrets';
import { TreeNode } from '../explorer/treeNode';
import { MultiStepInput } from '../common/multiStep';
import { isPlatformError } from '../common/failure';
import { requireModel, runCommand, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import {
  changedEndpointFields,
  checkEndpointFields,
  endpointUrlNote,
  promptEndpoint,
  type WebhookEndpointFields,
} from './webhookInput';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** An endpoint given by a tree node, by id, or picked. */
export type EndpointArg = EndpointNode | { endpointId: string } | string | undefined;

/** How a new signing secret is handed over. Without them, the user is asked. */
export interface SecretOptions {
  /** Keep the secret in SecretStorage (true), or not (false), without asking. */
  storeSecret?: boolean;
  /** false skips the modal that shows the secret; allowed only together with storeSecret: true, so it is never lost. */
  showSecret?: boolean;
}

/** Create, edit, rotate the secret of, and delete webhook endpoints; keep or forget their signing secrets. */
export function registerWebhookCommands(models: ProfileModels<object>, secrets: WebhookSecrets): vscode.Disposable {
  /** The alerts model of the active profile, which makes every write. */
  const alerts = (): AlertsModel => requireModel(models).alerts;
  const profileId = (): string => alerts().source.profileId;

  /**
   * An endpoint by id, as the view's list or an earlier answer here knows it; never read from the platform (the
   * spec shows no read of one endpoint). One known by its id only has no name or address yet.
   */
  function endpointById(id: string): EndpointRecord {
    return alerts().endpoint(id) ?? { id, name: id, url: '', event_types: [] };
  }

  async function resolveEndpoint(arg: EndpointArg, placeHolder: string): Promise<EndpointRecord | undefined> {
    if (arg instanceof EndpointNode) return arg.endpoint.record ?? endpointById(arg.endpoint.id);
    const id = typeof arg === 'string' ? arg : arg?.endpointId;
    if (id !== undefined) return endpointById(id);
    const model = alerts();
    // The endpoints the view holds (listed, or kept here where the platform lists none); read once for both otherwise.
    const known =
      model.knownEndpoints.peek() ??
      (await withProgress(vscode.l10n.t('Loading webhook endpoints…'), (signal) =>
        untilAborted(model.knownEndpoints.get(), signal),
      ));
    const listed = known.notListed === undefined;
    if (listed && known.items.length === 0)
      throw new UserFacingError(
        vscode.l10n.t(
          'This account has no webhook endpoints yet. Create one with Agent Workbench: Create Webhook Endpoint.',
        ),
      );
    const choices: Array<vscode.QuickPickItem & { endpoint?: EndpointRecord }> = known.items
      .map((e) => e.record ?? endpointById(e.id))
      .map((e) => ({
        label: e.name,
        description: e.url,
        detail: `${e.id} · ${e.event_types.join(', ')}`,
        endpoint: e,
      }));
    // Where the platform does not list endpoints, any endpoint is reachable by its id.
    if (!listed) choices.push({ label: vscode.l10n.t('Enter an Endpoint Id…') });
    const pick = await prompts.pick(choices, { placeHolder, matchOnDescription: true, matchOnDetail: true });
    if (!pick) return undefined;
    if (pick.endpoint) return pick.endpoint;
    const typed = await askEndpointId();
    return typed ? endpointById(typed) : undefined;
  }

  function askEndpointId(): Thenable<string | undefined> {
    return prompts
      .input({
        title: vscode.l10n.t('Webhook endpoint id'),
        prompt: vscode.l10n.t('The id of the webhook endpoint, as the studio shows it'),
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type the id of the webhook endpoint.')),
      })
      .then((v) => v?.trim());
  }

  /** Adds an endpoint to the view by its id, without reading it. */
  async function addEndpointById(id?: string): Promise<string | undefined> {
    const model = alerts();
    const typed = id?.trim() || (await askEndpointId());
    if (!typed) return undefined;
    await model.add('endpoints', typed);
    return typed;
  }

  function refuseLosingSecret(opts: SecretOptions): void {
    if (opts.showSecret === false && opts.storeSecret !== true) {
      throw new UserFacingError(
        vscode.l10n.t(
          'The signing secret is shown only once: it must be shown or kept in secret storage (showSecret: false needs storeSecret: true). Nothing was sent.',
        ),
      );
    }
  }

  /**
   * Hands a new signing secret to the user: once, in one modal that offers Copy and, unless it was
   * decided already, the one choice of keeping it in SecretStorage (a kept secret is replaced without
   * asking). The endpoint exists by now, so the modal closes with "Done", never "Cancel". The secret
   * goes nowhere else.
   */
  async function handOver(
    created: WebhookEndpointWithSecret,
    owner: string,
    opts: SecretOptions,
    keptBefore: boolean,
  ): Promise<boolean> {
    const secret = created.signing_secret;
    secrets.protect(secret);
    const endpointId = created.id;
    // Without an id the secret cannot be filed here: it is shown all the same, so it is never lost.
    const canKeep = endpointId !== undefined;
    const decided = opts.storeSecret ?? (keptBefore ? true : undefined);
    const askKeep = canKeep && decided === undefined;
    let keep = canKeep && decided === true;
    let copied = false;
    if (opts.showSecret !== false) {
      const copyAndKeep = vscode.l10n.t('Copy and Keep in Secret Storage');
      const copyOnly = vscode.l10n.t('Copy Only');
      const copy = vscode.l10n.t('Copy');
      const keepText = askKeep
        ? vscode.l10n.t(
            "\n\nKeep it in VS Code's secret storage too, and Agent Workbench can check the signatures of deliveries to this endpoint. It is kept for this connection profile only; never in settings, files or logs.",
          )
        : keep
          ? keptBefore && opts.storeSecret === undefined
            ? vscode.l10n.t('\n\nIt replaces the secret kept in secret storage for signature checks.')
            : vscode.l10n.t('\n\nIt is kept in secret storage for signature checks.')
          : '';
      const answer = await prompts.ask(
        vscode.l10n.t('Signing secret of webhook endpoint "{0}"', created.name),
        {
          severity: 'info',
          detail:
            vscode.l10n.t(
              '{0}\n\nThe platform shows this secret only this once. Copy it into the receiver at {1}, which checks the signature of every delivery with it.',
              secret,
              created.url,
            ) + keepText,
          closeLabel: askKeep ? vscode.l10n.t('Close Without Copying') : vscode.l10n.t('Done'),
        },
        ...(askKeep ? [copyAndKeep, copyOnly] : [copy]),
      );
      copied = answer !== undefined;
      if (askKeep) keep = answer === copyAndKeep;
      if (copied) await vscode.env.clipboard.writeText(secret);
    } else if (askKeep) {
      keep = false;
    }
    if (!canKeep) {
      void prompts.warn(
        vscode.l10n.t(
          'The platform did not say the id of "{0}", so its signing secret cannot be kept here for signature checks. Copy it now; it cannot be read again.',
          created.name,
        ),
      );
      return false;
    }
    // Not kept: nothing older is left under this endpoint's id either.
    if (keep) await secrets.store(owner, endpointId, secret);
    else await secrets.delete(owner, endpointId);
    if (!copied && !keep) {
      void prompts.warn(
        vscode.l10n.t(
          'The signing secret of "{0}" was neither copied nor kept, and cannot be read again. Rotate it to get a new one.',
          created.name,
        ),
      );
    } else {
      void prompts.info(secretOutcome(created.name, copied, keep, keptBefore));
    }
    return keep;
  }

  async function sendNewEndpoint(body: CreateWebhookEndpointRequest, opts: SecretOptions): Promise<EndpointResult> {
    const model = alerts();
    const owner = model.source.profileId;
    let created: WebhookEndpointWithSecret;
    try {
      created = await withProgress(vscode.l10n.t('Creating webhook endpoint {0}…', body.name), (signal) =>
        model.createEndpoint(body, signal),
      );
    } catch (err) {
      if (isPlatformError(err) && err.status === 409) {
        throw new UserFacingError(
          vscode.l10n.t(
            'This account has as many webhook endpoints as it can have. Delete one, or edit one to point elsewhere, then try again. (The platform said: {0})',
            err.serverMessage ?? err.message,
          ),
        );
      }
      throw err;
    }
    const secretStored = await handOver(created, owner, opts, false);
    return { endpoint: withoutSecret(created), secretStored };
  }

  async function createEndpoint(args?: WebhookEndpointFields & SecretOptions): Promise<EndpointResult | undefined> {
    alerts();
    const opts: SecretOptions = { storeSecret: args?.storeSecret, showSecret: args?.showSecret };
    refuseLosingSecret(opts);
    let body: CreateWebhookEndpointRequest | undefined;
    if (args && (args.name !== undefined || args.url !== undefined || args.event_types !== undefined)) {
      const checked = checkEndpointFields({ name: args.name, url: args.url, event_types: args.event_types });
      const missing = (['name', 'url', 'event_types'] as const).filter((f) => checked[f] === undefined);
      if (missing.length)
        throw new UserFacingError(vscode.l10n.t('A webhook endpoint needs {0}. Nothing was sent.', missing.join(', ')));
      body = checked as CreateWebhookEndpointRequest;
      const note = endpointUrlNote(body.url);
      if (note) void prompts.warn(note.message);
    } else {
      body = await promptEndpoint(vscode.l10n.t('Create Webhook Endpoint'));
    }
    if (!body) return undefined;
    const draft = body;
    const attempt = (): Promise<EndpointResult | undefined> =>
      runCommand(() => sendNewEndpoint(draft, opts), { retry: attempt });
    return attempt();
  }

  async function editEndpoint(arg?: EndpointArg, fields?: WebhookEndpointFields): Promise<EndpointRecord | undefined> {
    const endpoint = await resolveEndpoint(arg, vscode.l10n.t('Webhook endpoint to edit'));
    if (!endpoint) return undefined;
    const next = fields
      ? checkEndpointFields(fields)
      : await promptEndpoint(vscode.l10n.t('Edit Webhook Endpoint {0}', endpoint.name), endpoint);
    if (!next) return undefined;
    const change = changedEndpointFields(endpoint, next);
    if (Object.keys(change).length === 0) {
      void prompts.info(vscode.l10n.t('Webhook endpoint "{0}" is unchanged: nothing was sent.', endpoint.name));
      return endpoint;
    }
    const model = alerts();
    const saved = await withProgress(vscode.l10n.t('Saving webhook endpoint {0}…', endpoint.name), (signal) =>
      model.updateEndpoint(endpoint.id, change, signal),
    );
    void prompts.info(
      vscode.l10n.t('Webhook endpoint "{0}" saved: {1} changed.', saved.name, Object.keys(change).join(', ')),
    );
    return saved;
  }

  async function rotateSecret(arg?: EndpointArg, opts: SecretOptions = {}): Promise<EndpointResult | undefined> {
    refuseLosingSecret(opts);
    const endpoint = await resolveEndpoint(arg, vscode.l10n.t('Webhook endpoint whose signing secret to rotate'));
    if (!endpoint) return undefined;
    const go = vscode.l10n.t('Rotate');
    const answer = await prompts.ask(
      vscode.l10n.t('Rotate the signing secret of "{0}"?', endpoint.name),
      {
        detail: vscode.l10n.t(
          'The current secret stops working at once: every delivery from now on, retries included, is signed with the new one. Receivers that still check with the old secret will reject them until you update them.',
        ),
      },
      go,
    );
    if (answer !== go) return undefined;
    const owner = profileId();
    const keptBefore = await secrets.has(owner, endpoint.id);
    const send = async (): Promise<EndpointResult> => {
      const model = alerts();
      const rotated = await withProgress(
        vscode.l10n.t('Rotating the signing secret of {0}…', endpoint.name),
        (signal) => model.rotateSecret(endpoint.id, signal),
      );
      const secretStored = await handOver(rotated, owner, opts, keptBefore);
      return { endpoint: withoutSecret(rotated), secretStored };
    };
    const attempt = (): Promise<EndpointResult | undefined> => runCommand(send, { retry: attempt });
    return attempt();
  }

  async function deleteEndpoint(arg?: EndpointArg): Promise<boolean | undefined> {
    const endpoint = await resolveEndpoint(arg, vscode.l10n.t('Webhook endpoint to delete'));
    if (!endpoint) return undefined;
    const go = vscode.l10n.t('Delete');
    const answer = await prompts.ask(
      vscode.l10n.t('Delete webhook endpoint "{0}"?', endpoint.name),
      {
        detail: vscode.l10n.t(
          '{0} stops receiving notifications at once; deliveries still waiting for it fail. Its signing secret, if kept here, is forgotten too.',
          endpoint.url || endpoint.id,
        ),
      },
      go,
    );
    if (answer !== go) return false;
    const model = alerts();
    await withProgress(vscode.l10n.t('Deleting webhook endpoint {0}…', endpoint.name), (signal) =>
      model.deleteEndpoint(endpoint.id, signal),
    );
    await secrets.delete(model.source.profileId, endpoint.id);
    void prompts.info(vscode.l10n.t('Webhook endpoint "{0}" deleted.', endpoint.name));
    return true;
  }

  async function forgetSecret(arg?: EndpointArg): Promise<boolean | undefined> {
    const endpoint = await resolveEndpoint(arg, vscode.l10n.t('Webhook endpoint whose kept signing secret to forget'));
    if (!endpoint) return undefined;
    await secrets.delete(profileId(), endpoint.id);
    void prompts.info(vscode.l10n.t('The signing secret of "{0}" is no longer kept here.', endpoint.name));
    return true;
  }

  /** Checks a delivery received by the user's receiver against the kept secret: the raw body and the three webhook headers. */
  async function verifySignature(
    arg?: EndpointArg,
    delivery?: { body: string; headers: Record<string, string> },
  ): Promise<WebhookVerification | undefined> {
    const endpoint = await resolveEndpoint(arg, vscode.l10n.t('Webhook endpoint that received the delivery'));
    if (!endpoint) return undefined;
    const secret = await secrets.get(profileId(), endpoint.id);
    if (!secret)
      throw new UserFacingError(
        vscode.l10n.t(
          'The signing secret of "{0}" is not kept here. Rotate it and choose to keep the new one, then check again.',
          endpoint.name,
        ),
      );
    const given = delivery ?? (await askDelivery(endpoint.name));
    if (!given) return undefined;
    // The receiver judges freshness when the delivery arrives; a check made later only asks whether the signature is right.
    const result = platformContract().alertsContract.verifyWebhookSignature({
      secret,
      body: given.body,
      headers: given.headers,
      toleranceSeconds: Number.MAX_SAFE_INTEGER,
    });
    if (result.ok)
      void prompts.info(
        vscode.l10n.t(
          'The signature is valid ({0}): this delivery was sent by the platform for "{1}" and its body is unchanged.',
          assumedScheme(),
          endpoint.name,
        ),
      );
    else
      void prompts.warn(
        vscode.l10n.t(
          'The signature does not check out for "{0}" ({1}): {2}.',
          endpoint.name,
          assumedScheme(),
          result.reason,
        ),
      );
    return result;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      Command.createWebhookEndpoint,
      (args?: (WebhookEndpointFields & SecretOptions) | TreeNode) =>
        runCommand(() => createEndpoint(args instanceof TreeNode ? undefined : args)),
    ),
    vscode.commands.registerCommand(Command.addWebhookEndpointById, (id?: string) =>
      runCommand(() => addEndpointById(typeof id === 'string' ? id : undefined)),
    ),
    vscode.commands.registerCommand(Command.editWebhookEndpoint, (arg?: EndpointArg, fields?: WebhookEndpointFields) =>
      runCommand(() => editEndpoint(arg, fields)),
    ),
    vscode.commands.registerCommand(Command.rotateWebhookSecret, (arg?: EndpointArg, opts?: SecretOptions) =>
      runCommand(() => rotateSecret(arg, opts)),
    ),
    vscode.commands.registerCommand(Command.deleteWebhookEndpoint, (arg?: EndpointArg) =>
      runCommand(() => deleteEndpoint(arg)),
    ),
    vscode.commands.registerCommand(Command.forgetWebhookSecret, (arg?: EndpointArg) =>
      runCommand(() => forgetSecret(arg)),
    ),
    vscode.commands.registerCommand(
      Command.verifyWebhookSignature,
      (arg?: EndpointArg, delivery?: { body: string; headers: Record<string, string> }) =>
        runCommand(() => verifySignature(arg, delivery)),
    ),
  );
}

/**
 * Asks where the raw body is, always: the text of an open editor (named, so a wrong one is not checked by
 * accident) or pasted. Then the three headers are typed.
 */
async function askBody(name: string): Promise<string | undefined> {
  const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme !== 'output');
  const active = vscode.window.activeTextEditor;
  const ordered = active ? [active, ...editors.filter((e) => e !== active)] : editors;
  const items: Array<vscode.QuickPickItem & { body: () => Thenable<string | undefined> }> = [
    ...ordered.map((e) => ({
      label: `$(file) ${vscode.l10n.t('The text of {0}', path.basename(e.document.uri.path) || e.document.uri.toString())}`,
      description:
        e.document.lineCount === 1 ? vscode.l10n.t('1 line') : vscode.l10n.t('{0} lines', e.document.lineCount),
      detail: e.document.getText().slice(0, 120),
      body: () => Promise.resolve(e.document.getText()),
    })),
    {
      label: `$(clippy) ${vscode.l10n.t('Paste the Body…')}`,
      detail: vscode.l10n.t('A body with line breaks must be opened in an editor instead: every byte counts.'),
      body: () =>
        prompts.input({
          title: vscode.l10n.t('Body of the delivery to {0}', name),
          prompt: vscode.l10n.t('The raw body, exactly as received'),
          ignoreFocusOut: true,
          validateInput: (v) => (v ? undefined : vscode.l10n.t('Paste the body, or press Escape to cancel.')),
        }),
    },
  ];
  const pick = await prompts.pick(items, {
    placeHolder: vscode.l10n.t('Where is the raw body of the delivery to {0}, exactly as received?', name),
    ignoreFocusOut: true,
  });
  return pick?.body();
}

/** The body is asked for explicitly; the headers are typed. */
async function askDelivery(name: string): Promise<{ body: string; headers: Record<string, string> } | undefined> {
  const body = await askBody(name);
  if (body === undefined) return undefined;
  const title = vscode.l10n.t('Check a Delivery to {0}', name);
  const required = (v: string): string | undefined => (v.trim() ? undefined : vscode.l10n.t('Paste the header value.'));
  const headers = await MultiStepInput.run<Record<string, string>>(3, {}, [
    async (input, h) => {
      h['webhook-id'] = await input.text({
        title,
        prompt: vscode.l10n.t('Value of the webhook-id header'),
        validate: required,
      });
      return 1;
    },
    async (input, h) => {
      h['webhook-timestamp'] = await input.text({
        title,
        prompt: vscode.l10n.t('Value of the webhook-timestamp header'),
        validate: (v) => (/^\d+$/.test(v.trim()) ? undefined : vscode.l10n.t('Seconds since 1970, digits only.')),
      });
      return 2;
    },
    async (input, h) => {
      h['webhook-signature'] = await input.text({
        title,
        prompt: vscode.l10n.t('Value of the webhook-signature header (v1,…)'),
        validate: required,
      });
      return 'done';
    },
  ]);
  return headers ? { body, headers } : undefined;
}

/** What became of a new signing secret, in one notification. */
function secretOutcome(name: string, copied: boolean, kept: boolean, keptBefore: boolean): string {
  if (copied && kept)
    return keptBefore
      ? vscode.l10n.t('Signing secret copied. It also replaced the one kept in secret storage for "{0}".', name)
      : vscode.l10n.t(
          'Signing secret copied. It is also kept in secret storage for "{0}", for this connection profile.',
          name,
        );
  if (copied)
    return vscode.l10n.t('Signing secret copied. Paste it into the receiver of "{0}"; it cannot be read again.', name);
  return keptBefore
    ? vscode.l10n.t('The signing secret of "{0}" kept in secret storage was replaced by the new one.', name)
    : vscode.l10n.t('The signing secret of "{0}" is kept in secret storage for this connection profile.', name);
}

function withoutSecret(endpoint: WebhookEndpointWithSecret): EndpointRecord {
  // An id the platform did not say stays empty; the view lists the endpoint by its own id after a refresh.
  return {
    id: endpoint.id ?? '',
    name: endpoint.name,
    url: endpoint.url,
    event_types: endpoint.event_types,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}
