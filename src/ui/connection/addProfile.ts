import * as vscode from 'vscode';
import {
  checkBaseUrl,
  checkBuildUrlRegion,
  checkPathId,
  type ConnectionProfile,
  parseStudioUrl,
  REGION_PRESETS,
  type RegionId,
} from '../../client/profile';
import { MultiStepInput } from '../common/multiStep';
import { newProfileId, type ProfileStore } from './profileStore';

/** Fields a caller (or a test) may give to skip the prompts. */
export type ProfileInput = Partial<Omit<ConnectionProfile, 'id'>> & { studioUrl?: string };

type Draft = Omit<ConnectionProfile, 'id'>;

/** Checks every field of a profile; returns the first problem as a sentence that says what to fix. */
export function checkProfile(
  p: Omit<ConnectionProfile, 'id'>,
  store: ProfileStore,
  exceptId?: string,
): string | undefined {
  const name = p.name.trim();
  if (!name) return vscode.l10n.t('Enter a profile name.');
  if (name.length > 64) return vscode.l10n.t('A profile name has at most 64 characters.');
  if (store.isNameTaken(name, exceptId)) return vscode.l10n.t('A profile named "{0}" exists already.', name);
  return (
    checkPathId('account', p.accountId) ??
    checkPathId('project', p.projectId) ??
    checkBaseUrl(p.runtimeUrl, vscode.l10n.t('runtime address')) ??
    checkBaseUrl(p.buildUrl, vscode.l10n.t('build address')) ??
    checkBuildUrlRegion(p.buildUrl) ??
    checkBaseUrl(p.messagingUrl, vscode.l10n.t('messaging address'))
  );
}

/**
 * Creates or edits a profile with a multi-step input. A pasted studio address fills account
 * and project; region presets fill the runtime and build addresses, which stay editable.
 */
export async function promptProfile(
  store: ProfileStore,
  existing?: ConnectionProfile,
): Promise<ConnectionProfile | undefined> {
  const title = existing ? vscode.l10n.t('Edit Connection Profile') : vscode.l10n.t('Add Connection Profile');
  const draft: Draft = {
    name: existing?.name ?? '',
    accountId: existing?.accountId ?? '',
    projectId: existing?.projectId ?? '',
    region: existing?.region ?? 'us',
    runtimeUrl: existing?.runtimeUrl ?? '',
    buildUrl: existing?.buildUrl ?? '',
    messagingUrl: existing?.messagingUrl ?? '',
  };
  // Seven steps, numbered by their place: a pasted studio address fills the project too, so its step is done and
  // the counter goes from 2/7 to 4/7 (a total that shrank as the person went would read as a mistake).
  const result = await MultiStepInput.run<Draft>(
    7,
    draft,
    [
      async (input, d) => {
        d.name = await input.text({
          title,
          prompt: vscode.l10n.t('A name for this connection, e.g. "Acme production"'),
          value: d.name,
          validate: (v) =>
            !v.trim()
              ? vscode.l10n.t('Enter a profile name.')
              : store.isNameTaken(v, existing?.id)
                ? vscode.l10n.t('A profile named "{0}" exists already.', v.trim())
                : v.trim().length > 64
                  ? vscode.l10n.t('A profile name has at most 64 characters.')
                  : undefined,
        });
        return 1;
      },
      async (input, d) => {
        const value = await input.text({
          title,
          prompt: vscode.l10n.t(
            "Paste the project's address from the studio (it names the account, then the project), or enter the account id",
          ),
          value: d.accountId,
          placeholder: 'https://studio.example.com/acme/support-desk/…  or  acme  or  ACCOUNT-xxxxxxx',
          validate: (v) =>
            /^https?:\/\//i.test(v.trim())
              ? parseStudioUrl(v)
                ? undefined
                : vscode.l10n.t(
                    'This address does not name an account and a project after the host, as in https://studio.example.com/acme/support-desk/.',
                  )
              : checkPathId('account', v),
        });
        const parsed = parseStudioUrl(value);
        if (parsed) {
          d.accountId = parsed.accountId;
          d.projectId = parsed.projectId;
          return 3;
        }
        d.accountId = value;
        return 2;
      },
      async (input, d) => {
        d.projectId = await input.text({
          title,
          prompt: vscode.l10n.t('The project id (slug or PROJECT-xxxxxxxx)'),
          value: d.projectId,
          validate: (v) => checkPathId('project', v),
        });
        return 3;
      },
      async (input, d) => {
        const items = [
          ...REGION_PRESETS.map((r) => ({
            label: r.label,
            description: `${new URL(r.runtimeUrl).host} · ${new URL(r.buildUrl).host}`,
            id: r.id as RegionId,
          })),
          {
            label: vscode.l10n.t('Custom addresses'),
            description: vscode.l10n.t('enter the runtime and build addresses yourself'),
            id: 'custom' as RegionId,
          },
        ];
        const pick = await input.pick({
          title,
          placeholder: vscode.l10n.t('Region of the project'),
          items,
          active: items.find((i) => i.id === d.region),
        });
        const preset = REGION_PRESETS.find((r) => r.id === pick.id);
        d.region = pick.id;
        if (preset && (!existing || existing.region !== pick.id)) {
          d.runtimeUrl = preset.runtimeUrl;
          d.buildUrl = preset.buildUrl;
        }
        return 4;
      },
      async (input, d) => {
        d.runtimeUrl = await input.text({
          title,
          prompt: vscode.l10n.t(
            'Runtime address, for Chat, Conversations, Outbound Calling, External Events and DNI (e.g. https://api.us-1.platform.polyai.app)',
          ),
          value: d.runtimeUrl,
          validate: (v) => checkBaseUrl(v, vscode.l10n.t('runtime address')),
        });
        return 5;
      },
      async (input, d) => {
        d.buildUrl = await input.text({
          title,
          prompt: vscode.l10n.t(
            'Build address, for Agents and Alerts. A poly.ai address names its region: api.us.poly.ai, api.uk.poly.ai or api.eu.poly.ai',
          ),
          value: d.buildUrl,
          validate: (v) => checkBaseUrl(v, vscode.l10n.t('build address')) ?? checkBuildUrlRegion(v),
        });
        return 6;
      },
      async (input, d) => {
        d.messagingUrl = await input.text({
          title,
          prompt: vscode.l10n.t(
            'Messaging address, for the webchat connector: the cluster of your region (there is no address for all regions; ask your operator)',
          ),
          value: d.messagingUrl,
          validate: (v) => checkBaseUrl(v, vscode.l10n.t('messaging address')),
        });
        return 'done';
      },
    ],
    (index) => index + 1,
  );
  if (!result) return undefined;
  return { id: existing?.id ?? newProfileId(result.name), ...trimAll(result) };
}

