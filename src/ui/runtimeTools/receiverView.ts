import * as vscode from 'vscode';
import { shownRow } from '../common/shownRow';
import { markdownStrong, markdownText } from '../../core/shownText';
import { DisposableStore } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { platformContract } from '../model/platformClients';
import type { Connection } from '../connection/connection';
import { assumedScheme } from '../common/signatureScheme';
import type { WebhookSecrets } from '../connection/webhookSecrets';
import { runCommand, UserFacingError } from '../common/commandSupport';
import type { EndpointResult } from '../model/endpointRecord';
import { prompts } from '../common/prompts';
import { Command, ContextKey, ItemContext, View } from '../ids';
import type { Log } from '../log';
import { Scheme } from '../uris';
import type { ProfileModels } from '../model/profileModels';
import { formatAmount, metricLabel, operatorWords, stateLabel } from '../common/alertFormat';
import { copyAction } from './toolSupport';
import { type ReceivedDelivery, type Verdict, WebhookReceiver, type WebhookVerifier } from './webhookReceiver';

/** What Start Webhook Receiver gives back: where it listens, and the endpoint registered for it, if any. */
export interface ReceiverStarted {
  url: string;
  endpoint?: { id: string; name: string };
}

/** Every verdict says which scheme it rests on, since the specification does not give one. */
export function verdictText(verdict: Verdict): string {
  if (!verdict.verified && verdict.checking) return vscode.l10n.t('checking the signature…');
  return verdict.verified ? vscode.l10n.t('verified (assumed scheme)') : vscode.l10n.t('unverified (assumed scheme)');
}

/** A value of a delivery in its metric's unit; "unknown" when the delivery did not carry it. */
function amount(metric: string, value: unknown): string {
  return typeof value === 'number' ? formatAmount(metric, value) : vscode.l10n.t('unknown');
}

function deliveryItem(d: ReceivedDelivery): vscode.TreeItem {
  const label = [d.eventType ?? vscode.l10n.t('not an alert notification'), d.ruleName].filter(Boolean).join(' · ');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `${d.id}@${d.receivedAt.getTime()}`;
  item.description = `${verdictText(d.verdict)} · ${d.receivedAt.toLocaleTimeString()}`;
  // The verdict is in the icon's colour and the accessibility label too: a narrow sidebar cuts the description.
  item.iconPath = d.verdict.verified
    ? new vscode.ThemeIcon('verified-filled', new vscode.ThemeColor('charts.green'))
    : d.verdict.checking
      ? new vscode.ThemeIcon('loading~spin')
      : new vscode.ThemeIcon('unverified', new vscode.ThemeColor('list.warningForeground'));
  item.accessibilityInformation = { label: `${label}, ${item.description}` };
  item.contextValue = ItemContext.webhookDelivery(d.verdict.verified);
  const v = d.values ?? {};
  // Anyone who can reach the receiver can post to it: every value of a delivery is shown as written.
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`${markdownStrong(label)}\n\n`);
  if (v.metric)
    md.appendMarkdown(
      `${markdownText(vscode.l10n.t('{0} was {1} ({2} {3})', metricLabel(v.metric), amount(v.metric, v.current), operatorWords(v.operator ?? ''), amount(v.metric, v.threshold)))}\n\n`,
    );
  if (v.previousState)
    md.appendMarkdown(`${markdownText(vscode.l10n.t('Previous state: {0}', stateLabel(v.previousState)))}\n\n`);
  if (v.at) md.appendMarkdown(`${markdownText(vscode.l10n.t('At {0}', new Date(v.at).toLocaleString()))}\n\n`);
  md.appendMarkdown(
    markdownText(
      d.verdict.verified
        ? vscode.l10n.t(
            'Signature verified with the signing secret of "{0}" ({1}).',
            d.verdict.endpointName,
            assumedScheme(),
          )
        : d.verdict.checking
          ? vscode.l10n.t('The signature is being checked ({0}).', assumedScheme())
          : vscode.l10n.t('Signature not verified ({0}): {1}.', assumedScheme(), d.verdict.reason),
    ),
  );
  item.tooltip = md;
  item.command = {
    command: Command.openWebhookDelivery,
    title: vscode.l10n.t('Open Webhook Delivery'),
    arguments: [d],
  };
  return item;
}

/**
 * The checker of the assumed scheme: the kept signing secrets of this profile's endpoints that point at the
 * receiver. The endpoints are read afresh into the model for each delivery (an endpoint removed elsewhere no
 * longer verifies), so the Alerts view lists the same endpoints the verdict rests on.
 */
function verifierOf(models: ProfileModels<object>, secrets: WebhookSecrets): WebhookVerifier {
  return async (body, headers, receiverUrl) => {
    const model = models.active();
    if (!model) return { verified: false, reason: vscode.l10n.t('no connection profile is active') };
    const endpoints = (await model.alerts.endpoints.refresh()).filter((e) => e.url === receiverUrl);
    if (endpoints.length === 0)
      return {
        verified: false,
        reason: vscode.l10n.t('no webhook endpoint of this profile points at {0}', receiverUrl),
      };
    let reason: string | undefined;
    for (const endpoint of endpoints) {
      const secret = await secrets.get(model.profileId, endpoint.id);
      if (!secret) continue;
      const result = platformContract().alertsContract.verifyWebhookSignature({ secret, body, headers });
      if (result.ok) return { verified: true, endpointName: endpoint.name };
      reason = result.reason;
    }
    return {
      verified: false,
      reason:
        reason ??
        vscode.l10n.t('the signing secret of {0} is not kept here', endpoints.map((e) => `"${e.name}"`).join(', ')),
    };
  };
}

