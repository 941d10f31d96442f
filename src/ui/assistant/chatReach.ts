import * as vscode from 'vscode';
import { recordReach } from '../../agentTests/records/reach';
import type { CaseTarget } from '../../agentTests/runner';
import { type ConnectionProfile, LOCAL_PROFILE_ID } from '../../client/profile';
import type { ChatRequest } from '../../assistantTools/context';
import { UserFacingError } from '../common/commandSupport';
import { agentRef, localProfileReaching, reachesOther } from '../connection/agentReach';
import type { Connection } from '../connection/connection';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';

/** The target name of the local platform's Chat API. */
export const LOCAL_TARGET = 'local';

/**
 * Where the tools' conversations go, as the Testing view runs conversation tests: the local platform (with the Local
 * profile's Chat key, provisioned for sandbox), or the environment the active profile works against, with its Chat key.
 */
export class ChatReach {
  constructor(
    private readonly connection: Connection,
    private readonly models: ProfileModels<object>,
  ) {}

  /** The local platform when it is the active profile; otherwise the active profile's environment first. */
  targets(): readonly string[] {
    const profile = this.connection.profiles.active;
    if (!profile || profile.id === LOCAL_PROFILE_ID) return [LOCAL_TARGET];
    return [this.connection.profiles.environment, LOCAL_TARGET];
  }

  async chat(request: ChatRequest): Promise<CaseTarget> {
    const local = request.target === LOCAL_TARGET;
    const environment = local ? 'sandbox' : request.target;
    if (request.environment !== undefined && request.environment !== environment)
      return {
        skip: vscode.l10n.t(
          'the case runs against {0} only; this run is against {1}',
          request.environment,
          local ? vscode.l10n.t('the local platform (sandbox)') : environment,
        ),
      };
    const profile = local ? await this.localProfile() : await this.environmentProfile(request.target);
    if (local && request.agentId !== undefined) {
      // The local platform serves every project it holds: the agent is reached through its own project's keys.
      const reaching = await localProfileReaching(this.connection, profile, { agentId: request.agentId });
      if (!reaching) return { skip: vscode.l10n.t('the local platform serves no agent {0}', request.agentId) };
      return this.reachOf(reaching, environment);
    }
    if (request.agentId !== undefined) {
      const refused = await this.otherAgent(profile, request.agentId);
      if (refused) return { skip: refused };
    }
    return this.reachOf(profile, environment);
  }

  /** The profile's Chat API, and its Conversations API for the records that record checks read. */
  private reachOf(profile: ConnectionProfile, environment: string): CaseTarget {
    const clients = this.connection.clientsFor(profile);
    return { chat: clients.chat, records: recordReach(clients.conversations, environment) };
  }

  private async localProfile(): Promise<ConnectionProfile> {
    const urls = await vscode.commands.executeCommand<unknown>(Command.startLocalPlatform);
    const profile = this.connection.profiles.get(LOCAL_PROFILE_ID);
    if (!urls || !profile)
      throw new UserFacingError(vscode.l10n.t('The local platform is not running, so the conversation was not held.'));
    return profile;
  }

  private async environmentProfile(target: string): Promise<ConnectionProfile> {
    const profile = this.connection.profiles.active;
    const names = this.targets().join(', ');
    if (!profile || profile.id === LOCAL_PROFILE_ID || target !== this.connection.profiles.environment)
      throw new UserFacingError(
        vscode.l10n.t('Conversations can be held with: {0}. "{1}" is none of them.', names, target) +
          ' ' +
          vscode.l10n.t(
            'Another environment is reached by choosing it as the environment worked against (the status bar), with a profile that has its Chat key.',
          ),
      );
    if (!(await this.connection.vault.get(profile.id, 'chatApiKey')))
      throw new UserFacingError(
        vscode.l10n.t(
          'The connection profile "{0}" has no Chat key: add one (Agent Workbench: Edit Connection Profile), or hold the conversation on the local platform (target "local").',
          profile.name,
        ),
      );
    return profile;
  }

  /** Why the profile's Chat key would reach another agent than the one named, or undefined when it reaches it (or nobody says). */
  private async otherAgent(profile: ConnectionProfile, agentId: string): Promise<string | undefined> {
    const model = this.models.active();
    if (!model || profile.id !== this.connection.profiles.active?.id) return undefined;
    const agent = await agentRef(model.agents, agentId);
    return reachesOther(profile, this.connection, agent, vscode.l10n.t('Chat'), model.agents.agents.peek());
  }
}
