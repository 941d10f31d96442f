import { buildError, Router } from './http';
import type { Fault } from './faults';
import type { Platform } from './platform';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from './seed/credentials';
import { applySeed, SEED_NAMES, type SeedName } from './seed/seeds';

/**
 * `/_local/...`: reset, seed, faults and the clock, for tests and demos. Families add their
 * own admin routes (evaluate alerts, change a resource as another user, ...).
 */
export function createAdminRouter(platform: Platform): Router {
  const r = new Router();
  r.get('/health', () => ({ body: { ok: true, now: platform.now() } }));
  // What an editor needs to connect to this platform: its three bases (relative to the origin) and the
  // seeded account's credentials. Loopback only, like everything under /_local.
  r.get('/connection', () => ({ body: { bases: { runtime: '/runtime', build: '/build', messaging: '/messaging' }, accountId: LOCAL_ACCOUNT.slug, projectId: LOCAL_PROJECT.slug, keys: LOCAL_KEYS, connectors: LOCAL_CONNECTORS } }));
  r.post('/reset', (ctx) => {
    const body = (ctx.json() ?? {}) as { seed?: unknown };
    const seed = (body.seed ?? 'base') as SeedName;
    if (!SEED_NAMES.includes(seed)) throw buildError(400, `Unknown seed: ${String(seed)}`, [{ field: 'seed', message: `one of ${SEED_NAMES.join(', ')}` }]);
    platform.faults.clear();
    platform.clock.set(Date.now());
    applySeed(platform, seed, platform.demoAnchor);
    return { body: { ok: true, seed } };
  });
  r.get('/faults', () => ({ body: { faults: platform.faults.list() } }));
  r.post('/faults', (ctx) => {
    const body = ctx.json() as Omit<Fault, 'id'> | undefined;
    if (!body || typeof body !== 'object') throw buildError(400, 'A fault object is required');
    const fault = platform.faults.add({ ...body, family: body.family ?? 'any' });
    return { status: 201, body: fault };
  });
  r.delete('/faults', () => {
    platform.faults.clear();
    return { body: { ok: true } };
  });
  r.get('/clock', () => ({ body: { now: platform.now(), offsetMs: platform.clock.offset } }));
  r.post('/clock', (ctx) => {
    const body = (ctx.json() ?? {}) as { advanceMs?: unknown; set?: unknown };
    if (typeof body.advanceMs === 'number') platform.clock.advance(body.advanceMs);
    else if (typeof body.set === 'string' && !Number.isNaN(Date.parse(body.set))) platform.clock.set(Date.parse(body.set));
    else throw buildError(400, 'Send advanceMs (number) or set (ISO 8601)');
    return { body: { now: platform.now(), offsetMs: platform.clock.offset } };
  });
  r.patch('/options', (ctx) => {
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(body)) {
      if (!(k in platform.options) || typeof v !== 'number') throw buildError(400, `Unknown or non-numeric option: ${k}`);
      (platform.options as unknown as Record<string, number>)[k] = v;
    }
    return { body: platform.options };
  });
  r.patch('/projects/:projectId/settings', (ctx) => {
    const project = platform.projectById(ctx.params.projectId!) ?? platform.state.projects.find((p) => p.slug === ctx.params.projectId);
    if (!project) throw buildError(404, 'Project not found');
    Object.assign(project.settings, ctx.json() ?? {});
    return { body: project.settings };
  });
  return r;
}
