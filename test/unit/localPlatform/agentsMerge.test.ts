import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  mergeConflictBodySchema,
  mergeResultSchema,
  type Behavior,
  type Branch,
  type MergeConflictBody,
  type MergeResult,
  type Topic,
} from '../../../src/contract/agents';
import { SUPPORT_AGENT_CONTENT } from '../../../src/localPlatform/seed/supportAgent';
import { useLocalPlatform } from '../../support/localPlatform';
import { agentsCaller, type ErrorBody, SUPPORT } from './agentsSupport';

const BASE_BEHAVIOR = SUPPORT_AGENT_CONTENT.behavior;
const returnsPath = 'knowledge-base/topics/kt_returns';

describe('Agents API: merging a branch into main (spec: Agents API merge, 409 diverged)', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);
  const agentPath = `/v1/agents/${SUPPORT.agentId}`;
  const mainPath = `${agentPath}/branches/${SUPPORT.mainId}`;

  /** A branch, and a way to edit main as a teammate would. */
  const setup = async (): Promise<{ branchPath: string; mergePath: string }> => {
    const branch = (await api.post<Branch>(`${agentPath}/branches`, { name: 'feature' })).body;
    const branchPath = `${agentPath}/branches/${branch.branchId}`;
    return { branchPath, mergePath: `${branchPath}/merge` };
  };
  const editMain = (edit: Record<string, unknown>): Promise<unknown> =>
    api.admin(`/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/edit`, { user: 'dana@acme.test', ...edit });
  const mainBehavior = async (): Promise<string> => (await api.get<Behavior>(`${mainPath}/behavior`)).body.behavior;
  const mainTopic = async (id: string): Promise<Topic | undefined> => {
    const res = await api.get<Topic>(`${mainPath}/knowledge-base/topics/${id}`);
    return res.status === 200 ? res.body : undefined;
  };

  it("[AGENT-3] applies the branch's added, changed and deleted items and keeps main's own changes", async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Branch behavior' });
    const added = (
      await api.post<Topic>(`${branchPath}/knowledge-base/topics`, { name: 'Gift cards', content: 'Never expire.' })
    ).body;
    await api.patch(`${branchPath}/knowledge-base/topics/kt_returns`, { content: 'Returns within 60 days.' });
    await api.del(`${branchPath}/knowledge-base/topics/kt_delivery`);
    await editMain({
      upsertTopics: [{ topicId: 'kt_opening_hours', name: 'Opening hours', content: 'Open every day.' }],
    });

    const res = await api.post<MergeResult>(mergePath);
    assert.equal(res.status, 200);
    const result = mergeResultSchema.parse(res.body);
    assert.equal(result.merged, true);
    assert.deepEqual(result.changes?.map((c) => [c.path, c.change]).sort(), [
      ['behavior', 'changed'],
      [`knowledge-base/topics/${added.topicId}`, 'added'],
      ['knowledge-base/topics/kt_delivery', 'deleted'],
      [returnsPath, 'changed'],
    ]);
    assert.equal(await mainBehavior(), 'Branch behavior');
    assert.equal((await mainTopic(added.topicId))?.content, 'Never expire.');
    assert.equal((await mainTopic('kt_returns'))?.content, 'Returns within 60 days.');
    assert.equal(await mainTopic('kt_delivery'), undefined);
    assert.equal((await mainTopic('kt_opening_hours'))?.content, 'Open every day.', "main's own change survives");
    const branch = await api.get<Branch>(branchPath);
    assert.equal(branch.body.mergedAt, result.mergedAt);
  });

  it('[AGENT-3][AGENT-13] 409 when main and the branch changed the behavior differently, with base, ours (main) and theirs (branch)', async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Branch says hello' });
    await editMain({ behavior: 'Main says hi' });
    const res = await api.post<MergeConflictBody>(mergePath);
    assert.equal(res.status, 409);
    const body = mergeConflictBodySchema.parse(res.body);
    assert.deepEqual(body.conflicts, [
      { path: 'behavior', base: BASE_BEHAVIOR, ours: 'Main says hi', theirs: 'Branch says hello' },
    ]);
    assert.deepEqual(
      body.errors.map((e) => e.field),
      ['behavior'],
    );
    assert.equal(await mainBehavior(), 'Main says hi', 'nothing applied');
  });

  it('[AGENT-3] the same change on both sides is not a conflict; changes to different fields of one topic combine', async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Same words' });
    await api.patch(`${branchPath}/knowledge-base/topics/kt_returns`, { name: 'Returns and refunds' });
    await editMain({
      behavior: 'Same words',
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 45 days.' }],
    });
    const res = await api.post<MergeResult>(mergePath);
    assert.equal(res.status, 200);
    const topic = await mainTopic('kt_returns');
    assert.deepEqual([topic?.name, topic?.content], ['Returns and refunds', 'Returns within 45 days.']);
  });

  it('[AGENT-3] a topic deleted on one side and changed on the other is a conflict on the whole topic', async () => {
    const { branchPath, mergePath } = await setup();
    await api.del(`${branchPath}/knowledge-base/topics/kt_returns`);
    await editMain({ upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Changed on main.' }] });
    const res = await api.post<MergeConflictBody>(mergePath);
    assert.equal(res.status, 409);
    const base = SUPPORT_AGENT_CONTENT.topics.kt_returns!;
    assert.deepEqual(res.body.conflicts, [
      {
        path: returnsPath,
        base: { name: base.name, content: base.content },
        ours: { name: 'Returns', content: 'Changed on main.' },
        theirs: null,
      },
    ]);
  });

  it('[AGENT-3] resolutions (path, strategy ours/theirs/base, optional value) settle the conflicts and the merge applies', async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Branch behavior' });
    await api.patch(`${branchPath}/knowledge-base/topics/kt_returns`, { content: 'Branch returns' });
    await api.patch(`${branchPath}/knowledge-base/topics/kt_delivery`, { content: 'Branch delivery' });
    await api.patch(`${branchPath}/knowledge-base/topics/kt_opening_hours`, { content: 'Branch hours' });
    await editMain({
      behavior: 'Main behavior',
      upsertTopics: [
        { topicId: 'kt_returns', name: 'Returns', content: 'Main returns' },
        { topicId: 'kt_delivery', name: 'Delivery', content: 'Main delivery' },
        { topicId: 'kt_opening_hours', name: 'Opening hours', content: 'Main hours' },
      ],
    });
    const first = await api.post<MergeConflictBody>(mergePath);
    assert.deepEqual(first.body.conflicts.map((c) => c.path).sort(), [
      'behavior',
      ...['kt_delivery', 'kt_opening_hours', 'kt_returns'].map((id) => `knowledge-base/topics/${id}/content`),
    ]);

    const partial = await api.post<MergeConflictBody>(mergePath, {
      resolutions: [{ path: 'behavior', strategy: 'theirs' }],
    });
    assert.equal(partial.status, 409, 'unresolved conflicts remain');
    assert.equal(partial.body.conflicts.length, 3);
    assert.equal(await mainBehavior(), 'Main behavior');

    const res = await api.post<MergeResult>(mergePath, {
      resolutions: [
        { path: 'behavior', strategy: 'theirs' },
        { path: `${returnsPath}/content`, strategy: 'ours' },
        { path: 'knowledge-base/topics/kt_delivery/content', strategy: 'base' },
        { path: 'knowledge-base/topics/kt_opening_hours/content', strategy: 'theirs', value: 'Both hours, combined' },
      ],
    });
    assert.equal(res.status, 200);
    assert.equal(await mainBehavior(), 'Branch behavior');
    assert.equal((await mainTopic('kt_returns'))?.content, 'Main returns');
    assert.equal((await mainTopic('kt_delivery'))?.content, SUPPORT_AGENT_CONTENT.topics.kt_delivery!.content);
    assert.equal((await mainTopic('kt_opening_hours'))?.content, 'Both hours, combined');
    assert.ok(res.body.changes?.every((c) => c.path === 'behavior' || c.source === 'resolution'));
  });

  it('[AGENT-3][AGENT-13] a resolution for a path that is not in conflict, or with a value of the wrong kind, is 400', async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Branch' });
    await editMain({ behavior: 'Main' });
    const unknownPath = await api.post<ErrorBody>(mergePath, {
      resolutions: [
        { path: 'behavior', strategy: 'ours' },
        { path: returnsPath, strategy: 'ours' },
      ],
    });
    assert.equal(unknownPath.status, 400);
    assert.deepEqual(
      unknownPath.body.errors.map((e) => e.field),
      ['resolutions[1].path'],
    );
    const wrongKind = await api.post<ErrorBody>(mergePath, {
      resolutions: [{ path: 'behavior', strategy: 'ours', value: { name: 'x', content: 'y' } }],
    });
    assert.equal(wrongKind.status, 400);
    assert.deepEqual(
      wrongKind.body.errors.map((e) => e.field),
      ['resolutions[0].value'],
    );
    const badStrategy = await api.post<ErrorBody>(mergePath, { resolutions: [{ path: 'behavior', strategy: 'mine' }] });
    assert.equal(badStrategy.status, 400);
    assert.deepEqual(
      badStrategy.body.errors.map((e) => e.field),
      ['resolutions[0].strategy'],
    );
    assert.equal(await mainBehavior(), 'Main');
  });

  it("[AGENT-3] after a merge the branch's merged state is the new base: merging again changes nothing, later edits merge cleanly", async () => {
    const { branchPath, mergePath } = await setup();
    await api.patch(`${branchPath}/behavior`, { behavior: 'Branch' });
    await editMain({ behavior: 'Main' });
    assert.equal((await api.post(mergePath, { resolutions: [{ path: 'behavior', strategy: 'ours' }] })).status, 200);
    const again = await api.post<MergeResult>(mergePath);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.changes, []);
    assert.equal(await mainBehavior(), 'Main', 'the choice of main is not undone');
    await api.patch(`${branchPath}/knowledge-base/topics/kt_returns`, { content: 'Later branch edit' });
    assert.equal((await api.post(mergePath)).status, 200);
    assert.equal((await mainTopic('kt_returns'))?.content, 'Later branch edit');
  });

  it('[AGENT-3][AGENT-13] merging main into itself is 400', async () => {
    const res = await api.post<ErrorBody>(`${mainPath}/merge`);
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0]?.field, 'branchId');
  });
});
