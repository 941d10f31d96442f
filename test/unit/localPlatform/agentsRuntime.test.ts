import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  importPhoneNumbersResponseSchema,
  listPhoneNumbersResponseSchema,
  listRealtimeConfigsResponseSchema,
  realtimeConfigSchema,
  updatedVariablesSchema,
  type ImportPhoneNumbersResponse,
  type ListDeploymentsResponse,
  type ListPhoneNumbersResponse,
  type ListRealtimeConfigsResponse,
  type RealtimeConfig,
  type UpdatedVariables,
} from '../../../src/contract/agents';
import { servedVariables } from '../../../src/localPlatform/agents/served';
import { useLocalPlatform } from '../../support/localPlatform';
import { agentsCaller, type ErrorBody, SUPPORT } from './agentsSupport';

describe('Agents API: real-time configs and telephony numbers (spec: Agents API)', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);
  const agentPath = `/v1/agents/${SUPPORT.agentId}`;
  const configPath = `${agentPath}/real-time-configs/store-settings`;
  const numbersPath = `${agentPath}/telephony/phone-numbers`;

  describe('real-time configs', () => {
    it('[AGENT-10] configs list and get with their JSON Schema and current variables', async () => {
      const list = await api.get<ListRealtimeConfigsResponse>(`${agentPath}/real-time-configs`);
      assert.deepEqual(
        listRealtimeConfigsResponseSchema.parse(list.body).configs.map((c) => c.name),
        ['store-settings'],
      );
      const one = realtimeConfigSchema.parse((await api.get<RealtimeConfig>(configPath)).body);
      assert.equal(one.schema.type, 'object');
      assert.deepEqual(one.variables, { holidayMode: false, maxWaitMinutes: 15, greetingOverride: '' });
    });

    it('[AGENT-10] PATCH variables takes effect at once, without publishing; other variables stay and null removes one', async () => {
      const before = (await api.get<ListDeploymentsResponse>(`${agentPath}/deployments`)).body.deployments.length;
      const res = await api.patch<UpdatedVariables>(`${configPath}/variables`, {
        variables: { holidayMode: true, greetingOverride: null },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(updatedVariablesSchema.parse(res.body).variables, { holidayMode: true, maxWaitMinutes: 15 });
      assert.deepEqual((await api.get<RealtimeConfig>(configPath)).body.variables, {
        holidayMode: true,
        maxWaitMinutes: 15,
      });
      assert.deepEqual(
        servedVariables(t.lp.platform, SUPPORT.agentId)['store-settings'],
        { holidayMode: true, maxWaitMinutes: 15 },
        'what the agent reads now',
      );
      const after = (await api.get<ListDeploymentsResponse>(`${agentPath}/deployments`)).body.deployments.length;
      assert.equal(after, before, 'no deployment was made');
    });

    it('[AGENT-10][AGENT-13] variables that break the JSON Schema are 422 naming each bad variable; nothing changes', async () => {
      const res = await api.patch<ErrorBody>(`${configPath}/variables`, {
        variables: { holidayMode: 'yes', maxWaitMinutes: 500, greetingOverride: 'x'.repeat(501), colour: 'red' },
      });
      assert.equal(res.status, 422);
      assert.deepEqual(res.body.errors.map((e) => e.field).sort(), [
        'variables.colour',
        'variables.greetingOverride',
        'variables.holidayMode',
        'variables.maxWaitMinutes',
      ]);
      assert.equal(res.body.errors.find((e) => e.field === 'variables.maxWaitMinutes')?.message, 'must be at most 120');
      assert.deepEqual((await api.get<RealtimeConfig>(configPath)).body.variables, {
        holidayMode: false,
        maxWaitMinutes: 15,
        greetingOverride: '',
      });
    });

    it('[AGENT-10][AGENT-13] a body without a variables object is 400', async () => {
      for (const body of [{}, { variables: [1] }, { variables: 'x' }]) {
        const res = await api.patch<ErrorBody>(`${configPath}/variables`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.errors[0]?.field, 'variables');
      }
    });
  });

  describe('telephony numbers', () => {
    it("[AGENT-11] lists the agent's numbers with number, projectId, accountId, clientEnv, connectorId; connectorId filters", async () => {
      const res = await api.get<ListPhoneNumbersResponse>(numbersPath);
      assert.equal(res.status, 200);
      const { phoneNumbers } = listPhoneNumbersResponseSchema.parse(res.body);
      assert.deepEqual(phoneNumbers, [
        {
          number: '+14155550123',
          projectId: 'PROJECT-5a7e1c0d',
          accountId: 'ACCOUNT-a1b2c3d',
          clientEnv: 'live',
          connectorId: 'conn_voice_out',
        },
        {
          number: '+14155550124',
          projectId: 'PROJECT-5a7e1c0d',
          accountId: 'ACCOUNT-a1b2c3d',
          clientEnv: 'sandbox',
          connectorId: 'conn_voice_in',
        },
      ]);
      const filtered = await api.get<ListPhoneNumbersResponse>(`${numbersPath}?connectorId=conn_voice_in`);
      assert.deepEqual(
        filtered.body.phoneNumbers.map((n) => n.number),
        ['+14155550124'],
      );
      const none = await api.get<ListPhoneNumbersResponse>(`${numbersPath}?connectorId=conn_nothing`);
      assert.deepEqual(none.body.phoneNumbers, []);
    });

    it('[AGENT-12] import returns imported numbers, clientEnv defaults to live, and they are listed', async () => {
      const res = await api.post<ImportPhoneNumbersResponse>(numbersPath, {
        phoneNumbers: ['+442071838750', '+33612345678'],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(importPhoneNumbersResponseSchema.parse(res.body).imported, ['+442071838750', '+33612345678']);
      const listed = (await api.get<ListPhoneNumbersResponse>(numbersPath)).body.phoneNumbers.filter(
        (n) => n.number.startsWith('+44') || n.number.startsWith('+33'),
      );
      assert.deepEqual(
        listed.map((n) => [n.number, n.clientEnv, n.connectorId]),
        [
          ['+442071838750', 'live', 'conn_voice_out'],
          ['+33612345678', 'live', 'conn_voice_out'],
        ],
      );
      const sandbox = await api.post<ImportPhoneNumbersResponse>(numbersPath, {
        phoneNumbers: ['+442071838751'],
        clientEnv: 'sandbox',
      });
      const number = (await api.get<ListPhoneNumbersResponse>(numbersPath)).body.phoneNumbers.find(
        (n) => n.number === '+442071838751',
      );
      assert.deepEqual(sandbox.body.imported, ['+442071838751']);
      assert.equal(number?.clientEnv, 'sandbox');
      assert.match(number?.connectorId ?? '', /^conn_/);
    });

    it('[AGENT-12] numbers already known are skipped with a reason: repeated, already on this agent, or on another agent', async () => {
      const other = await api.post<{ agentId: string }>('/v1/agents', { name: 'Other line' });
      await api.post(`/v1/agents/${other.body.agentId}/telephony/phone-numbers`, { phoneNumbers: ['+442071838752'] });
      const res = await api.post<ImportPhoneNumbersResponse>(numbersPath, {
        phoneNumbers: ['+442071838753', '+442071838753', '+14155550123', '+442071838752'],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.imported, ['+442071838753']);
      assert.deepEqual(res.body.skipped, [
        { number: '+442071838753', reason: 'duplicate' },
        { number: '+14155550123', reason: 'already-imported' },
        { number: '+442071838752', reason: 'taken' },
      ]);
    });

    it('[AGENT-12][AGENT-13] an empty list, a number not in E.164 form, or a bad clientEnv is 400 and nothing is imported', async () => {
      const cases: Array<{ body: unknown; fields: string[] }> = [
        { body: { phoneNumbers: [] }, fields: ['phoneNumbers'] },
        { body: {}, fields: ['phoneNumbers'] },
        {
          body: { phoneNumbers: ['+442071838754', '+44 20 7183 8755', '02071838756', '+999123'] },
          fields: ['phoneNumbers[1]', 'phoneNumbers[2]', 'phoneNumbers[3]'],
        },
        { body: { phoneNumbers: ['+442071838754'], clientEnv: 'staging' }, fields: ['clientEnv'] },
        { body: { phoneNumbers: ['+442071838754'], connectorId: 'conn_nothing' }, fields: ['connectorId'] },
      ];
      for (const c of cases) {
        const res = await api.post<ErrorBody>(numbersPath, c.body);
        assert.equal(res.status, 400, JSON.stringify(c.body));
        assert.deepEqual(
          res.body.errors.map((e) => e.field),
          c.fields,
        );
      }
      const spaced = await api.post<ErrorBody>(numbersPath, { phoneNumbers: ['+44 20 7183 8755'] });
      assert.match(spaced.body.errors[0]!.message, /\+442071838755/, 'says the E.164 form');
      const listed = (await api.get<ListPhoneNumbersResponse>(numbersPath)).body.phoneNumbers;
      assert.ok(!listed.some((n) => n.number === '+442071838754'));
    });
  });
});
