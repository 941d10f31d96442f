import * as vscode from 'vscode';

/**
 * The signature scheme assumed for webhook deliveries. The specification names none; the one assumed is the
 * local platform's (Standard Webhooks, `verifyWebhookSignature` of contract/alerts.ts). Every verdict shown
 * says that it rests on it.
 */
export const ASSUMED_SCHEME = 'Standard Webhooks';

/** "assumed scheme: Standard Webhooks", as said beside a verdict. */
export function assumedScheme(): string {
  return vscode.l10n.t('assumed scheme: {0}', ASSUMED_SCHEME);
}
