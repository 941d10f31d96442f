import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOSTILE_CORPUS, ONE_MEGABYTE } from '../../support/hostileCorpus';
import { type HostileSeed, metricKey, seedHostile } from '../../support/hostileSeed';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

/**
 * The hostile corpus goes into every text field through the platform's APIs and comes back as it went in (lone
 * surrogates too: JSON carries them escaped); at each field's limit the longest value is taken and one character more
 * is refused with a message that names the field.
 */
describe('Hostile content on the local platform', () => {
  const t = useLocalPlatform();
  let seed: HostileSeed;
  const get = async <T>(base: 'build' | 'runtime', path: string, key: string): Promise<T> => {
    const r = await call<T>('GET', `${t.lp.urls[base]}${path}`, { headers: { 'x-api-key': key } });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
    return r.body;
  };

  it('[AGENT-1][AGENT-2][AGENT-5] agent, branch and topic names, descriptions and content come back as written', async () => {
    seed = await seedHostile(t.lp.urls.origin, { reset: false });
    const keys = seed.connection.keys;
    const { agents } = await get<{ agents: Array<{ agentId: string; name: string; description: string }> }>(
      'build',
      '/v1/agents?limit=100',
      keys.agents,
    );
    for (const a of seed.agents) {
      const listed = agents.find((x) => x.agentId === a.agentId);
      assert.equal(listed?.name, a.name, a.entry ?? 'the long agent');
      assert.equal(listed?.description, a.description);
    }
    const { branches } = await get<{ branches: Array<{ branchId: string; name: string }> }>(
      'build',
      `/v1/agents/${seed.longAgent.agentId}/branches`,
      keys.agents,
    );
    for (const b of seed.branches) assert.equal(branches.find((x) => x.branchId === b.branchId)?.name, b.name);
    const agentId = seed.connection.projects[0]!.agentId;
    const mainId = (
      await get<{ branches: Array<{ branchId: string; name: string }> }>(
        'build',
        `/v1/agents/${agentId}/branches`,
        keys.agents,
      )
    ).branches.find((b) => b.name === 'main')!.branchId;
    const { topics } = await get<{
      topics: Array<{ topicId: string; name: string; content: string; updatedBy?: string }>;
    }>('build', `/v1/agents/${agentId}/branches/${mainId}/knowledge-base/topics`, keys.agents);
    for (const topic of seed.topics) {
      const listed = topics.find((x) => x.topicId === topic.topicId);
      assert.equal(listed?.name, topic.name);
      assert.equal(listed?.content, topic.content);
    }
  });

  it('[CONV-21] a recorded conversation keeps every text of every entry, and 1 MB texts, as written', async () => {
    seed = await seedHostile(t.lp.urls.origin, { reset: false });
    const { accountId, projectId, keys } = seed.connection;
    const read = async (id: string) => {
      const { conversations } = await get<{ conversations: Array<Record<string, unknown>> }>(
        'runtime',
        `/v3/${accountId}/${projectId}/conversations?limit=5000&client_env=sandbox`,
        keys.conversations,
      );
      const found = conversations.find((c) => c.id === id);
      assert.ok(found, `conversation ${id} is listed`);
      return found as {
        variant_name: string;
        handoff_reason: string;
        state: Record<string, unknown>;
        metrics: Record<string, unknown>;
        turns: Array<{ user_input: string; agent_response: string; intents: string[]; entities: unknown }>;
      };
    };
    const hostile = await read(seed.conversations.hostile);
    assert.deepEqual(
      hostile.turns.map((x) => [x.user_input, x.agent_response, x.intents]),
      HOSTILE_CORPUS.map((e) => [e.text, e.text, [e.text]]),
    );
    for (const e of HOSTILE_CORPUS) {
      assert.equal(hostile.state[e.text], e.text, `state ${e.name}`);
      assert.equal(hostile.metrics[metricKey(HOSTILE_CORPUS.indexOf(e))], e.text, `metrics ${e.name}`);
    }
    const large = await read(seed.conversations.large);
    assert.equal(large.turns[0]!.user_input, ONE_MEGABYTE.text);
    assert.equal(large.state.note, ONE_MEGABYTE.text);
    // The chat's message metadata and integration attributes are in its state.
    const chat = await read(seed.conversations.chat);
    const metadata = chat.state.metadata as Record<string, string>;
    for (const e of HOSTILE_CORPUS)
      assert.equal(
        Object.getOwnPropertyDescriptor(metadata, e.name === 'prototype-keys' ? '__proto__' : e.name)?.value,
        e.text,
      );
    assert.equal(chat.turns[1]!.user_input, seed.chatMessage);
  });

  it('[ALERT-2][HOOK-1] alert rule and webhook endpoint names come back as written, and every entry is in them', async () => {
    seed = await seedHostile(t.lp.urls.origin, { reset: false });
    const key = seed.connection.keys.alerts;
    const { alert_rules: rules } = await get<{ alert_rules: Array<{ id: string; name: string }> }>(
      'build',
      '/v1/alert-rules',
      key,
    );
    for (const r of seed.rules) assert.equal(rules.find((x) => x.id === r.id)?.name, r.name);
    assert.equal(
      new Set(seed.rules.flatMap((r) => r.entries)).size,
      HOSTILE_CORPUS.length,
      'every entry in a rule name',
    );
    assert.equal(
      new Set(seed.endpoints.flatMap((e) => e.entries)).size,
      HOSTILE_CORPUS.length,
      'every entry in an endpoint name or address',
    );
  });

  it('[AGENT-1][ALERT-11] one character over each limit is refused with a 400 that names the field, and nothing is shown', async () => {
    seed = await seedHostile(t.lp.urls.origin, { reset: false });
    assert.ok(seed.refusals.length >= 9, seed.refusals.map((r) => r.field).join(', '));
    for (const r of seed.refusals) {
      assert.equal(r.status, 400, `${r.field}: ${r.message}`);
      const named = r.field.split(' ')[1] === 'name' ? 'name' : r.field.split(' ').at(-1)!;
      assert.match(r.message, new RegExp(`${named}|${r.max}`, 'i'), `${r.field}: ${r.message}`);
      assert.match(r.message, new RegExp(String(r.max)), `${r.field} names its limit: ${r.message}`);
    }
  });
});
