import * as vscode from 'vscode';
import type { SideTarget } from '../../agentTests/compare/runComparison';
import type { CaseTarget } from '../../agentTests/runner';
import { recordReach } from '../../agentTests/records/reach';
import { type ConnectionProfile, LOCAL_PROFILE_ID } from '../../client/profile';
import type { Environment } from '../../contract/common';
import { UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { localProfileReaching, otherAgentGuard } from '../connection/agentReach';
import type { Connection } from '../connection/connection';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';

/** One side of a comparison in the editor: an environment, and how each case reaches the agent it names there. */
export interface ComparisonSide {
  readonly label: string;
  readonly environment: Environment;
  /** Real conversations, recorded like any other: the run says how many before it starts. */
  readonly real: boolean;
  /** Where each case goes; throws why the environment cannot be reached at all. */
  reach(): Promise<SideTarget>;
}

/** Which profile holds the Chat key of an environment, remembered per profile (ids only, never a key). */
const SIDE_PROFILE_KEY = 'agentWorkbench.compare.sideProfiles';

/**
 * The side of `environment` for the profile in use. On the local platform, each case reaches the agent it names
 * through that agent's project and its Chat connector for the environment (the local platform answers the seed's
 * connector token with `_<environment>` appended). On a real platform a Chat key is provisioned for one
 * environment: the profile in use serves the environment the status bar names; another environment is served by a
 * connection profile of the same project holding that environment's Chat key, asked for once and remembered.
 */
export async function comparisonSide(
  connection: Connection,
  memory: vscode.Memento | undefined,
  environment: Environment,
  models?: ProfileModels<object>,
): Promise<ComparisonSide> {
  const active = connection.profiles.active;
  if (!active || active.id === LOCAL_PROFILE_ID || active.region === 'local') return localSide(connection, environment);
  if (connection.profiles.environment === environment) return profileSide(connection, active, environment, models);
  const chosen = await profileFor(connection, memory, active, environment);
  return profileSide(connection, chosen, environment, models);
}

function localSide(connection: Connection, environment: Environment): ComparisonSide {
  return {
    label: vscode.l10n.t('local {0}', environment),
    environment,
    real: false,
    reach: async () => {
      const urls = connection.localAttached
        ? true
        : await vscode.commands.executeCommand<unknown>(Command.startLocalPlatform);
      const local = connection.profiles.get(LOCAL_PROFILE_ID);
      if (!urls || !local)
        throw new Error(vscode.l10n.t('The local platform is not running, so the cases could not run.'));
      const reached = new Map<string, Promise<CaseTarget>>();
      const targetOf = async (profile: ConnectionProfile): Promise<CaseTarget> => {
        const token = await connection.vault.get(profile.id, 'chatConnectorToken');
        if (!token) return { skip: vscode.l10n.t('the local profile has no Chat connector token') };
        const clients = connection.clientsWith(profile, {
          chatConnectorToken: environment === 'sandbox' ? token : `${token}_${environment}`,
        });
        return { chat: clients.chat, records: recordReach(clients.conversations, environment) };
      };
      return async (testCase) => {
        const profile =
          testCase.agent === undefined
            ? local
            : await localProfileReaching(connection, local, { agentId: testCase.agent });
        if (!profile) return { skip: vscode.l10n.t('the local platform serves no agent {0}', testCase.agent ?? '') };
        let target = reached.get(profile.id);
        if (!target) reached.set(profile.id, (target = targetOf(profile)));
        return target;
      };
    },
  };
}

/** A real environment through `profile`'s Chat key; a case naming an agent another project serves is skipped. */
function profileSide(
  connection: Connection,
  profile: ConnectionProfile,
  environment: Environment,
  models: ProfileModels<object> | undefined,
): ComparisonSide {
  return {
    label: vscode.l10n.t('{0} ({1})', profile.name, environment),
    environment,
    real: true,
    reach: async () => {
      if (!(await connection.vault.get(profile.id, 'chatApiKey')))
        throw new UserFacingError(
          vscode.l10n.t(
            'The profile "{0}" has no Chat API key for {1}: set its keys (Set Keys) and compare again.',
            profile.name,
            environment,
          ),
        );
      const clients = connection.clientsFor(profile);
      const target: CaseTarget = { chat: clients.chat, records: recordReach(clients.conversations, environment) };
      const otherAgent = await otherAgentGuard(connection, profile, models);
      return async (testCase) => {
        const other = await otherAgent(testCase.agent);
        return other ? { skip: other } : target;
      };
    },
  };
}

/**
 * The profile whose Chat key reaches `environment` of the active profile's project: the one remembered, else one
 * the person picks among the profiles of the same account and project with a Chat key.
 */
async function profileFor(
  connection: Connection,
  memory: vscode.Memento | undefined,
  active: ConnectionProfile,
  environment: Environment,
): Promise<ConnectionProfile> {
  const remembered = memory?.get<Record<string, string>>(SIDE_PROFILE_KEY) ?? {};
  const key = `${active.id}/${environment}`;
  const kept = remembered[key] ? connection.profiles.get(remembered[key]) : undefined;
  if (kept) return kept;
  const candidates: ConnectionProfile[] = [];
  for (const p of connection.profiles.list())
    if (
      p.id !== active.id &&
      p.region !== 'local' &&
      p.accountId === active.accountId &&
      p.projectId === active.projectId &&
      (await connection.vault.get(p.id, 'chatApiKey'))
    )
      candidates.push(p);
  const noKey = new UserFacingError(
    vscode.l10n.t(
      'No Chat key of project {0} reaches {1}: a Chat key is provisioned for one environment. Add a connection profile of this project with the Chat API key and connector token of {1}, then compare again.',
      active.projectId,
      environment,
    ),
  );
  if (candidates.length === 0) throw noKey;
  const picked = await prompts.pick(
    candidates.map((p) => ({ label: p.name, description: `${p.accountId} / ${p.projectId}`, profile: p })),
    {
      title: vscode.l10n.t('Which profile holds the Chat key of {0}?', environment),
      placeHolder: vscode.l10n.t(
        'Its Chat API key and connector token reach {0} of project {1}',
        environment,
        active.projectId,
      ),
    },
  );
  if (!picked) throw noKey;
  await memory?.update(SIDE_PROFILE_KEY, { ...remembered, [key]: picked.profile.id });
  return picked.profile;
}
