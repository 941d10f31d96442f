import { LOCAL_PROFILE_ID } from './client/profile';
import * as vscode from 'vscode';
import { DisposableStore, LeakTracker, setDisposableTracker } from './core/disposable';
import type { Event } from './core/event';
import { Connection } from './ui/connection/connection';
import { registerConnectionCommands } from './ui/connection/connectionCommands';
import { ProfileStore } from './ui/connection/profileStore';
import { SecretVault } from './ui/connection/secretVault';
import { ConnectionStatusBar } from './ui/connection/statusBar';
import { LocalPlatformHost } from './ui/localPlatform/localPlatformHost';
import { registerLocalPlatformCommands } from './ui/localPlatform/localPlatformCommands';
import { registerAgentCommands } from './ui/commands/agentCommands';
import { registerCheckOutCommand } from './ui/files/checkOut';
import { registerBranchCommands } from './ui/files/branchCommands';
import { registerOpenBehaviorCommand } from './ui/files/openBehavior';
import { registerDeployCommands } from './ui/commands/deployCommands';
import { registerNumberCommands } from './ui/commands/numberCommands';
import { createAgentsView } from './ui/explorer/agents/registerAgentsView';
import { RememberedAgents } from './ui/model/rememberedAgents';
import { registerAlertCommands } from './ui/commands/alertCommands';
import { registerWebhookCommands } from './ui/commands/webhookCommands';
import { registerRuntimeTools } from './ui/runtimeTools/registerRuntimeTools';
import { AlertsTree } from './ui/explorer/alerts/alertsTree';
import { WebhookSecrets } from './ui/connection/webhookSecrets';
import { Log } from './ui/log';
import { profileModelsOf } from './ui/model/connectionModels';
import type { ProfileModels } from './ui/model/profileModels';
import { type Prompts, replacePrompts } from './ui/common/prompts';
import { Command } from './ui/ids';

/** What the extension offers its own tests, and only them. */
export interface TestingApi {
  /** Puts other prompts in place of the editor's dialogs, so the tests answer questions as a person would. */
  replacePrompts(prompts: Prompts): vscode.Disposable;
  /** Releases everything, as VS Code does when it deactivates the extension. */
  deactivate(): Promise<void>;
  /** Activates again in the same context, after deactivate(). */
  activate(): void;
  /** Lists, from now on, what the extension creates and does not release (see core/disposable). */
  trackDisposables(): { undisposed(): string[]; stop(): void };
  /** What a view shows instead of items (its welcome state and problem), and its message. */
  viewState(view: 'agents' | 'alerts'): { state: string; problem?: string; message?: string; selected?: string[] };
  /** The data behind the Alerts view, read the way VS Code reads it when the view is shown (no refresh first). */
  readonly alertsView: vscode.TreeDataProvider<unknown>;
  /** The Agents view as VS Code shows it (reveal answers once the workbench shows the item), for the benchmarks. */
  readonly agentsTreeView: vscode.TreeView<unknown>;
  /** Restores a panel of the type with the state its webview kept, as VS Code does after a reload; resolves with the panel made. */
  restorePanel(viewType: string, state: unknown): Promise<unknown>;
  /** What the Source Control view and the status bar show of the checked-out agent folders. */
  sourceControl(): { folders: SourceControlSnapshot[]; statusBar: string | undefined };
  /** The Testing view's conversation tests: the controller, its run profiles, and what each run reported. */
  conversationTests(): ConversationTests;
  /** The replays of traffic made in the editor, and the running one's cancel. */
  trafficReplays(): TrafficReplays;
  /**
   * Puts other models in place of the editor's `vscode.lm` ones (VS Code 1.100 lets no test register a model): the
   * quick pick and the runs find these; disposing gives `vscode.lm` back.
   */
  replaceChatModels(select: SelectChatModels): vscode.Disposable;
  /** The language model tools as registered, by name (their prepareInvocation, which VS Code calls before invoke). */
  languageModelTools(): ReadonlyMap<string, EditorLanguageModelTool>;
  /** Forgets the deployments kept for a profile, as after its platform's data was reset (the local platform's admin reset). */
  forgetKeptDeployments(profileId: string): Promise<void>;
  /**
   * Calls `listener` each time the agent folder checks hand diagnostics to VS Code (the files whose diagnostics
   * changed, when, and when the keystroke they answer reached the extension host), for the benchmarks.
   */
  onDiagnosticsHandedOver(listener: (e: HandOver) => void): vscode.Disposable;
}
import { registerChatCommands } from './ui/panels/chat/chatCommands';
import { openWalkthroughOnFirstStart, watchWalkthroughEdits } from './ui/walkthrough';
import { registerConcurrencyCommands } from './ui/panels/concurrency/concurrencyCommands';
import { registerReplayCommands } from './ui/panels/replay/replayCommands';
import { restorePanel } from './ui/panels/panelHost';
import { TestRunConversations } from './ui/model/testRunConversations';
import { registerTranscriptCommands } from './ui/panels/transcripts/transcriptCommands';
import { AgentFolders } from './ui/files/agentFolders';
import { MirrorDocuments, registerMirrorDocuments } from './ui/files/mirrorDocuments';
import { type SourceControlSnapshot, SourceControls } from './ui/files/sourceControls';
import { registerSyncCommands } from './ui/files/syncCommands';
import { FolderSync } from './ui/connection/folderSync';
import { registerAgentDiagnostics } from './ui/diagnostics/registerDiagnostics';
import type { HandOver } from './ui/diagnostics/agentLint';
import { RealtimeConfigSchemaCheck } from './ui/diagnostics/realtimeConfigSchema';
import { ConversationTests } from './ui/testing/conversationTests';
import { promotionGate } from './ui/testing/promotionGate';
import { ComparisonReports, registerComparisonReportCommand } from './ui/testing/comparisonReports';
import { setComparedDeployments } from './ui/explorer/agents/deploymentNodes';
import { modelForTool } from './ui/testing/testModels';
import { contributedToolNames } from './ui/assistant/contributedTools';
import { type EditorLanguageModelTool, registerLanguageModelTools } from './ui/assistant/languageModelTools';
import { registerSetUpAssistantTools } from './ui/assistant/setUpAssistantTools';
import { registerSaveAsTest } from './ui/testing/saveAsTestCommand';
import { TrafficReplays } from './ui/testing/trafficReplay';
import { registerReplayResults } from './ui/testing/replayResults';
import { registerTestModelCommands } from './ui/testing/chooseTestModel';
import { ModelKeys } from './ui/testing/modelKey';
import { RunTranscripts } from './ui/testing/runTranscripts';
import { replaceChatModels, type SelectChatModels } from './ui/testing/vscodeLanguageModel';

