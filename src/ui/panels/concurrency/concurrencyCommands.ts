import * as vscode from 'vscode';
import {
  CHART_ENVIRONMENTS,
  type ChartEnvironment,
  type ChartPreset,
  CHART_PRESET_IDS,
  type ChartQuery,
  isChartView,
  presetRange,
} from '../../../protocol/concurrency';
import { runCommand } from '../../common/commandSupport';
import { reachAgentById, servedAgent } from '../../connection/agentReach';
import type { Connection } from '../../connection/connection';
import { AgentNode } from '../../explorer/agents/agentNodes';
import { EnvironmentDeploymentsNode } from '../../explorer/agents/deploymentNodes';
import { Command, PanelType } from '../../ids';
import type { Log } from '../../log';
import { OpenPanels } from '../openPanels';
import type { ProfileModels } from '../../model/profileModels';
import { panelOptions, registerPanelSerializer } from '../panelHost';
import { type ChartTarget, ConcurrencyPanel } from './concurrencyPanel';

/** What Open Concurrency Chart accepts besides a tree node (links from other panels, tests). */
export interface OpenChartArgs {
  agentId?: string;
  label?: string;
  preset?: ChartPreset;
  start?: string;
  end?: string;
  environment?: ChartEnvironment;
  sliceByVariant?: boolean;
  variant?: string;
}

function fromNode(arg: unknown): { target: ChartTarget; environment?: ChartEnvironment } | undefined {
  if (arg instanceof AgentNode) return { target: { agentId: arg.agent.agentId, label: arg.agent.name } };
  if (arg instanceof EnvironmentDeploymentsNode) {
    const agent = arg.group.agentNode.agent;
    const environment = (CHART_ENVIRONMENTS as readonly string[]).includes(arg.environment)
      ? (arg.environment as ChartEnvironment)
      : undefined;
    return {
      target: { agentId: agent.agentId, label: `${agent.name} (${arg.environment})` },
      ...(environment ? { environment } : {}),
    };
  }
  return undefined;
}

const chartEnvironment = (env: string): ChartEnvironment => CHART_ENVIRONMENTS.find((e) => e === env) ?? 'live';

/** Open Concurrency Chart: from the palette, an agent, or an environment of the Agents tree. */
export function registerConcurrencyCommands(
  extensionUri: vscode.Uri,
  connection: Connection,
  log: Log,
  models: ProfileModels<object>,
): vscode.Disposable {
  const panels = new OpenPanels<ConcurrencyPanel>();
  const adopt = (panel: ConcurrencyPanel): ConcurrencyPanel => panels.add(panel);

  /**
   * Opened without an agent (the palette): the chart counts the conversations of the active profile's project, so
   * it is of the agent that project serves, named and with its deployments marked as from the Agents view; where
   * nobody says which agent that is, of "the agent of project …".
   */
  async function servedTarget(label: string | undefined): Promise<ChartTarget> {
    const profile = connection.profiles.active;
    if (!profile) return { label: label ?? vscode.l10n.t('project') };
    const agents = models.active()?.agents.agents;
    const listed = agents?.peek() ?? (await agents?.get().catch(() => undefined));
    const served = servedAgent(profile, connection, listed);
    if (!served) return { label: label ?? vscode.l10n.t('the agent of project {0}', profile.projectId) };
    return { agentId: served.agentId, label: label ?? served.name };
  }

  async function open(arg?: unknown): Promise<ConcurrencyPanel | undefined> {
    const node = fromNode(arg);
    const args: OpenChartArgs = !node && arg && typeof arg === 'object' ? (arg as OpenChartArgs) : {};
    const asked = node?.target ?? (args.agentId ? { agentId: args.agentId, label: args.label ?? '' } : undefined);
    const target: ChartTarget = asked ?? (await servedTarget(args.label));
    // The chart counts the conversations of a project: the agent's, offered in one click when another.
    const reached = await reachAgentById(connection, models, target.agentId, undefined, vscode.l10n.t('The chart'));
    if (!reached) return undefined;
    // An agent given by id alone is named as the platform names it.
    if (!target.label) target.label = reached.agent?.name ?? target.agentId ?? '';
    const preset = args.preset && CHART_PRESET_IDS.includes(args.preset) ? args.preset : '24h';
    const range = args.start && args.end ? { start: args.start, end: args.end } : presetRange(preset, Date.now());
    const query: ChartQuery = {
      ...range,
      // The environment of the node, else the one the status bar says is worked against.
      environment: node?.environment ?? args.environment ?? chartEnvironment(connection.profiles.environment),
      sliceByVariant: args.sliceByVariant ?? false,
      ...(args.variant ? { variant: args.variant } : {}),
    };
    const webviewPanel = vscode.window.createWebviewPanel(
      PanelType.concurrency,
      vscode.l10n.t('Concurrency: {0}', target.label),
      vscode.ViewColumn.Active,
      panelOptions(extensionUri),
    );
    const panel = adopt(
      new ConcurrencyPanel(webviewPanel, extensionUri, connection.through(reached.profile), log, target, query, models),
    );
    void panel.show(query);
    return panel;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.openConcurrencyChart, (arg?: unknown) => runCommand(() => open(arg))),
    registerPanelSerializer(PanelType.concurrency, {
      // A chart that was open when the window closed asks again for the same range.
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        if (!isChartView(state)) {
          webviewPanel.dispose();
          return undefined;
        }
        const target = { label: state.title, ...(state.agentId ? { agentId: state.agentId } : {}) };
        const panel = adopt(
          new ConcurrencyPanel(webviewPanel, extensionUri, connection, log, target, state.query, models),
        );
        void panel.show(state.query);
        return panel;
      },
    }),
    panels,
  );
}
