import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import type { StoredAgent } from '../../../src/localPlatform/agents/model';
import type { LocalPlatform } from '../../../src/localPlatform/server';
import { call, type JsonResponse } from '../../support/http';

/** What the Agents API tests share: calls with the Agents key, and fixtures. */

export interface ErrorBody {
  message: string;
  errors: Array<{ field: string; message: string }>;
}

export interface AgentsCaller {
  get<T = unknown>(path: string, key?: string | null): Promise<JsonResponse<T>>;
  post<T = unknown>(path: string, body?: unknown, key?: string | null): Promise<JsonResponse<T>>;
  patch<T = unknown>(path: string, body?: unknown, key?: string | null): Promise<JsonResponse<T>>;
  del<T = unknown>(path: string, key?: string | null): Promise<JsonResponse<T>>;
  admin<T = unknown>(path: string, body?: unknown): Promise<JsonResponse<T>>;
}

/** Calls `{build_base_url}` paths with the Agents key (or `key`; null sends none). */
export function agentsCaller(t: { readonly lp: LocalPlatform }): AgentsCaller {
  const send = <T>(
    method: string,
    path: string,
    body: unknown,
    key: string | null | undefined,
  ): Promise<JsonResponse<T>> =>
    call<T>(method, t.lp.urls.build + path, {
      body,
      headers: key === null ? {} : { 'x-api-key': key ?? LOCAL_KEYS.agents },
    });
  return {
    get: (path, key) => send('GET', path, undefined, key),
    post: (path, body, key) => send('POST', path, body, key),
    patch: (path, body, key) => send('PATCH', path, body, key),
    del: (path, key) => send('DELETE', path, undefined, key),
    admin: (path, body) => call('POST', t.lp.urls.admin + path, { body }),
  };
}

export const SUPPORT = { agentId: 'ag_support', mainId: 'br_support_main' } as const;

/** An agent of another workspace, put straight into the state (no API makes accounts). */
export function addForeignAgent(lp: LocalPlatform): StoredAgent {
  const at = '2026-01-05T09:00:00.000Z';
  lp.platform.state.accounts.push({ id: 'ACCOUNT-0ther00', slug: 'other', name: 'Other Inc' });
  const agent: StoredAgent = {
    agentId: 'ag_foreign',
    name: 'Foreign',
    description: '',
    accountId: 'ACCOUNT-0ther00',
    projectId: 'PROJECT-0ther000',
    createdAt: at,
    updatedAt: at,
    createdBy: 'someone@other.test',
  };
  lp.platform.state.agents.agents[agent.agentId] = agent;
  lp.platform.state.agents.branches.br_foreign_main = {
    branchId: 'br_foreign_main',
    agentId: agent.agentId,
    name: 'main',
    base: { behavior: '', topics: {} },
    content: { behavior: 'secret', topics: {} },
    createdAt: at,
    updatedAt: at,
    createdBy: 'someone@other.test',
    mergedAt: null,
  };
  return agent;
}