/** The webhook receiver, its Webhook Deliveries view and its commands. */
export function registerWebhookReceiver(
  connection: Connection,
  models: ProfileModels<object>,
  secrets: WebhookSecrets,
  log: Log,
): DisposableStore {
  const store = new DisposableStore();
  const receiver = store.add(new WebhookReceiver(verifierOf(models, secrets), (message) => log.warn(message)));
  const changed = store.add(new Emitter<void>());
  const provider: vscode.TreeDataProvider<ReceivedDelivery> = {
    onDidChangeTreeData: changed.event,
    getChildren: (parent) => (parent ? [] : [...receiver.deliveries]),
    getTreeItem: (d) => shownRow(deliveryItem(d)),
  };
  const view = store.add(vscode.window.createTreeView(View.webhookDeliveries, { treeDataProvider: provider }));
  store.add(
    receiver.onDidChange(() => {
      changed.fire();
      void vscode.commands.executeCommand('setContext', ContextKey.webhookReceiverRunning, receiver.url !== undefined);
      view.message = receiver.url ? vscode.l10n.t('Listening at {0}', receiver.url) : undefined;
    }),
  );

  async function start(): Promise<ReceiverStarted> {
    let url: string;
    try {
      url = await receiver.start();
    } catch (err) {
      throw new UserFacingError(
        vscode.l10n.t('The webhook receiver could not listen on {0}: {1}', '127.0.0.1', (err as Error).message),
      );
    }
    log.info(`Webhook receiver listening at ${url}`);
    const register = vscode.l10n.t('Register as Endpoint');
    const answer = connection.clients
      ? await prompts.info(
          vscode.l10n.t(
            'The webhook receiver listens at {0}. Register it as a webhook endpoint, so the platform delivers alert notifications here?',
            url,
          ),
          register,
          copyAction(),
        )
      : await prompts.info(vscode.l10n.t('The webhook receiver listens at {0}.', url), copyAction());
    if (answer === copyAction()) await vscode.env.clipboard.writeText(url);
    if (answer !== register) return { url };
    const event_types = [...platformContract().alertsContract.WEBHOOK_EVENT_TYPES];
    // Kept in secret storage and not shown: the receiver checks signatures with it, nobody needs to copy it.
    const result = await vscode.commands.executeCommand<EndpointResult | undefined>(Command.createWebhookEndpoint, {
      name: vscode.l10n.t('Agent Workbench receiver'),
      url,
      event_types,
      storeSecret: true,
      showSecret: false,
    });
    return result?.endpoint.id ? { url, endpoint: { id: result.endpoint.id, name: result.endpoint.name } } : { url };
  }

  // A delivery opens as a read-only document of its own (not an untitled one that asks to be saved on close); its
  // text is made when it is opened, and kept while the receiver keeps the delivery.
  const opened = new WeakMap<ReceivedDelivery, vscode.Uri>();
  const texts = new Map<string, string>();
  let openedCount = 0;
  store.add(
    vscode.workspace.registerTextDocumentContentProvider(Scheme.delivery, {
      provideTextDocumentContent: (uri) =>
        texts.get(uri.path) ?? vscode.l10n.t('// This delivery is no longer kept by the webhook receiver.\n'),
    }),
  );
  store.add(
    receiver.onDidChange(() => {
      const kept = new Set(receiver.deliveries.map((d) => opened.get(d)?.path));
      for (const path of texts.keys()) if (!kept.has(path)) texts.delete(path);
    }),
  );

  async function openDelivery(d?: ReceivedDelivery): Promise<vscode.TextDocument | undefined> {
    if (!d) return undefined;
    const headers = Object.entries(d.headers)
      .filter(([k]) => k.startsWith('webhook-'))
      .map(([k, v]) => `${k}: ${v}`);
    let body = d.body;
    try {
      body = JSON.stringify(JSON.parse(d.body), undefined, 2);
    } catch {
      // Shown as received.
    }
    const content = `// ${verdictText(d.verdict)}${d.verdict.verified || d.verdict.checking ? '' : `: ${d.verdict.reason}`}\n${headers.map((h) => `// ${h}`).join('\n')}\n${body}\n`;
    let uri = opened.get(d);
    if (!uri) {
      const time = d.receivedAt.toISOString().slice(11, 19).replace(/:/g, '-');
      uri = vscode.Uri.from({
        scheme: Scheme.delivery,
        path: `/${++openedCount} ${d.eventType ?? 'delivery'} ${time}.jsonc`,
      });
      opened.set(d, uri);
    }
    texts.set(uri.path, content);
    const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'jsonc');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  for (const registration of [
    vscode.commands.registerCommand(Command.startWebhookReceiver, () => runCommand(start)),
    vscode.commands.registerCommand(Command.stopWebhookReceiver, () => runCommand(() => receiver.stop())),
    vscode.commands.registerCommand(Command.clearWebhookDeliveries, () => receiver.clear()),
    vscode.commands.registerCommand(Command.openWebhookDelivery, (d?: ReceivedDelivery) =>
      runCommand(() => openDelivery(d)),
    ),
    // Answers what the view lists, newest first, as the view shows it (for automation and tests).
    vscode.commands.registerCommand(Command.refreshWebhookDeliveries, () => {
      changed.fire();
      return receiver.deliveries.map((d) => ({ delivery: d, item: deliveryItem(d) }));
    }),
  ])
    store.add(registration);
  return store;
}
