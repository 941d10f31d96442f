import * as vscode from 'vscode';
import type { Environment } from '../../contract/common';
import type { ProbeResult } from '../../client/probe';
import { type ConnectionProfile, CREDENTIALS, type CredentialId, LOCAL_PROFILE_ID } from '../../client/profile';
import { promptProfile, profileFromInput, type ProfileInput } from './addProfile';
import { platformContract } from '../model/platformClients';
import type { Connection } from './connection';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

type ProfileArgs = ProfileInput & { credentials?: Partial<Record<CredentialId, string>>; activate?: boolean };

const OUTCOME_ICON: Record<ProbeResult['outcome'], string> = {
  works: '$(pass-filled)',
  rejected: '$(error)',
  notConfigured: '$(circle-slash)',
  unreachable: '$(debug-disconnect)',
  unknown: '$(question)',
};

/** A connection test's outcome in words. */
function outcomeWords(outcome: ProbeResult['outcome']): string {
  switch (outcome) {
    case 'works':
      return vscode.l10n.t('works');
    case 'rejected':
      return vscode.l10n.t('credential refused');
    case 'notConfigured':
      return vscode.l10n.t('not configured');
    case 'unreachable':
      return vscode.l10n.t('could not be reached');
    default:
      return vscode.l10n.t('not known');
  }
}

/** What fixes a failed row of a connection test: set its credential, edit the profile's addresses, or read the log. */
function fixOf(
  profile: ConnectionProfile,
  r: ProbeResult,
): { label: string; command: string; args: unknown[] } | undefined {
  if (r.outcome === 'works') return undefined;
  if (r.outcome === 'rejected' || r.outcome === 'notConfigured') {
    // A family with one credential goes straight to it; Chat and Messaging (two each) let the person choose.
    const credentials = CREDENTIALS.filter((c) => c.family === r.family);
    return {
      label: vscode.l10n.t('Set Credential'),
      command: Command.setCredential,
      args: [{ profileId: profile.id, ...(credentials.length === 1 ? { credential: credentials[0]!.id } : {}) }],
    };
  }
  if (r.outcome === 'unreachable')
    return profile.id === LOCAL_PROFILE_ID
      ? { label: vscode.l10n.t('Start Local Platform'), command: Command.startLocalPlatform, args: [] }
      : { label: vscode.l10n.t('Edit Connection Profile'), command: Command.editProfile, args: [profile.id] };
  return { label: vscode.l10n.t('Show Log'), command: Command.showLog, args: [] };
}