/** Builds a profile from given fields without prompts (used by tests and automation). */
export function profileFromInput(
  input: ProfileInput,
  store: ProfileStore,
  existing?: ConnectionProfile,
): ConnectionProfile {
  const parsed = input.studioUrl ? parseStudioUrl(input.studioUrl) : undefined;
  if (input.studioUrl && !parsed)
    throw new Error(
      vscode.l10n.t(
        'The studio address does not name an account and a project after the host, as in https://studio.example.com/acme/support-desk/.',
      ),
    );
  const preset = REGION_PRESETS.find((r) => r.id === (input.region ?? existing?.region));
  const merged: Draft = {
    name: input.name ?? existing?.name ?? '',
    accountId: parsed?.accountId ?? input.accountId ?? existing?.accountId ?? '',
    projectId: parsed?.projectId ?? input.projectId ?? existing?.projectId ?? '',
    region: input.region ?? existing?.region ?? 'custom',
    runtimeUrl: input.runtimeUrl ?? existing?.runtimeUrl ?? preset?.runtimeUrl ?? '',
    buildUrl: input.buildUrl ?? existing?.buildUrl ?? preset?.buildUrl ?? '',
    messagingUrl: input.messagingUrl ?? existing?.messagingUrl ?? '',
  };
  const problem = checkProfile(merged, store, existing?.id);
  if (problem) throw new Error(problem);
  return { id: existing?.id ?? newProfileId(merged.name), ...trimAll(merged) };
}

function trimAll(d: Draft): Draft {
  return {
    name: d.name.trim(),
    accountId: d.accountId.trim(),
    projectId: d.projectId.trim(),
    region: d.region,
    runtimeUrl: d.runtimeUrl.trim().replace(/\/+$/, ''),
    buildUrl: d.buildUrl.trim().replace(/\/+$/, ''),
    messagingUrl: d.messagingUrl.trim().replace(/\/+$/, ''),
  };
}
