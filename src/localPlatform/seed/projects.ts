import type { Platform } from '../platform';
import type { PlatformState, ProjectSettings } from '../state';
import { DEMO_PROJECTS, LOCAL_ACCOUNT, LOCAL_SUPPORT_PROJECT, type LocalProjectCredentials } from './credentials';

export const defaultProjectSettings = (): ProjectSettings => ({
  transcriptVisibility: true,
  responseMetrics: ['CALL_DURATION', 'CALL_TURN', 'CALL_IN_PROGRESS', 'CALL_COMPLETED', 'HANDOFF_TO', 'HANDOFF_REASON'],
  v1FieldWhitelist: false,
  translation: false,
});

/**
 * A demo agent's own project: the project, its project-scoped runtime keys and its sandbox chat and messaging
 * connectors, all serving that agent (runtime keys belong to a project, and a project serves one agent).
 */
export function addProject(state: PlatformState, project: LocalProjectCredentials): void {
  const acc = LOCAL_ACCOUNT.id;
  const proj = project.projectPrefixedId;
  state.projects.push({
    id: proj,
    slug: project.projectId,
    name: project.name,
    accountId: acc,
    settings: defaultProjectSettings(),
  });
  const scoped = { accountId: acc, projectId: proj };
  state.keys.push(
    {
      ...scoped,
      key: project.keys.conversations,
      family: 'conversations',
      dataPermission: true,
      label: `Conversations v3 key (${project.name})`,
    },
    {
      ...scoped,
      key: project.keys.chat,
      family: 'chat',
      environment: 'sandbox',
      label: `Chat API key (${project.name})`,
    },
    {
      ...scoped,
      key: project.keys.externalEvents,
      family: 'externalEvents',
      label: `External Events key (${project.name})`,
    },
    { ...scoped, key: project.keys.dni, family: 'dni', agentId: project.agentId, label: `DNI key (${project.name})` },
  );
  const common = { ...scoped, agentId: project.agentId, environment: 'sandbox' as const, outboundEnabled: false };
  const key = project.agentId.replace(/^ag_/, '');
  state.connectors.push(
    { ...common, id: `conn_${key}_chat`, token: project.connectors.chatToken, kind: 'chat' },
    {
      ...common,
      id: `conn_${key}_webchat`,
      token: project.connectors.webchatToken,
      kind: 'webchat',
      hostDomain: project.connectors.webchatHost,
      appNamespace: null,
      handoffMode: 'ok',
    },
  );
}

/** The seeded projects this platform holds now (the demo seed adds one per demo agent), the support desk's first. */
export function localProjects(platform: Platform): LocalProjectCredentials[] {
  return [LOCAL_SUPPORT_PROJECT, ...Object.values(DEMO_PROJECTS)].filter((p) =>
    platform.state.projects.some((x) => x.id === p.projectPrefixedId),
  );
}
