import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import type { RequestLog } from '../../../src/client/transport';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { failure, isError, localContext } from '../../support/localClient';
import { assumed, RESPONSES, useLocalPlatform } from '../../support/localPlatform';
import type { FaultRequest } from '../../../src/localPlatform/adminApi';
import { newBranch } from '../../support/branches';

const AGENT = 'ag_support';
const MAIN = 'br_support_main';
/** Fields that only the full local platform answers (a spec-minimal one answers only what the spec shows). */
const FULL = RESPONSES === 'full';

describe('client: Agents API', () => {
  const t = useLocalPlatform();
  const fault = (body: FaultRequest): Promise<unknown> => t.admin.addFault({ family: 'build', ...body });
  const client = (opts: Parameters<typeof localContext>[1] = {}): AgentsClient =>
    new AgentsClient(localContext(t.lp, opts));

  describe('agents', () => {
    it('[AGENT-1] creates an agent with its main branch, opens it and finds it in the list', async (ctx) => {
      if (assumed('GET /v1/agents, GET /v1/agents/{agentId} and GET /v1/agents/{agentId}/branches', ctx)) return;
      const agents = client();
      const created = await agents.createAgent({ name: 'Booking Line', description: 'Takes table bookings.' });
      assert.equal(created.name, 'Booking Line', 'the name sent, when the answer has only the agentId');
      if (FULL) assert.equal(created.defaultBranch!.name, 'main');
      assert.deepEqual(
        (await agents.listBranches(created.agentId)).map((b) => b.name),
        ['main'],
      );
      assert.equal((await agents.getAgent(created.agentId)).name, 'Booking Line');
      const page = await agents.listAgents();
      assert.deepEqual(
        page.agents.map((a) => a.name),
        ['Booking Line', 'Support Desk'],
      );
      assert.equal(page.nextOffset, null);
    });

    it('[AGENT-1] refuses a name outside 1 to 128 characters before sending anything', async () => {
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      for (const name of ['', 'x'.repeat(129)]) {
        await assert.rejects(
          agents.createAgent({ name }),
          isError('invalidInput', /nothing was sent\. name: must be 1 to 128 characters/),
        );
      }
      assert.deepEqual(logs, []);
      assert.equal((await agents.createAgent({ name: 'x'.repeat(128) })).name.length, 128);
    });

    it('walks every agent page by page, none lost or repeated, with the name filter on every page', async (ctx) => {
      if (assumed('GET /v1/agents', ctx)) return;
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      for (let i = 0; i < 22; i++)
        await agents.createAgent({ name: `${i % 2 === 0 ? 'Line' : 'Desk'} ${String(i).padStart(2, '0')}` });
      logs.length = 0;
      const all: string[] = [];
      for await (const a of agents.allAgents({ limit: 5 })) all.push(a.agentId);
      assert.equal(all.length, 23);
      assert.equal(new Set(all).size, 23, 'no agent twice');
      assert.ok(all.includes(AGENT));
      assert.equal(logs.length, 5, 'five pages of at most five');
      const lines: string[] = [];
      for await (const a of agents.allAgents({ name: 'line', limit: 4 })) lines.push(a.name);
      assert.deepEqual(
        lines,
        Array.from({ length: 11 }, (_, i) => `Line ${String(i * 2).padStart(2, '0')}`),
      );
    });

    it('refuses a page size outside 1 to 1000 before sending', async () => {
      const logs: RequestLog[] = [];
      await assert.rejects(client({ logs }).listAgents({ limit: 0 }), isError('invalidInput', /limit/));
      assert.deepEqual(logs, []);
    });
  });

  describe('errors', () => {
    it('[AUTH-1][AGENT-13] a rejected key says which credential to check', async (ctx) => {
      if (assumed('GET /v1/agents', ctx)) return;
      await assert.rejects(
        client({ overrides: { agentsApiKey: 'not-a-key' } }).listAgents(),
        isError('unauthorized', /HTTP 401.*Agents API key of the connection profile/),
      );
    });

    it('[AUTH-1] a missing key is named and nothing is sent', async () => {
      const logs: RequestLog[] = [];
      await assert.rejects(
        client({ logs, overrides: { agentsApiKey: undefined } }).listAgents(),
        isError('notConfigured', /Agents API key/),
      );
      assert.deepEqual(logs, []);
    });

    it('[AGENT-13] a read-only key gets a 403 that says so, and nothing changes', async (ctx) => {
      if (assumed('GET /v1/agents', ctx)) return;
      const agents = client({ overrides: { agentsApiKey: LOCAL_KEYS.agentsReadOnly } });
      await assert.rejects(
        agents.createAgent({ name: 'Nope' }),
        isError('forbidden', /Create agent "Nope" failed: the Agents API key lacks permission.*read-only/),
      );
      await assert.rejects(agents.publish(AGENT), isError('forbidden', /Publish to sandbox failed/));
      assert.equal((await agents.listAgents()).agents.length, 1);
    });

    it('[AGENT-13] an unknown agent is 404 naming agentId, an ordinary not-found and not a failed assumption', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}', ctx)) return;
      const err = await failure(client().getAgent('ag_nobody'));
      assert.equal(err.kind, 'notFound');
      assert.equal(err.assumption, undefined);
      assert.deepEqual(
        err.fieldErrors.map((e) => e.field),
        ['agentId'],
      );
      assert.match(err.message, /Open agent ag_nobody failed: it was not found/);
    });

    it('[AGENT-13] a malformed id is 422 naming the field', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}', ctx)) return;
      const err = await failure(client().listBranches('Support Desk'));
      assert.equal(err.kind, 'unprocessable');
      assert.equal(err.status, 422);
      assert.deepEqual(
        err.fieldErrors.map((e) => e.field),
        ['agentId'],
      );
    });

    it('an empty id is refused before sending, so no collection is addressed by mistake', async () => {
      const logs: RequestLog[] = [];
      await assert.rejects(
        client({ logs }).deleteTopic(AGENT, MAIN, ''),
        isError('invalidInput', /topicId: is required/),
      );
      assert.deepEqual(logs, []);
    });

    it('an assumed endpoint answering 404 says which assumption failed and offers the manual path', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches (its 404 is the subject)', ctx)) return;
      await fault({ method: 'GET', path: '/^\\/v1\\/agents$/', status: 404, times: 1 });
      const err = await failure(client().listAgents());
      assert.equal(err.kind, 'notFound');
      assert.deepEqual(err.assumption, {
        row: 'List agents: not shown',
        manualPath: 'Enter the agent id by hand instead.',
      });
      assert.match(
        err.message,
        /List agents failed: this platform does not seem to offer the endpoint \(Agents API, HTTP 404\)/,
      );
      assert.match(err.message, /"List agents: not shown", see docs\/api-assumptions\.md/);
      assert.match(err.message, /Enter the agent id by hand instead\.$/);
    });

    it('an assumed endpoint answering 405 names the assumption, also for one resource; a 404 there is about the resource', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches (its 405 is the subject)', ctx)) return;
      await fault({ method: 'GET', path: '/knowledge-base/topics/', status: 405, times: 1 });
      const err = await failure(client().getTopic(AGENT, MAIN, 'kt_returns'));
      assert.equal(err.assumption?.row, 'List, get, update and delete of topics: not shown');
      const gone = await failure(client().getTopic(AGENT, MAIN, 'kt_gone'));
      assert.equal(gone.kind, 'notFound');
      assert.equal(gone.assumption, undefined);
    });

    it('an endpoint of the spec answering 404 is not reported as an assumption', async () => {
      await fault({ method: 'PATCH', path: '/behavior', status: 404, times: 1 });
      const err = await failure(client().updateBehavior(AGENT, MAIN, 'Be brief.'));
      assert.equal(err.assumption, undefined);
      assert.match(err.message, /Save the behavior of branch br_support_main failed: it was not found/);
    });

    it('[AGENT-13] reads are retried on a 5xx and succeed', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches', ctx)) return;
      const logs: RequestLog[] = [];
      await fault({ method: 'GET', path: '/branches', status: 503, times: 2 });
      const branches = await client({ logs }).listBranches(AGENT);
      assert.deepEqual(
        branches.map((b) => b.name),
        ['main'],
      );
      assert.equal(logs.at(-1)?.retries, 2);
    });
  });

  describe('branches, behavior and topics', () => {
    it('[AGENT-2][AGENT-14] creates a branch, lists it after main and opens it', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches and GET /v1/agents/{agentId}/branches/{branchId}', ctx)) return;
      const agents = client();
      const { branchId: branch } = await newBranch(agents, 'holiday-hours');
      assert.deepEqual(
        (await agents.listBranches(AGENT)).map((b) => b.name),
        ['main', 'holiday-hours'],
      );
      assert.equal((await agents.getBranch(AGENT, branch)).name, 'holiday-hours');
    });

    it('[AGENT-2] an empty branch name is refused before sending; a name in use is a 409', async () => {
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      await assert.rejects(agents.createBranch(AGENT, ''), isError('invalidInput', /name:/));
      assert.deepEqual(logs, []);
      await assert.rejects(agents.createBranch(AGENT, 'Main'), isError('conflict', /already exists/));
    });

    it('[AGENT-4][AGENT-14] reads and saves the behavior of a branch', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches/{branchId}/behavior', ctx)) return;
      const agents = client();
      const { branchId: branch } = await newBranch(agents, 'tone');
      const saved = await agents.updateBehavior(AGENT, branch, 'Be brief and friendly.');
      assert.equal(saved.behavior, 'Be brief and friendly.');
      assert.equal((await agents.getBehavior(AGENT, branch)).behavior, 'Be brief and friendly.');
      assert.notEqual((await agents.getBehavior(AGENT, MAIN)).behavior, 'Be brief and friendly.', 'main is untouched');
    });

    it('[AGENT-5] creates, lists, opens, updates and deletes a topic', async (ctx) => {
      if (
        assumed('GET, PATCH and DELETE /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics/{topicId}', ctx)
      )
        return;
      const agents = client();
      const created = await agents.createTopic(AGENT, MAIN, {
        name: 'Gift cards',
        content: 'Gift cards never expire.',
      });
      const topic = {
        topicId:
          created.topicId ?? (await agents.listTopics(AGENT, MAIN)).find((x) => x.name === 'Gift cards')!.topicId,
      };
      assert.ok((await agents.listTopics(AGENT, MAIN)).some((x) => x.topicId === topic.topicId));
      assert.equal((await agents.getTopic(AGENT, MAIN, topic.topicId)).content, 'Gift cards never expire.');
      const updated = await agents.updateTopic(AGENT, MAIN, topic.topicId, { content: 'Valid for 5 years.' });
      assert.deepEqual([updated.name, updated.content], ['Gift cards', 'Valid for 5 years.']);
      await agents.deleteTopic(AGENT, MAIN, topic.topicId);
      assert.ok(!(await agents.listTopics(AGENT, MAIN)).some((x) => x.topicId === topic.topicId));
    });

    it('[AGENT-5] a topic without a name, or an update with nothing to change, is refused before sending', async () => {
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      await assert.rejects(
        agents.createTopic(AGENT, MAIN, { name: '', content: 'x' }),
        isError('invalidInput', /name: must not be empty/),
      );
      await assert.rejects(
        agents.updateTopic(AGENT, MAIN, 'kt_returns', {}),
        isError('invalidInput', /send name, content or both/),
      );
      assert.deepEqual(logs, []);
    });
  });

  describe('merge', () => {
    it('[AGENT-3] merges a branch into main and lists what changed', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches', ctx)) return;
      const agents = client();
      const { branchId: branch } = await newBranch(agents, 'feature');
      await agents.updateBehavior(AGENT, branch, 'Branch behavior');
      const outcome = await agents.merge(AGENT, branch, { branchName: 'feature' });
      assert.ok(outcome.merged);
      if (FULL)
        assert.deepEqual(
          outcome.result.changes?.map((c) => [c.path, c.change]),
          [['behavior', 'changed']],
        );
      assert.equal((await agents.getBehavior(AGENT, MAIN)).behavior, 'Branch behavior');
    });

    it('[AGENT-3][AGENT-13] a diverged merge returns the parsed conflicts; merging again with resolutions applies the choice', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches/{branchId}/behavior', ctx)) return;
      const agents = client();
      const base = (await agents.getBehavior(AGENT, MAIN)).behavior;
      const { branchId: branch } = await newBranch(agents, 'feature');
      await agents.updateBehavior(AGENT, branch, 'Branch says hello');
      await agents.updateBehavior(AGENT, MAIN, 'Main says hi');
      const outcome = await agents.merge(AGENT, branch);
      assert.ok(!outcome.merged);
      assert.deepEqual(outcome.conflicts, [
        { path: 'behavior', base, ours: 'Main says hi', theirs: 'Branch says hello' },
      ]);
      assert.match(outcome.message, /diverged/);
      assert.equal(outcome.error.status, 409);
      assert.equal((await agents.getBehavior(AGENT, MAIN)).behavior, 'Main says hi', 'nothing was applied');

      const resolved = await agents.merge(AGENT, branch, {
        resolutions: outcome.conflicts.map((c) => ({ path: c.path, strategy: 'theirs' as const })),
      });
      assert.ok(resolved.merged);
      if (FULL)
        assert.deepEqual(resolved.result.changes, [{ path: 'behavior', change: 'changed', source: 'resolution' }]);
      assert.equal((await agents.getBehavior(AGENT, MAIN)).behavior, 'Branch says hello');
    });

    it('[AGENT-3][AGENT-13] a resolution for a path not in conflict is a 400 naming it; a bad strategy is refused before sending', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches', ctx)) return;
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      const { branchId: branch } = await newBranch(agents, 'feature');
      const err = await failure(agents.merge(AGENT, branch, { resolutions: [{ path: 'behavior', strategy: 'ours' }] }));
      assert.equal(err.kind, 'validation');
      assert.ok(err.fieldErrors.length > 0);
      logs.length = 0;
      await assert.rejects(
        agents.merge(AGENT, branch, { resolutions: [{ path: 'behavior', strategy: 'mine' as 'ours' }] }),
        isError('invalidInput', /resolutions\.0\.strategy/),
      );
      assert.deepEqual(logs, []);
    });

    it('[AGENT-3] a merge that fails with a 5xx is not repeated by itself', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/branches', ctx)) return;
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      const { branchId: branch } = await newBranch(agents, 'feature');
      await fault({ method: 'POST', path: '/merge', status: 500, times: 1 });
      await assert.rejects(
        agents.merge(AGENT, branch, { branchName: 'feature' }),
        isError('server', /Merge branch feature into main failed/),
      );
      assert.equal(logs.at(-1)?.retries, 0);
    });
  });

  describe('deployments', () => {
    it('[AGENT-6][AGENT-7][AGENT-8][AGENT-9] publishes, promotes to pre-release and live, and rolls back', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/deployments', ctx)) return;
      const agents = client();
      const published = await agents.publish(AGENT, 'sandbox', 'Holiday hours');
      const d = published.deployment;
      assert.deepEqual(
        [d.environment, d.agentId, typeof d.artifactVersion, typeof d.createdBy, typeof d.createdAt, typeof d.metadata],
        ['sandbox', AGENT, 'string', 'string', 'string', 'object'],
      );
      assert.equal(published.testRunIds.length, 1);
      const pre = await agents.promote(AGENT, d.id, { version: d.version, environment: 'sandbox' });
      assert.equal(pre.deployment.environment, 'pre-release');
      const live = await agents.promote(AGENT, pre.deployment.id, { version: d.version, environment: 'pre-release' });
      assert.equal(live.deployment.environment, 'live');
      assert.equal(live.deployment.version, d.version);
      const back = await agents.rollback(AGENT, live.deployment.id, {
        version: d.version,
        environment: 'live',
        deploymentMessage: 'Wrong hours',
      });
      assert.equal(back.deployment.environment, 'live');
      assert.deepEqual(back.testRunIds, []);
      const lives = await agents.listDeployments(AGENT, 'live');
      assert.equal(lives[0]?.id, back.deployment.id, 'newest first');
      assert.equal((await agents.getDeployment(AGENT, back.deployment.id)).active, true);
    });

    it('[AGENT-7] errors of deployment actions name the release and the environments the caller gave', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/deployments', ctx)) return;
      const agents = client();
      const [live] = await agents.listDeployments(AGENT, 'live');
      await assert.rejects(
        agents.promote(AGENT, live!.id, { version: live!.version, environment: 'live' }),
        isError('conflict', /^Promote release 1 failed: .*HTTP 409/),
      );
      await fault({ method: 'POST', path: '/promote', status: 500, times: 1 });
      const [sandbox] = await agents.listDeployments(AGENT, 'sandbox');
      await assert.rejects(
        agents.promote(AGENT, sandbox!.id, { version: '1', environment: 'sandbox' }),
        isError('server', /^Promote release 1 from sandbox to pre-release failed/),
      );
    });

    it('[AGENT-6][AGENT-13] publishing to live is a 400 naming environment; an unknown environment is refused before sending', async () => {
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      const err = await failure(agents.publish(AGENT, 'live'));
      assert.equal(err.kind, 'validation');
      assert.deepEqual(
        err.fieldErrors.map((e) => e.field),
        ['environment'],
      );
      logs.length = 0;
      await assert.rejects(agents.publish(AGENT, 'production' as 'live'), isError('invalidInput', /environment/));
      await assert.rejects(agents.listDeployments(AGENT, 'staging' as 'live'), isError('invalidInput'));
      assert.deepEqual(logs, []);
    });

    it('[AGENT-6] a publish that fails with a 5xx is sent once and nothing is published', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/deployments', ctx)) return;
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      const before = (await agents.listDeployments(AGENT)).length;
      await fault({ method: 'POST', path: '/deployments/publish', status: 503, times: 1 });
      // A gateway's 503 cannot tell whether the platform behind it acted: never "failed", never "try again".
      await assert.rejects(
        agents.publish(AGENT),
        isError(
          'unavailable',
          /^Publish to sandbox: .*HTTP 503\).* It may have been done: check before trying again\.$/,
        ),
      );
      assert.equal(logs.at(-1)?.retries, 0);
      assert.equal((await agents.listDeployments(AGENT)).length, before);
    });
  });

  describe('real-time configs and phone numbers', () => {
    it('[AGENT-10] lists and opens configs, and saves variables that take effect without publishing', async (ctx) => {
      if (assumed('GET /v1/agents/{agentId}/real-time-configs', ctx)) return;
      const agents = client();
      const configs = await agents.listRealtimeConfigs(AGENT);
      assert.deepEqual(
        configs.map((c) => c.name),
        ['store-settings'],
      );
      assert.equal((await agents.getRealtimeConfig(AGENT, 'store-settings')).schema.type, 'object');
      const saved = await agents.updateVariables(AGENT, 'store-settings', {
        holidayMode: true,
        greetingOverride: null,
      });
      assert.deepEqual(saved.variables, { holidayMode: true, maxWaitMinutes: 15 });
    });

    it('[AGENT-10][AGENT-13] variables the JSON Schema refuses are a 422 whose field errors name each variable', async () => {
      const err = await failure(
        client().updateVariables(AGENT, 'store-settings', { holidayMode: 'yes', maxWaitMinutes: 500 }),
      );
      assert.equal(err.kind, 'unprocessable');
      assert.deepEqual(err.fieldErrors.map((e) => e.field).sort(), [
        'variables.holidayMode',
        'variables.maxWaitMinutes',
      ]);
      assert.match(err.message, /variables\.maxWaitMinutes: must be at most 120/);
    });

    it('[AGENT-11] lists phone numbers, filtered by connectorId', async () => {
      const agents = client();
      assert.deepEqual(
        (await agents.listPhoneNumbers(AGENT)).map((n) => n.number),
        ['+14155550123', '+14155550124'],
      );
      assert.deepEqual(
        (await agents.listPhoneNumbers(AGENT, 'conn_voice_in')).map((n) => [n.number, n.clientEnv, n.connectorId]),
        [['+14155550124', 'sandbox', 'conn_voice_in']],
      );
    });

    it('[AGENT-12] imports numbers (clientEnv live by default) and reports the ones skipped', async () => {
      const agents = client();
      const res = await agents.importPhoneNumbers(AGENT, { phoneNumbers: ['+442071838750', '+14155550123'] });
      assert.deepEqual(res.imported, ['+442071838750']);
      if (FULL) assert.deepEqual(res.skipped, [{ number: '+14155550123', reason: 'already-imported' }]);
      assert.equal((await agents.listPhoneNumbers(AGENT)).find((n) => n.number === '+442071838750')?.clientEnv, 'live');
    });

    it('[AGENT-12] numbers not in E.164, or none at all, are refused before sending, each one named', async () => {
      const logs: RequestLog[] = [];
      const agents = client({ logs });
      const err = await failure(
        agents.importPhoneNumbers(AGENT, { phoneNumbers: ['+442071838750', '+44 20 7183 8750', '4155550123'] }),
      );
      assert.equal(err.kind, 'invalidInput');
      assert.deepEqual(
        err.fieldErrors.map((e) => e.field),
        ['phoneNumbers[1]', 'phoneNumbers[2]'],
      );
      assert.match(err.fieldErrors[0]!.message, /for example \+442071838750/);
      await assert.rejects(
        agents.importPhoneNumbers(AGENT, { phoneNumbers: [] }),
        isError('invalidInput', /phoneNumbers: must hold at least 1 number/),
      );
      assert.deepEqual(logs, []);
    });

    it('[AGENT-12] an import that fails with a 5xx is not repeated by itself', async () => {
      const logs: RequestLog[] = [];
      await fault({ method: 'POST', path: '/telephony/phone-numbers', status: 500, times: 1 });
      await assert.rejects(
        client({ logs }).importPhoneNumbers(AGENT, { phoneNumbers: ['+442071838750'] }),
        isError('server', /Import 1 phone number failed/),
      );
      assert.equal(logs.at(-1)?.retries, 0);
    });
  });
});