/** Registers the profile, credential, environment and test-connection commands. */
export function registerConnectionCommands(connection: Connection): vscode.Disposable {
  const { profiles, vault } = connection;

  /** The profile added last in this window: the one whose keys a person sets next, offered first. */
  let addedLast: string | undefined;

  async function pickProfile(
    placeHolder: string,
    opts: { includeLocal?: boolean; pickOne?: boolean } = {},
  ): Promise<ConnectionProfile | undefined> {
    const list = profiles.list().filter((p) => opts.includeLocal || p.id !== LOCAL_PROFILE_ID);
    if (list.length === 0) {
      void prompts.info(
        vscode.l10n.t('There is no connection profile yet. Add one with Agent Workbench: Add Connection Profile.'),
      );
      return undefined;
    }
    if (opts.pickOne && list.length === 1) return list[0];
    const active = profiles.active?.id;
    const ordered = [...list.filter((p) => p.id === addedLast), ...list.filter((p) => p.id !== addedLast)];
    const pick = await prompts.pick(
      ordered.map((p) => ({
        label: p.name,
        description: [
          `${p.accountId}/${p.projectId}`,
          ...(p.id === active ? [vscode.l10n.t('active')] : []),
          ...(p.id === addedLast ? [vscode.l10n.t('just added')] : []),
        ].join(' · '),
        detail: p.buildUrl,
        profile: p,
      })),
      { placeHolder },
    );
    return pick?.profile;
  }

  async function addProfile(args?: ProfileArgs): Promise<ConnectionProfile | undefined> {
    let profile: ConnectionProfile | undefined;
    if (args && Object.keys(args).length > 0) {
      profile = profileFromInput(args, profiles);
    } else {
      profile = await promptProfile(profiles);
    }
    if (!profile) return undefined;
    await profiles.save(profile);
    addedLast = profile.id;
    for (const [id, value] of Object.entries(args?.credentials ?? {}) as Array<[CredentialId, string]>)
      await vault.set(profile.id, id, value);
    // Given fields (tests, automation) make it active unless told not to. From the wizard it is not in use
    // yet: it has no keys, and using it at once would turn both views to errors. Setting a key offers it.
    if (args ? args.activate !== false : false) await profiles.setActive(profile.id);
    if (!args) {
      const set = vscode.l10n.t('Set Credential');
      const use = vscode.l10n.t('Use It Now');
      const next = await prompts.info(
        vscode.l10n.t(
          'Profile "{0}" added. Set its keys and tokens first (kept in VS Code\'s secret storage); you are offered to use it once a key is set.',
          profile.name,
        ),
        set,
        use,
      );
      if (next === set) await setCredential({ profileId: profile.id });
      if (next === use) await profiles.setActive(profile.id);
    }
    return profile;
  }

  async function setCredential(
    args: { profileId?: string; credential?: CredentialId; value?: string } = {},
  ): Promise<boolean> {
    // A view's button names the credential its profile lacks: the profile it shows, the active one. From the palette,
    // with nothing named, the person chooses (the one just added first): the active one may not be it.
    const profile = args.profileId
      ? profiles.get(args.profileId)
      : args.credential
        ? profiles.active
        : await pickProfile(vscode.l10n.t('Profile to set a credential for'), { pickOne: true, includeLocal: true });
    if (!profile) return false;
    let id = args.credential;
    if (!id) {
      const present = await vault.configured(profile.id);
      const pick = await prompts.pick(
        CREDENTIALS.map((c) => ({
          label: c.label,
          description: present.has(c.id) ? vscode.l10n.t('set') : vscode.l10n.t('not set'),
          detail: vscode.l10n.t('Sent as the {0} header', c.header),
          id: c.id,
        })),
        { placeHolder: vscode.l10n.t('Credential of "{0}" to set', profile.name) },
      );
      id = pick?.id;
    }
    if (!id) return false;
    const meta = CREDENTIALS.find((c) => c.id === id)!;
    const value =
      args.value ??
      (await prompts.input({
        title: vscode.l10n.t('{0} for "{1}"', meta.label, profile.name),
        prompt:
          id === 'messagingHost'
            ? vscode.l10n.t('The registered host domain or app namespace of the webchat connector')
            : vscode.l10n.t(
                "Paste the value. It is stored in VS Code's secret storage only, never in settings or files.",
              ),
        password: id !== 'messagingHost',
        ignoreFocusOut: true,
        validateInput: (v) =>
          v.trim()
            ? /\s/.test(v.trim())
              ? vscode.l10n.t('A key or token has no spaces.')
              : undefined
            : vscode.l10n.t('Enter a value, or press Escape to cancel.'),
      }));
    if (value === undefined) return false;
    const trimmed = value.trim();
    if (!trimmed || /\s/.test(trimmed))
      throw new Error(vscode.l10n.t('{0}: enter a value without spaces.', meta.label));
    await vault.set(profile.id, id, trimmed);
    // The views of the active profile read again on their own (Connection.onDidChange); say so, and offer the check.
    // A profile not in use yet is offered for use now that it has a key.
    const test = vscode.l10n.t('Test Connection');
    const use = vscode.l10n.t('Use This Profile');
    const inUse = profile.id === profiles.active?.id;
    const reread = inUse
      ? ` ${vscode.l10n.t('The views read the platform again with it.')}`
      : ` ${
          profiles.active
            ? vscode.l10n.t('The profile in use is still "{0}".', profiles.active.name)
            : vscode.l10n.t('No profile is in use yet.')
        }`;
    void prompts
      .info(
        vscode.l10n.t('{0} of "{1}" saved in the secret storage.', meta.label, profile.name) + reread,
        ...(inUse ? [test] : [use, test]),
      )
      .then(async (a) => {
        if (a === use) await profiles.setActive(profile.id);
        if (a === test) await vscode.commands.executeCommand(Command.testConnection, profile.id);
      });
    return true;
  }

  async function testConnection(profileId?: string): Promise<ProbeResult[] | undefined> {
    const profile = profileId ? profiles.get(profileId) : profiles.active;
    if (!profile) {
      void prompts
        .warn(vscode.l10n.t('Choose a connection profile first.'), vscode.l10n.t('Switch Profile'))
        .then((a) => a && vscode.commands.executeCommand(Command.switchProfile));
      return undefined;
    }
    const results = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Testing "{0}"…', profile.name),
        cancellable: true,
      },
      (_p, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return connection.clientsFor(profile).probe(controller.signal);
      },
    );
    const worked = results.filter((r) => r.outcome === 'works');
    const failedRows = results.filter(
      (r) => r.outcome === 'rejected' || r.outcome === 'unreachable' || r.outcome === 'unknown',
    );
    const notConfigured = results.filter((r) => r.outcome === 'notConfigured');
    const parts = [
      results.length === 1
        ? vscode.l10n.t('"{0}": {1} of 1 API works.', profile.name, worked.length)
        : vscode.l10n.t('"{0}": {1} of {2} APIs work.', profile.name, worked.length, results.length),
      failedRows.length
        ? vscode.l10n.t(
            'Failed: {0}.',
            failedRows.map((r) => vscode.l10n.t('{0} ({1})', r.label, outcomeWords(r.outcome))).join(', '),
          )
        : '',
      notConfigured.length ? vscode.l10n.t('Not configured: {0}.', notConfigured.map((r) => r.label).join(', ')) : '',
    ];
    const summary = parts.filter(Boolean).join(' ');
    const show = vscode.l10n.t('Show Details');
    // Not awaited: the command returns its results at once; the details open when asked for.
    void (failedRows.length ? prompts.warn(summary, show) : prompts.info(summary, show)).then(async (answer) => {
      if (answer !== show) return;
      const pick = await prompts.pick(
        results.map((r) => {
          const fix = fixOf(profile, r);
          return {
            label: `${OUTCOME_ICON[r.outcome]} ${r.label}`,
            description:
              r.outcome === 'works'
                ? vscode.l10n.t('works ({0} ms)', r.ms ?? 0)
                : fix
                  ? `${outcomeWords(r.outcome)} · ${fix.label}`
                  : outcomeWords(r.outcome),
            detail: r.detail,
            fix,
          };
        }),
        {
          title: vscode.l10n.t('Connection test of "{0}"', profile.name),
          placeHolder: vscode.l10n.t('Choose a row to fix it'),
        },
      );
      if (pick?.fix) await vscode.commands.executeCommand(pick.fix.command, ...pick.fix.args);
    });
    return results;
  }

  /**
   * Connect to a Platform is for getting connected at all: the local platform, a new profile, or one of
   * the saved ones. (Switch Connection Profile moves between saved profiles.)
   */
  async function connect(): Promise<string | undefined> {
    const local = profiles.get(LOCAL_PROFILE_ID);
    const saved = profiles.list().filter((p) => p.id !== LOCAL_PROFILE_ID);
    type Item = vscode.QuickPickItem & { action?: 'local' | 'add'; id?: string };
    const items: Item[] = [
      {
        label: `$(server-environment) ${local ? vscode.l10n.t('Use the Local Platform') : vscode.l10n.t('Start Local Platform')}`,
        detail: vscode.l10n.t(
          'The whole platform interface on this machine, with demo data and its keys set: nothing to sign up for.',
        ),
        action: 'local',
      },
      {
        label: `$(add) ${vscode.l10n.t('Add Connection Profile…')}`,
        detail: vscode.l10n.t('A hosted platform: its region, account and project, then its keys.'),
        action: 'add',
      },
      ...(saved.length
        ? [
            { label: vscode.l10n.t('Saved profiles'), kind: vscode.QuickPickItemKind.Separator },
            ...saved.map((p) => ({
              label: p.name,
              description: `${p.accountId}/${p.projectId}${p.id === profiles.active?.id ? ` · ${vscode.l10n.t('in use')}` : ''}`,
              detail: p.buildUrl,
              id: p.id,
            })),
          ]
        : []),
    ];
    const pick = await prompts.pick(items, { title: vscode.l10n.t('Connect to a Platform') });
    if (pick?.action === 'add') return (await addProfile())?.id;
    if (pick?.action === 'local') {
      if (local) {
        await profiles.setActive(LOCAL_PROFILE_ID);
        return LOCAL_PROFILE_ID;
      }
      const started = await vscode.commands.executeCommand<unknown>(Command.startLocalPlatform);
      return started ? LOCAL_PROFILE_ID : undefined;
    }
    if (pick?.id) await profiles.setActive(pick.id);
    return pick?.id;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.connect, () => reportErrors(connect)),
    vscode.commands.registerCommand(Command.addProfile, (args?: ProfileArgs) => reportErrors(() => addProfile(args))),
    vscode.commands.registerCommand(Command.editProfile, (arg?: string | (ProfileArgs & { id: string })) =>
      reportErrors(async () => {
        const id = typeof arg === 'string' ? arg : arg?.id;
        const existing = id ? profiles.get(id) : await pickProfile(vscode.l10n.t('Profile to edit'));
        if (!existing) return undefined;
        if (existing.id === LOCAL_PROFILE_ID)
          throw new Error(vscode.l10n.t('The Local profile follows the local platform and cannot be edited.'));
        const updated =
          typeof arg === 'object' ? profileFromInput(arg, profiles, existing) : await promptProfile(profiles, existing);
        if (updated) await profiles.save(updated);
        return updated;
      }),
    ),
    vscode.commands.registerCommand(Command.removeProfile, (id?: string) =>
      reportErrors(async () => {
        const profile = id ? profiles.get(id) : await pickProfile(vscode.l10n.t('Profile to remove'));
        if (!profile || profile.id === LOCAL_PROFILE_ID) return false;
        const remove = vscode.l10n.t('Remove');
        const ok = await prompts.ask(
          vscode.l10n.t('Remove the profile "{0}" and its stored keys and tokens?', profile.name),
          {},
          remove,
        );
        if (ok !== remove) return false;
        const wasActive = profiles.active?.id === profile.id;
        await vault.deleteAll(profile.id);
        await profiles.remove(profile.id);
        void prompts.info(
          wasActive
            ? vscode.l10n.t(
                'Profile "{0}" and its keys and tokens were removed. It was the profile in use: choose another with Connect to a Platform.',
                profile.name,
              )
            : vscode.l10n.t('Profile "{0}" and its keys and tokens were removed.', profile.name),
        );
        return true;
      }),
    ),
    vscode.commands.registerCommand(Command.switchProfile, (id?: string) =>
      reportErrors(async () => {
        if (id) {
          if (!profiles.list().some((p) => p.id === id))
            throw new Error(vscode.l10n.t('There is no profile with id "{0}".', id));
          await profiles.setActive(id);
          return id;
        }
        const active = profiles.active?.id;
        const items: Array<vscode.QuickPickItem & { id?: string; action?: 'add' }> = [
          ...profiles.list().map((p) => ({
            label: `${p.id === active ? '$(check) ' : ''}${p.name}`,
            description: `${p.accountId}/${p.projectId}`,
            detail: p.region === 'local' ? vscode.l10n.t('The local platform on this machine') : p.buildUrl,
            id: p.id,
          })),
          { label: '', kind: vscode.QuickPickItemKind.Separator },
          { label: `$(add) ${vscode.l10n.t('Add Connection Profile…')}`, action: 'add' },
        ];
        const pick = await prompts.pick(items, { placeHolder: vscode.l10n.t('Connection profile to use') });
        if (pick?.action === 'add') return (await addProfile())?.id;
        if (pick?.id) await profiles.setActive(pick.id);
        return pick?.id;
      }),
    ),
    vscode.commands.registerCommand(
      Command.setCredential,
      (args?: { profileId?: string; credential?: CredentialId; value?: string }) =>
        reportErrors(() => setCredential(args)),
    ),
    vscode.commands.registerCommand(
      Command.removeCredential,
      (args?: { profileId?: string; credential?: CredentialId }) =>
        reportErrors(async () => {
          const profile = args?.profileId ? profiles.get(args.profileId) : profiles.active;
          if (!profile) return false;
          const present = await vault.configured(profile.id);
          const id =
            args?.credential ??
            (
              await prompts.pick(
                CREDENTIALS.filter((c) => present.has(c.id)).map((c) => ({ label: c.label, id: c.id })),
                { placeHolder: vscode.l10n.t('Credential of "{0}" to remove', profile.name) },
              )
            )?.id;
          if (!id) return false;
          await vault.delete(profile.id, id);
          return true;
        }),
    ),
    vscode.commands.registerCommand(Command.selectEnvironment, (env?: Environment) =>
      reportErrors(async () => {
        const { ENVIRONMENTS } = platformContract().commonContract;
        const chosen =
          env ??
          (
            await prompts.pick(
              ENVIRONMENTS.map((e) => ({
                label: e,
                description: e === profiles.environment ? vscode.l10n.t('selected') : '',
                picked: e === profiles.environment,
              })),
              {
                title: vscode.l10n.t('Select Environment'),
                placeHolder: vscode.l10n.t(
                  'Environment that Promote, Roll Back and Import Phone Numbers use when run from the Command Palette',
                ),
              },
            )
          )?.label;
        if (!chosen) return undefined;
        if (!ENVIRONMENTS.includes(chosen as Environment))
          throw new Error(vscode.l10n.t('"{0}" is not an environment: use sandbox, pre-release or live.', chosen));
        await profiles.setEnvironment(chosen as Environment);
        return chosen;
      }),
    ),
    vscode.commands.registerCommand(Command.testConnection, (profileId?: string) => testConnection(profileId)),
  );
}

/** Shows a failure as an error message (what to fix), and returns undefined instead of throwing. */
async function reportErrors<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    void prompts.error(err instanceof Error ? err.message : String(err));
    return undefined;
  }
}
