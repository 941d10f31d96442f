// The names VS Code knows the extension by: command ids, context keys, view ids and the contextValue
// strings of tree items. package.json refers to them by these exact strings; test/unit/ui/ids.test.ts
// checks both sides agree. No 'vscode' here, so the names and the contextValue builders are testable.
import type { Environment } from '../contract/common';
import type { AlertRuleState } from '../contract/alerts';

export const Command = {
  connect: 'agentWorkbench.connect',
  addProfile: 'agentWorkbench.addProfile',
  editProfile: 'agentWorkbench.editProfile',
  removeProfile: 'agentWorkbench.removeProfile',
  switchProfile: 'agentWorkbench.switchProfile',
  setCredential: 'agentWorkbench.setCredential',
  removeCredential: 'agentWorkbench.removeCredential',
  selectEnvironment: 'agentWorkbench.selectEnvironment',
  testConnection: 'agentWorkbench.testConnection',
  startLocalPlatform: 'agentWorkbench.startLocalPlatform',
  stopLocalPlatform: 'agentWorkbench.stopLocalPlatform',
  showLog: 'agentWorkbench.showLog',
  setUpAssistantTools: 'agentWorkbench.setUpAssistantTools',
  createAgent: 'agentWorkbench.createAgent',
  createBranch: 'agentWorkbench.createBranch',
  checkOut: 'agentWorkbench.checkOut',
  refreshAgents: 'agentWorkbench.refreshAgents',
  refreshNode: 'agentWorkbench.refreshNode',
  filterAgents: 'agentWorkbench.filterAgents',
  clearAgentFilter: 'agentWorkbench.clearAgentFilter',
  copyId: 'agentWorkbench.copyId',
  publish: 'agentWorkbench.publish',
  promote: 'agentWorkbench.promote',
  openComparisonReport: 'agentWorkbench.openComparisonReport',
  // Replaying real traffic, and the Replay Results view
  replayTraffic: 'agentWorkbench.replayTraffic',
  openReplayReport: 'agentWorkbench.openReplayReport',
  saveReplayGroupAsTests: 'agentWorkbench.saveReplayGroupAsTests',
  saveReplayedAsTest: 'agentWorkbench.saveReplayedAsTest',
  clearReplayResults: 'agentWorkbench.clearReplayResults',
  rollback: 'agentWorkbench.rollback',
  importNumbers: 'agentWorkbench.importNumbers',
  listNumbersByConnector: 'agentWorkbench.listNumbersByConnector',
  refreshAlerts: 'agentWorkbench.refreshAlerts',
  refreshAlertsNode: 'agentWorkbench.refreshAlertsNode',
  createAlertRule: 'agentWorkbench.createAlertRule',
  editAlertRule: 'agentWorkbench.editAlertRule',
  enableAlertRule: 'agentWorkbench.enableAlertRule',
  disableAlertRule: 'agentWorkbench.disableAlertRule',
  deleteAlertRule: 'agentWorkbench.deleteAlertRule',
  createWebhookEndpoint: 'agentWorkbench.createWebhookEndpoint',
  editWebhookEndpoint: 'agentWorkbench.editWebhookEndpoint',
  rotateWebhookSecret: 'agentWorkbench.rotateWebhookSecret',
  deleteWebhookEndpoint: 'agentWorkbench.deleteWebhookEndpoint',
  forgetWebhookSecret: 'agentWorkbench.forgetWebhookSecret',
  verifyWebhookSignature: 'agentWorkbench.verifyWebhookSignature',
  addAgentById: 'agentWorkbench.addAgentById',
  // Runtime tools
  placeTestCall: 'agentWorkbench.placeTestCall',
  reserveNumber: 'agentWorkbench.reserveNumber',
  sendExternalEvent: 'agentWorkbench.sendExternalEvent',
  startWebhookReceiver: 'agentWorkbench.startWebhookReceiver',
  stopWebhookReceiver: 'agentWorkbench.stopWebhookReceiver',
  clearWebhookDeliveries: 'agentWorkbench.clearWebhookDeliveries',
  refreshWebhookDeliveries: 'agentWorkbench.refreshWebhookDeliveries',
  openWebhookDelivery: 'agentWorkbench.openWebhookDelivery',
  checkAlerts: 'agentWorkbench.checkAlerts',
  addAlertRuleById: 'agentWorkbench.addAlertRuleById',
  addWebhookEndpointById: 'agentWorkbench.addWebhookEndpointById',
  removeFromAlertsView: 'agentWorkbench.removeFromAlertsView',
  openChat: 'agentWorkbench.openChat',
  publishAndChat: 'agentWorkbench.publishAndChat',
  openSavedConversation: 'agentWorkbench.openSavedConversation',
  restartChat: 'agentWorkbench.restartChat',
  saveConversation: 'agentWorkbench.saveConversation',
  copyConversationId: 'agentWorkbench.copyConversationId',
  // Concurrency chart and replay
  openConcurrencyChart: 'agentWorkbench.openConcurrencyChart',
  replayConversation: 'agentWorkbench.replayConversation',
  // Transcripts
  openConversations: 'agentWorkbench.openConversations',
  openConversation: 'agentWorkbench.openConversation',
  exportConversation: 'agentWorkbench.exportConversation',
  revealAgent: 'agentWorkbench.revealAgent',
  openChatTranscript: 'agentWorkbench.openChatTranscript',
  // Conversation tests made from a conversation (the chat playground's and the transcript viewer's)
  saveConversationAsTest: 'agentWorkbench.saveConversationAsTest',
  saveChatAsTest: 'agentWorkbench.saveChatAsTest',
  createTestFromConversation: 'agentWorkbench.createTestFromConversation',
  // Judged conversation tests: the model, its key, labels of verdicts, a quote's turn in the run's output
  chooseTestModel: 'agentWorkbench.chooseTestModel',
  setTestModelKey: 'agentWorkbench.setTestModelKey',
  labelVerdictRight: 'agentWorkbench.labelVerdictRight',
  labelVerdictWrong: 'agentWorkbench.labelVerdictWrong',
  showJudgedQuote: 'agentWorkbench.showJudgedQuote',
  // File mirror: source control
  pull: 'agentWorkbench.pull',
  push: 'agentWorkbench.push',
  refreshStatus: 'agentWorkbench.refreshStatus',
  openFileMerge: 'agentWorkbench.openFileMerge',
  completeFileMerge: 'agentWorkbench.completeFileMerge',
  // Checks of agent folders
  checkAgentFolder: 'agentWorkbench.checkAgentFolder',
  // Branches of checked-out agent folders
  createBranchFrom: 'agentWorkbench.createBranchFrom',
  switchBranch: 'agentWorkbench.switchBranch',
  mergeBranch: 'agentWorkbench.mergeBranch',
  useBranchMergeResult: 'agentWorkbench.useBranchMergeResult',
  openBehavior: 'agentWorkbench.openBehavior',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/** Context keys the extension sets (`when` clauses of package.json read them). */
export const ContextKey = {
  connected: 'agentWorkbench.connected',
  localPlatformRunning: 'agentWorkbench.localPlatformRunning',
  agentsState: 'agentWorkbench.agents.state',
  agentsFiltered: 'agentWorkbench.agents.filtered',
  alertsState: 'agentWorkbench.alerts.state',
  agentsProblem: 'agentWorkbench.agents.problem',
  alertsProblem: 'agentWorkbench.alerts.problem',
  webhookReceiverRunning: 'agentWorkbench.webhookReceiver.running',
  /** The workspace holds a checked-out agent folder (Switch Branch has something to switch). */
  hasAgentFolders: 'agentWorkbench.hasAgentFolders',
  /** A replay of traffic was made (the Replay Results view shows). */
  replayResults: 'agentWorkbench.replay.hasResults',
} as const;

export type ContextKeyId = (typeof ContextKey)[keyof typeof ContextKey];

export const View = {
  agents: 'agentWorkbench.agents',
  alerts: 'agentWorkbench.alerts',
  webhookDeliveries: 'agentWorkbench.webhookDeliveries',
  replayResults: 'agentWorkbench.replayResults',
} as const;

export type ViewId = (typeof View)[keyof typeof View];

/** The Testing view's controller of conversation tests (`controllerId` in `when` clauses reads it). */
export const TEST_CONTROLLER = 'agentWorkbench.conversationTests';

/** The context values of Testing view messages (`testMessage` in `when` clauses reads them). */
export const TestMessageValue = {
  /** A judged verdict: its menu labels the verdict right or wrong. */
  judged: 'agentWorkbench.judged',
} as const;

/** The view types of webview panels (`activeWebviewPanelId` in `when` clauses reads them). */
export const PanelType = {
  chat: 'agentWorkbench.chat',
  concurrency: 'agentWorkbench.concurrency',
  replay: 'agentWorkbench.replay',
  conversations: 'agentWorkbench.conversations',
  conversation: 'agentWorkbench.conversation',
} as const;

const ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const satisfies readonly Environment[];
/** Restated from the contract (importing its values would pull zod into the extension's bundle); a unit test keeps them equal. */
export const RULE_STATES = ['ok', 'alert', 'no_data', 'unknown'] as const satisfies readonly AlertRuleState[];

/**
 * The contextValue of every kind of tree item. A value is a kind, optionally followed by `.flag`
 * parts; menus match `^kind(\.|$)` so that one kind never matches another that starts alike
 * (`deployment` and `deployments`).
 */
export const ItemContext = {
  error: () => 'error',
  info: () => 'info',
  agent: () => 'agent',
  branch: (b: { isMain: boolean; checkedOut: boolean }) =>
    `branch${b.isMain ? '.main' : ''}${b.checkedOut ? '.checkedOut' : ''}`,
  behavior: () => 'behavior',
  knowledge: () => 'knowledge',
  topic: () => 'topic',
  deployments: () => 'deployments',
  /** An environment row: sandbox takes a publish; one that serves a deployment promotes it, but live (nothing is beyond). */
  environment: (env: Environment, serving = false) =>
    `environment.${env}${env === 'sandbox' ? '.publishable' : ''}${serving && env !== 'live' ? '.promotable' : ''}`,
  /**
   * Only the deployment an environment serves can be promoted (or rolled back), and nothing beyond live. An
   * environment the extension does not know (the platform may add one) has no known next step.
   */
  deployment: (env: string, isActive: boolean, compared = false) =>
    `deployment.${env}${isActive ? '.active' : ''}${isActive && env !== 'live' && (ENVIRONMENTS as readonly string[]).includes(env) ? '.promotable' : ''}${compared ? '.compared' : ''}`,
  numbers: () => 'numbers',
  numberEnvironment: () => 'numberEnvironment',
  connector: () => 'connector',
  phoneNumber: () => 'phoneNumber',
  realtimeConfigs: () => 'realtimeConfigs',
  realtimeConfig: () => 'realtimeConfig',
  currentAlerts: () => 'currentAlerts',
  currentAlert: () => 'currentAlert',
  alertRules: (full: boolean) => `alertRules${full ? '.full' : ''}`,
  alertRule: (enabled: boolean, state: AlertRuleState | (string & {})) =>
    `alertRule.${enabled ? 'enabled' : 'disabled'}.${state}`,
  /** A rule known only by the id typed for it: whether it is enabled is not known, so both switches are offered. */
  typedAlertRule: () => 'alertRule.typed',
  webhookEndpoints: () => 'webhookEndpoints',
  webhookEndpoint: (secretStored: boolean) => `webhookEndpoint${secretStored ? '.secretStored' : ''}`,
  typedWebhookEndpoint: () => 'webhookEndpoint.typed',
  webhookDelivery: (verified: boolean) => `webhookDelivery.${verified ? 'verified' : 'unverified'}`,
  replay: () => 'replay',
  replayGroup: () => 'replayGroup',
  replayConversation: () => 'replayConversation',
  /** Failed and not replayed conversations, and their groups: read, not saved as cases. */
  replayFailures: () => 'replayFailures',
} as const;

const bools = [false, true] as const;

/** Every contextValue each view can show, built with the functions above (for the menu check). */
export function producedContextValues(): Record<ViewId, string[]> {
  const c = ItemContext;
  const common = [c.error(), c.info()];
  return {
    [View.agents]: [
      ...common,
      c.agent(),
      c.behavior(),
      c.knowledge(),
      c.topic(),
      c.deployments(),
      c.numbers(),
      c.numberEnvironment(),
      c.connector(),
      c.phoneNumber(),
      c.realtimeConfigs(),
      c.realtimeConfig(),
      ...bools.flatMap((isMain) => bools.map((checkedOut) => c.branch({ isMain, checkedOut }))),
      ...ENVIRONMENTS.flatMap((env) => bools.map((serving) => c.environment(env, serving))),
      ...ENVIRONMENTS.flatMap((env) =>
        bools.flatMap((active) => bools.map((compared) => c.deployment(env, active, compared))),
      ),
    ],
    [View.alerts]: [
      ...common,
      c.currentAlerts(),
      c.currentAlert(),
      c.webhookEndpoints(),
      ...bools.map((full) => c.alertRules(full)),
      ...bools.flatMap((enabled) => RULE_STATES.map((state) => c.alertRule(enabled, state))),
      ...bools.map((stored) => c.webhookEndpoint(stored)),
      c.typedAlertRule(),
      c.typedWebhookEndpoint(),
    ],
    [View.webhookDeliveries]: bools.map((verified) => c.webhookDelivery(verified)),
    [View.replayResults]: [c.replay(), c.replayGroup(), c.replayConversation(), c.replayFailures()],
  };
}

/** Items that offer no menu on purpose: they are read, opened or expanded, not acted on. */
export const WITHOUT_MENU: readonly string[] = ['error', 'info', 'behavior', 'numberEnvironment', 'replayFailures'];