/** What the extension offers other extensions and its own tests. */
export interface AgentWorkbenchApi {
  /** Milliseconds spent in the last activate(). */
  readonly activationTimeMs: number;
  /** Where the extension writes its log (the folder of its output channel). */
  readonly logUri: vscode.Uri;
  /** The data behind the Agents view, read the way VS Code reads it. */
  readonly agentsView: vscode.TreeDataProvider<unknown>;
  /**
   * Only when VS Code runs the extension's tests. Absent otherwise, so no other extension can answer
   * a confirmation on the person's behalf.
   */
  readonly testing?: TestingApi;
}

interface Running {
  readonly store: DisposableStore;
  readonly localPlatform: LocalPlatformHost;
  readonly agentsView: vscode.TreeDataProvider<unknown>;
  readonly alertsView: vscode.TreeDataProvider<unknown>;
  readonly agentsTreeView: vscode.TreeView<unknown>;
  readonly diagnosticsHandedOver: Event<HandOver>;
  readonly viewState: TestingApi['viewState'];
  readonly sourceControl: TestingApi['sourceControl'];
  readonly conversationTests: ConversationTests;
  readonly trafficReplays: TrafficReplays;
  readonly languageModelTools: ReadonlyMap<string, EditorLanguageModelTool>;
  readonly remembered: RememberedAgents;
  readonly models: ProfileModels<object>;
  readonly activationTimeMs: number;
}

let running: Running | undefined;

