import { randomUUID } from 'node:crypto';
import type {
  ClockReply,
  ConnectionReply,
  FaultsReply,
  HealthReply,
  OkReply,
  RequestsReply,
  ResetReply,
} from './adminApi';
import { buildError, Router } from './http';
import type { Fault } from './faults';
import type { Platform } from './platform';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from './seed/credentials';
import { localProjects } from './seed/projects';
import { applySeed, SEED_NAMES, type SeedName } from './seed/seeds';

/**
 * `/_local/...`: reset, seed, faults and the clock, for tests and demos. Families add their
 * own admin routes (evaluate alerts, change a resource as another user, ...).
 */
export function createAdminRouter(platform: Platform): Router {
  const r = new Router();
  // pid: which process serves (the editor runs its local platform in a child process).
  r.get('/health', () => ({ body: { ok: true, now: platform.now(), pid: process.pid } satisfies HealthReply }));
  // What an editor needs to connect to this platform: its three bases (relative to the origin) and the
  // seeded account's credentials. Loopback only, like everything under /_local.
  r.get('/connection', () => ({
    body: {
      bases: { runtime: '/runtime', build: '/build', messaging: '/messaging' },
      accountId: LOCAL_ACCOUNT.slug,
      projectId: LOCAL_PROJECT.slug,
      keys: LOCAL_KEYS,
      connectors: LOCAL_CONNECTORS,
      projects: localProjects(platform),
      // Data saved before data ids were kept gets one now.
      dataId: (platform.state.dataId ??= randomUUID()),
    } satisfies ConnectionReply,
  }));
  r.post('/reset', (ctx) => {
    const body = (ctx.json() ?? {}) as { seed?: unknown };
    const seed = (body.seed ?? 'base') as SeedName;
    if (!SEED_NAMES.includes(seed))
      throw buildError(400, `Unknown seed: ${String(seed)}`, [
        { field: 'seed', message: `one of ${SEED_NAMES.join(', ')}` },
      ]);
    platform.faults.clear();
    platform.clock.set(Date.now());
    applySeed(platform, seed, platform.demoAnchor);
    return { body: { ok: true, seed } satisfies ResetReply };
  });
  r.get('/faults', () => ({ body: { faults: platform.faults.list() } satisfies FaultsReply }));
  r.post('/faults', (ctx) => {
    const body = ctx.json() as Omit<Fault, 'id'> | undefined;
    if (!body || typeof body !== 'object') throw buildError(400, 'A fault object is required');
    const problem = checkFault(body);
    if (problem) throw buildError(400, `The fault is not valid: ${problem.message}`, [problem]);
    const fault = platform.faults.add({ ...body, family: body.family ?? 'any' });
    return { status: 201, body: fault };
  });
  r.delete('/faults', () => {
    platform.faults.clear();
    return { body: { ok: true } satisfies OkReply };
  });
  // One fault cleared, the others kept (tests that run side by side each clear their own).
  r.delete('/faults/:id', (ctx) => {
    if (!platform.faults.remove(ctx.param('id'))) throw buildError(404, `No fault ${ctx.param('id')}`);
    return { body: { ok: true } satisfies OkReply };
  });
  // What the families were asked since `since` (a seq), filtered by base and a part of the path; no headers.
  r.get('/requests', (ctx) => {
    const since = ctx.query.get('since');
    const path = ctx.query.get('path');
    const base = ctx.query.get('base');
    return {
      body: {
        requests: platform.requests.list({
          ...(since !== null && /^\d+$/.test(since) ? { since: Number(since) } : {}),
          ...(path !== null ? { path } : {}),
          ...(base !== null ? { base } : {}),
        }),
      } satisfies RequestsReply,
    };
  });
  r.delete('/requests', () => {
    platform.requests.clear();
    return { body: { ok: true } satisfies OkReply };
  });
  r.get('/clock', () => ({ body: { now: platform.now(), offsetMs: platform.clock.offset } satisfies ClockReply }));
  r.post('/clock', (ctx) => {
    const body = (ctx.json() ?? {}) as { advanceMs?: unknown; set?: unknown };
    // The clock must stay a valid date (about ±270,000 years): keep well inside that.
    const target =
      typeof body.advanceMs === 'number'
        ? platform.clock.now() + body.advanceMs
        : typeof body.set === 'string'
          ? Date.parse(body.set)
          : Number.NaN;
    if (!Number.isFinite(target) || target < 0 || target > MAX_CLOCK_MS)
      throw buildError(
        400,
        'Send advanceMs (a number of milliseconds) or set (an ISO 8601 instant) that keeps the clock between the years 1970 and 9999',
      );
    platform.clock.set(target);
    return { body: { now: platform.now(), offsetMs: platform.clock.offset } satisfies ClockReply };
  });
  r.patch('/options', (ctx) => {
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(body)) {
      if (!(k in platform.options) || typeof v !== 'number')
        throw buildError(400, `Unknown or non-numeric option: ${k}`);
      (platform.options as unknown as Record<string, number>)[k] = v;
    }
    return { body: platform.options };
  });
  r.patch('/projects/:projectId/settings', (ctx) => {
    const project =
      platform.projectById(ctx.param('projectId')) ??
      platform.state.projects.find((p) => p.slug === ctx.params.projectId);
    if (!project) throw buildError(404, 'Project not found');
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    const errors = Object.entries(body).flatMap(([k, v]) => {
      if (!(k in project.settings))
        return [{ field: k, message: `is not a project setting (${Object.keys(project.settings).join(', ')})` }];
      if (k === 'responseMetrics')
        return Array.isArray(v) && v.every((x) => typeof x === 'string')
          ? []
          : [{ field: k, message: 'must be a list of metric names' }];
      return typeof v === 'boolean' ? [] : [{ field: k, message: 'must be true or false' }];
    });
    if (errors.length) throw buildError(400, 'Invalid project settings', errors);
    Object.assign(project.settings, body);
    return { body: project.settings };
  });
  return r;
}

