import * as vscode from 'vscode';
import { Connection } from './ui/connection/connection';
import { registerConnectionCommands } from './ui/connection/connectionCommands';
import { ProfileStore } from './ui/connection/profileStore';
import { SecretVault } from './ui/connection/secretVault';
import { ConnectionStatusBar } from './ui/connection/statusBar';
import { LocalPlatformHost } from './ui/localPlatform/localPlatformHost';
import { registerLocalPlatformCommands } from './ui/localPlatform/localPlatformCommands';
import { registerAgentCommands } from './ui/commands/agentCommands';
import { registerDeployCommands } from './ui/commands/deployCommands';
import { registerNumberCommands } from './ui/commands/numberCommands';
import { createAgentsView } from './ui/explorer/agents/registerAgentsView';
import { registerAlertCommands } from './ui/commands/alertCommands';
import { registerWebhookCommands } from './ui/commands/webhookCommands';
import { AlertsTree } from './ui/explorer/alerts/alertsTree';
import { WebhookSecrets } from './ui/explorer/alerts/webhookSecrets';
import { Log } from './ui/log';
import { registerChatCommands } from './ui/panels/chat/chatCommands';

/** What the extension offers other extensions and its own tests. */
export interface AgentWorkbenchApi {
  /** Milliseconds spent in activate(). */
  readonly activationTimeMs: number;
  /** Where the extension writes its log (the folder of its output channel). */
  readonly logUri: vscode.Uri;
  /** The data behind the Agents view, read the way VS Code reads it. */
  readonly agentsView: vscode.TreeDataProvider<unknown>;
}

/** Composition root: builds the objects and registers them; everything heavy loads on first use. */
export function activate(context: vscode.ExtensionContext): AgentWorkbenchApi {
  const started = performance.now();
  const log = new Log();
  const profiles = new ProfileStore(context.globalState);
  const vault = new SecretVault(context.secrets, log.redactor);
  const connection = new Connection(profiles, vault, log);
  const localPlatform = new LocalPlatformHost(context.extensionPath, log);
  const agentsView = createAgentsView(connection, context.workspaceState);
  const webhookSecrets = new WebhookSecrets(context.secrets, log.redactor, profiles);
  const alertsTree = new AlertsTree(connection, webhookSecrets);
  context.subscriptions.push(
    log,
    profiles,
    vault,
    connection,
    localPlatform,
    new ConnectionStatusBar(profiles),
    registerConnectionCommands(connection),
    registerLocalPlatformCommands(localPlatform, connection),
    agentsView.disposable,
    registerAgentCommands(connection, agentsView.tree, agentsView.remembered),
    registerDeployCommands(connection, agentsView.tree),
    registerNumberCommands(connection, agentsView.tree),
    webhookSecrets,
    alertsTree,
    registerAlertCommands(connection, alertsTree),
    registerWebhookCommands(connection, alertsTree, webhookSecrets),
    vscode.commands.registerCommand('agentWorkbench.showLog', () => log.show()),
    registerChatCommands(context.extensionUri, connection, log),
  );
  // Teach the redactor every stored secret before anything else is logged; not awaited, so activation stays quick.
  void vault.primeRedactor(profiles.list().map((p) => p.id));
  const activationTimeMs = performance.now() - started;
  log.info(`Activated in ${activationTimeMs.toFixed(2)} ms`);
  return { activationTimeMs, logUri: context.logUri, agentsView: agentsView.tree.provider as vscode.TreeDataProvider<unknown> };
}

export function deactivate(): void {
  // Disposables in context.subscriptions are released by VS Code.
}