/** Builds the objects and registers them; everything heavy loads on first use. */
function start(context: vscode.ExtensionContext): Running {
  const started = performance.now();
  const store = new DisposableStore();
  // VS Code releases the store if deactivate() is not reached (a crash of the host).
  context.subscriptions.push(store);
  const log = store.add(new Log());
  const profiles = store.add(new ProfileStore(context.globalState));
  const vault = store.add(new SecretVault(context.secrets, log.redactor));
  const connection = store.add(new Connection(profiles, vault, log));
  const localPlatform = store.add(new LocalPlatformHost(context.extensionPath, log));
  // What is kept per profile of agents, branches and deployments, for platforms that do not list them.
  const remembered = new RememberedAgents(context.workspaceState);
  const models = store.add(profileModelsOf(connection, { alerts: context.globalState, agents: remembered }));
  // The one index of checked-out agent folders, shared by the Agents view and the Source Control provider.
  const agentFolders = store.add(new AgentFolders());
  const agentsView = createAgentsView(connection, models, agentFolders);
  store.add(agentsView.disposable);
  // File mirror: source control, quick diff against the base, file decorations and sync status.
  const mirrorDocuments = store.add(new MirrorDocuments(agentFolders));
  const sourceControls = store.add(new SourceControls(agentFolders, mirrorDocuments));
  // Status, pull and push of agent folders: one service for Source Control, the assistant tools and the Testing view.
  const folderSync = new FolderSync(connection, models, sourceControls);
  // The Testing view's conversation tests (tests/*.yaml), read when the view first asks for them.
  const testRuns = new TestRunConversations(context.workspaceState);
  // The model of judged criteria and simulated callers: its endpoint's key in SecretStorage, the runs' conversations
  // as documents the judge's quotes open.
  const modelKeys = new ModelKeys(context.secrets, log.redactor);
  const runTranscripts = new RunTranscripts();
  const conversationTests = store.add(
    new ConversationTests(
      connection,
      models,
      testRuns,
      folderSync,
      { keys: modelKeys, transcripts: runTranscripts },
      context.globalState,
    ),
  );
  const comparisonReports = store.add(new ComparisonReports());
  // Replaying real traffic: Replay Traffic…, the Replay Results view, and Promote's traffic sample.
  const trafficReplays = store.add(
    new TrafficReplays(connection, models, context.workspaceState, context.globalState, testRuns),
  );
  setComparedDeployments((agentId, deploymentId) => comparisonReports.has(agentId, deploymentId));
  const webhookSecrets = store.add(new WebhookSecrets(context.secrets, log.redactor, profiles));
  const alertsTree = store.add(new AlertsTree(models, webhookSecrets));
  for (const registration of [
    new ConnectionStatusBar(profiles),
    registerConnectionCommands(connection),
    registerLocalPlatformCommands(localPlatform, connection),
    registerAgentCommands(models, agentsView.tree),
    registerCheckOutCommand(connection, models, () => void agentFolders.scan()),
    registerDeployCommands(connection, models, agentsView.checkedOut, (agentId, name, from, to) =>
      promotionGate(conversationTests, log, comparisonReports, trafficReplays, agentId, name, from, to),
    ),
    registerComparisonReportCommand(comparisonReports),
    registerReplayResults(trafficReplays),
    comparisonReports.onDidChange(() => agentsView.tree.provider.refresh()),
    registerNumberCommands(connection, models),
    registerAlertCommands(models, alertsTree),
    registerWebhookCommands(models, webhookSecrets),
    registerRuntimeTools({ connection, webhookSecrets, log, models, memory: context.globalState }),
    vscode.commands.registerCommand(Command.showLog, () => log.show()),
    registerSetUpAssistantTools(context.extensionPath),
    registerChatCommands(context.extensionUri, connection, log, models, (profileId, agentId) =>
      remembered.deployments(profileId, agentId),
    ),
    registerConcurrencyCommands(context.extensionUri, connection, log, models),
    registerReplayCommands(context.extensionUri, connection, log, models),
    registerTranscriptCommands(context.extensionUri, connection, log, agentsView.tree, models, testRuns),
    registerSaveAsTest(modelKeys),
    registerTestModelCommands(modelKeys),
    runTranscripts.register(),
    // A local platform whose data is new (a restart without a data folder) no longer has the deployments kept here.
    localPlatform.onDidChange((lp) => {
      if (lp?.dataId)
        void remembered
          .platformData(LOCAL_PROFILE_ID, lp.dataId)
          .then(() => models.active()?.agents.keptDeploymentsForgotten());
    }),
  ])
    store.add(registration);
  const agentDiagnostics = registerAgentDiagnostics(context.extensionUri, profiles, vault);
  for (const registration of [
    registerMirrorDocuments(mirrorDocuments),
    registerSyncCommands(connection, sourceControls, mirrorDocuments, folderSync),
    registerBranchCommands(connection, models, agentFolders),
    registerOpenBehaviorCommand(connection, agentFolders),
    agentDiagnostics,
    new RealtimeConfigSchemaCheck(context.extensionUri, models),
  ])
    store.add(registration);
  // The assistant tools as language model tools: registered by name here, their code loaded on first use.
  const languageModelTools = registerLanguageModelTools(contributedToolNames(context.extension.packageJSON), {
    connection,
    models,
    redactor: log.redactor,
    folders: agentFolders,
    sync: folderSync,
    beforePromote: (agentId, name, from) =>
      promotionGate(conversationTests, log, comparisonReports, trafficReplays, agentId, name, from),
    testModel: (judged) => modelForTool(judged, modelKeys),
  });
  store.add(languageModelTools.disposable);
  // The welcome content of a view that failed names the kind of failure; the full reason is in the log.
  store.add(agentsView.tree.onDidFail((reason) => log.warn(reason)));
  store.add(alertsTree.onDidFail((reason) => log.warn(reason)));
  // Teach the redactor every stored secret before anything else is logged; not awaited, so activation stays quick.
  void vault.primeRedactor(profiles.list().map((p) => p.id));
  openWalkthroughOnFirstStart(context);
  store.add(watchWalkthroughEdits());
  const activationTimeMs = performance.now() - started;
  log.info(`Activated in ${activationTimeMs.toFixed(2)} ms`);
  const viewState: TestingApi['viewState'] = (view) =>
    view === 'agents' ? agentsView.tree.shownState : alertsTree.shownState;
  const sourceControl: TestingApi['sourceControl'] = () => ({
    folders: sourceControls.list().map((c) => c.snapshot()),
    statusBar: sourceControls.statusBarText(),
  });
  return {
    store,
    localPlatform,
    agentsView: agentsView.tree.provider,
    alertsView: alertsTree.provider,
    agentsTreeView: agentsView.tree.view,
    viewState,
    sourceControl,
    conversationTests,
    trafficReplays,
    languageModelTools: languageModelTools.tools,
    remembered,
    models,
    diagnosticsHandedOver: agentDiagnostics.onDidHandOver,
    activationTimeMs,
  };
}