const MAX_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** What is wrong with a fault, or undefined: a bad one would break every request it matches. */
function checkFault(f: Partial<Fault>): { field: string; message: string } | undefined {
  if (f.family !== undefined && !['runtime', 'build', 'messaging', 'any'].includes(f.family))
    return { field: 'family', message: 'must be runtime, build, messaging or any' };
  if (f.path !== undefined) {
    if (typeof f.path !== 'string') return { field: 'path', message: 'must be a string' };
    if (f.path.length > 2 && f.path.startsWith('/') && f.path.endsWith('/')) {
      try {
        new RegExp(f.path.slice(1, -1));
      } catch (err) {
        return { field: 'path', message: `is not a valid /regular expression/: ${(err as Error).message}` };
      }
    }
  }
  if (f.status !== undefined && !(Number.isInteger(f.status) && f.status >= 100 && f.status <= 599))
    return { field: 'status', message: 'must be an HTTP status from 100 to 599' };
  if (f.reset !== undefined && f.reset !== 'before' && f.reset !== 'after')
    return { field: 'reset', message: 'must be before or after (the request carried out or not)' };
  for (const key of ['rawBody', 'contentType'] as const) {
    if (f[key] !== undefined && typeof f[key] !== 'string') return { field: key, message: 'must be a string' };
  }
  if (f.contentType !== undefined && /[\r\n]/.test(f.contentType))
    return { field: 'contentType', message: 'must be one line' };
  for (const key of ['delayMs', 'times', 'retryAfter'] as const) {
    const v = f[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      return { field: key, message: 'must be a non-negative number' };
  }
  if (f.chaos !== undefined) return checkChaos(f.chaos);
  return undefined;
}

/** A `chaos` fault: a whole seed, chances from 0 to 1, a delay of up to a minute. */
function checkChaos(c: unknown): { field: string; message: string } | undefined {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return { field: 'chaos', message: 'must be an object' };
  const { seed, rate, dropShare, maxDelayMs } = c as Record<string, unknown>;
  if (!Number.isSafeInteger(seed)) return { field: 'chaos.seed', message: 'must be a whole number' };
  for (const [field, v] of [
    ['chaos.rate', rate],
    ['chaos.dropShare', dropShare],
  ] as const)
    if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1))
      return { field, message: 'must be a number from 0 to 1' };
  if (maxDelayMs !== undefined && !(typeof maxDelayMs === 'number' && maxDelayMs >= 0 && maxDelayMs <= 60_000))
    return { field: 'chaos.maxDelayMs', message: 'must be a number of milliseconds from 0 to 60000' };
  return undefined;
}
