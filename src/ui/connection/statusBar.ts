import * as vscode from 'vscode';
import { iconText, markdownCode, markdownStrong, markdownText } from '../../core/shownText';
import { Disposable } from '../../core/disposable';
import type { ProfileStore } from './profileStore';
import { Command } from '../ids';

/** Shows the active profile, its region and the environment; a click switches profile. */
export class ConnectionStatusBar extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem('agentWorkbench.connection', vscode.StatusBarAlignment.Left, 50),
  );

  constructor(private readonly profiles: ProfileStore) {
    super();
    this.item.name = vscode.l10n.t('Agent Workbench Connection');
    this.item.command = Command.switchProfile;
    this.register(profiles.onDidChange(() => this.update()));
    this.register(profiles.onDidChangeEnvironment(() => this.update()));
    this.update();
  }

  private update(): void {
    const p = this.profiles.active;
    if (!p) {
      this.item.text = `$(plug) ${vscode.l10n.t('Agent Workbench: not connected')}`;
      this.item.tooltip = vscode.l10n.t('Choose or add a connection profile');
      this.item.backgroundColor = undefined;
      this.item.show();
      return;
    }
    const region =
      p.region === 'local' ? vscode.l10n.t('local') : p.region === 'custom' ? vscode.l10n.t('custom') : p.region;
    const env = this.profiles.environment;
    this.item.text = `$(${p.region === 'local' ? 'server-environment' : 'cloud'}) ${iconText(p.name)} · ${region} · ${env}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`${markdownStrong(p.name)}\n\n`);
    tip.appendMarkdown(
      `${vscode.l10n.t('Account')}: ${markdownCode(p.accountId)} · ${vscode.l10n.t('Project')}: ${markdownCode(p.projectId)}\n\n`,
    );
    tip.appendMarkdown(
      `${vscode.l10n.t('Runtime')}: ${markdownText(p.runtimeUrl)}\n\n${vscode.l10n.t('Build')}: ${markdownText(p.buildUrl)}\n\n${vscode.l10n.t('Messaging')}: ${markdownText(p.messagingUrl)}\n\n`,
    );
    tip.appendMarkdown(`${vscode.l10n.t('Region')}: **${region}** · ${regionWords(p.region)}\n\n`);
    tip.appendMarkdown(
      `${vscode.l10n.t('Environment')}: **${env}** · ${vscode.l10n.t(
        'what Promote, Roll Back and Import Phone Numbers use when run from the Command Palette (Agent Workbench: Select Environment)',
      )}\n\n`,
    );
    tip.appendMarkdown(vscode.l10n.t('Click to switch connection profile.'));
    this.item.tooltip = tip;
    this.item.backgroundColor = env === 'live' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }
}

/** What the region part of the status bar means. */
function regionWords(region: string): string {
  if (region === 'local') return vscode.l10n.t('the local platform on this machine, not a hosted region');
  if (region === 'custom') return vscode.l10n.t('addresses entered by hand, not one of the hosted regions');
  return vscode.l10n.t('the hosted region whose addresses the profile uses');
}