/** Composition root. The API reads the running instance, so it stays valid across a test's deactivate and activate. */
export function activate(context: vscode.ExtensionContext): AgentWorkbenchApi {
  running = start(context);
  const current = (): Running => {
    if (!running) throw new Error('Agent Workbench is not active');
    return running;
  };
  const api: AgentWorkbenchApi = {
    get activationTimeMs() {
      return current().activationTimeMs;
    },
    logUri: context.logUri,
    get agentsView() {
      return current().agentsView;
    },
  };
  if (context.extensionMode !== vscode.ExtensionMode.Test) return api;
  const testing: TestingApi = {
    replacePrompts,
    replaceChatModels,
    deactivate,
    activate: () => {
      running ??= start(context);
    },
    viewState: (view) => current().viewState(view),
    get alertsView() {
      return current().alertsView;
    },
    get agentsTreeView() {
      return current().agentsTreeView;
    },
    restorePanel: (viewType, state) => restorePanel(context.extensionUri, viewType, state),
    sourceControl: () => current().sourceControl(),
    conversationTests: () => current().conversationTests,
    trafficReplays: () => current().trafficReplays,
    languageModelTools: () => current().languageModelTools,
    forgetKeptDeployments: async (profileId) => {
      await current().remembered.forgetDeployments(profileId);
      current().models.active()?.agents.keptDeploymentsForgotten();
    },
    onDiagnosticsHandedOver: (listener) => {
      const sub = current().diagnosticsHandedOver(listener);
      return new vscode.Disposable(() => sub.dispose());
    },
    trackDisposables: () => {
      const leaks = new LeakTracker();
      const previous = setDisposableTracker(leaks);
      return { undisposed: () => leaks.undisposed(), stop: () => void setDisposableTracker(previous) };
    },
  };
  return Object.assign(api, { testing });
}

/** Stops the local platform the editor runs (awaited, so its port and files are let go), then releases everything. */
export async function deactivate(): Promise<void> {
  const r = running;
  running = undefined;
  if (!r) return;
  try {
    await r.localPlatform.stop();
  } finally {
    r.store.dispose();
  }
}
