// The alerts model's writes against a real local platform, in the mode of the run and in spec-only mode (no rule
// or endpoint list): each write is sent once, keeps what the platform answered, and is shown in one place.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { AlertsClient } from '../../../../src/client/alerts';
import type { CreateAlertRuleRequest } from '../../../../src/contract/alerts';
import { LOCAL_PROJECT } from '../../../../src/localPlatform/seed/credentials';
import { type LocalPlatform, startLocalPlatform } from '../../../../src/localPlatform/server';
import { type AlertsChange, AlertsModel } from '../../../../src/ui/model/alertsModel';
import { alertsSourceOf } from '../../../../src/ui/model/alertsSource';
import { KeptAlerts, type KeptState } from '../../../../src/ui/model/keptAlerts';
import { localContext } from '../../../support/localClient';
import { LocalAdmin } from '../../../support/localAdmin';
import { RESPONSES } from '../../../support/localPlatform';

const rule: CreateAlertRuleRequest = {
  name: 'Busy lines',
  metric: 'call_volume',
  threshold_value: 50,
  operator: '>=',
  window_duration: '10m',
  project_id: LOCAL_PROJECT.slug,
};

/** The editor's global state as a plain map (what survives the model: a new model of the profile reads it). */
function memoryState(): KeptState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, defaultValue: T): T => (values.has(key) ? (values.get(key) as T) : defaultValue),
    update: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

for (const mode of [...new Set([RESPONSES, 'spec-only' as const])]) {
  describe(`alerts model: writes and what is kept (${mode} platform)`, () => {
    let lp: LocalPlatform;
    let state: KeptState;
    const model = (): AlertsModel =>
      new AlertsModel(
        alertsSourceOf(
          () => new AlertsClient(localContext(lp)),
          { id: 'local', projectId: LOCAL_PROJECT.slug },
          new KeptAlerts(state, 'local'),
        ),
      );
    const posts = async (path: string): Promise<number> =>
      (await new LocalAdmin(lp.urls.admin).requests({ base: 'build' })).filter(
        (r) => r.method === 'POST' && r.path === path,
      ).length;

    before(async () => {
      lp = await startLocalPlatform({ streamDelayMs: 0, seed: 'base', responses: mode });
    });
    beforeEach(async () => {
      await new LocalAdmin(lp.urls.admin).reset('base');
      state = memoryState();
    });
    after(() => lp.close());

    it('[ALERT-8][ALERT-3] a rule created is sent once and shown, listed or kept, by the next model of the profile too', async () => {
      const alerts = model();
      const changes: AlertsChange[] = [];
      alerts.onDidChange((c) => changes.push(c));
      const shownBefore = await alerts.knownRules.get();
      const created = await alerts.createRule(rule);
      assert.equal(created.current_state, 'ok');
      assert.equal(await posts('/v1/alert-rules'), 1, 'sent once');
      assert.ok(changes.includes('rules'), 'readers hear the rules changed');
      assert.ok(changes.includes('currentAlerts'), 'and the current alerts, of the same evaluations');
      for (const next of [alerts, model()]) {
        const shown = await next.knownRules.get();
        assert.ok(
          shown.items.some((r) => r.id === created.id && r.record?.name === 'Busy lines'),
          JSON.stringify(shown),
        );
        assert.equal(shown.notListed !== undefined, mode === 'spec-only', 'kept here only where rules are not listed');
        assert.equal(next.rule(created.id)?.name, 'Busy lines');
      }
      assert.notEqual(await alerts.knownRules.get(), shownBefore);
    });

    it('[ALERT-8] a rule added by its id is acted on with a flat PATCH, and the answer is what is shown', async () => {
      const made = await new AlertsClient(localContext(lp)).createRule({ ...rule, name: 'Made in the studio' });
      const alerts = model();
      await alerts.add('rules', made.id);
      assert.equal(alerts.rule(made.id), undefined, 'only its id is known');
      const saved = await alerts.updateRule(made.id, { enabled: false });
      assert.equal(saved.enabled, false);
      const shown = (await alerts.knownRules.get()).items.find((r) => r.id === made.id);
      assert.equal(shown?.record?.enabled, false);
      assert.equal(alerts.rule(made.id)?.name, 'Made in the studio');
    });

    it('[HOOK-1] an endpoint created is sent once and kept without its secret; deleted, it is shown no more', async () => {
      const alerts = model();
      const created = await alerts.createEndpoint({
        name: 'Pager',
        url: 'http://127.0.0.1:9/alerts',
        event_types: ['alerts.triggered'],
      });
      assert.ok(created.signing_secret, 'the secret is handed back this once');
      assert.equal(await posts('/v1/webhook-endpoints'), 1, 'sent once');
      assert.doesNotMatch(JSON.stringify(state.get('agentWorkbench.rememberedAlerts', {})), /signing_secret|whsec/);
      const shown = await alerts.knownEndpoints.get();
      // A platform that neither lists endpoints nor says the new one's id leaves nothing to keep it by.
      if (created.id === undefined) return assert.deepEqual(shown.items, []);
      assert.ok(
        shown.items.some((e) => e.id === created.id && e.record?.name === 'Pager'),
        JSON.stringify(shown),
      );
      await alerts.deleteEndpoint(created.id);
      assert.ok(!(await alerts.knownEndpoints.get()).items.some((e) => e.id === created.id));
      assert.equal(alerts.endpoint(created.id), undefined);
    });

    it('a rule taken off what is shown is not deleted on the platform', async () => {
      const alerts = model();
      const created = await alerts.createRule(rule);
      await alerts.forget('rules', created.id);
      const shown = await alerts.knownRules.get();
      // Listed rules are the platform's: the rule is still there; kept ones are only what is kept here.
      assert.equal(
        shown.items.some((r) => r.id === created.id),
        mode !== 'spec-only',
      );
    });
  });
}
