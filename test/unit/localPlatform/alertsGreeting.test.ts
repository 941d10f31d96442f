import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

describe('alert latency metrics and the greeting', () => {
  const t = useLocalPlatform({ alertEvaluationIntervalMs: 0 });

  it('[ALERT-6][ALERT-7] a conversation with only its greeting gives a latency rule no data', async () => {
    const rule = await call<{ id: string }>('POST', `${t.lp.urls.build}/v1/alert-rules`, {
      headers: { 'x-api-key': LOCAL_KEYS.alerts },
      body: {
        name: 'Any latency',
        project_id: 'support-desk',
        metric: 'turn_latency_p50',
        operator: '>',
        threshold_value: 0,
        window_duration: '5m',
      },
    });
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    const created = await call('POST', `${t.lp.urls.runtime}/v1/acme/support-desk/chat/create`, {
      headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      body: {},
    });
    assert.equal(created.status, 200);
    // The greeting's answer time is a moment after the start: move past it, inside the window.
    await t.admin.advanceClock(5_000);
    await t.admin.evaluateAlerts();
    const after = await call<{ current_state: string; current_value: number | null }>(
      'GET',
      `${t.lp.urls.build}/v1/alert-rules/${rule.body.id}`,
      { headers: { 'x-api-key': LOCAL_KEYS.alerts } },
    );
    assert.equal(after.body.current_state, 'no_data');
    assert.equal(after.body.current_value, null);
  });
});
