import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { MemoryFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror, OtherPlatformDataError, UnpushedEditsError } from '../../../src/workspace/mirror';
import { behaviorText, realtimeText, topicText } from '../../../src/workspace/serializer';
import { LocalAdmin } from '../../support/localAdmin';
import { localContext } from '../../support/localClient';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import { AGENT, checkedOut, MAIN, MANIFEST, remoteEdit } from './mirrorSupport';

// Check out, pull and push read the platform's copy (behavior, topics, branches), which the spec does not show.
const READS_PLATFORM_COPY = assumed(
  'GET /v1/agents/{agentId}/branches/{branchId}/behavior, GET .../knowledge-base/topics and GET /v1/agents/{agentId}/branches',
);

describe('file mirror: check out, edit, push, pull', { skip: READS_PLATFORM_COPY }, () => {
  const t = useLocalPlatform();

  it('checks an agent out as files a person can read, with the base kept out of git', async () => {
    const { fs } = await checkedOut(t.lp);
    assert.deepEqual([...fs.files.keys()].sort(), [
      '.workbench/.gitignore',
      '.workbench/base.json',
      'agent.json',
      'behavior.md',
      'knowledge/delivery.md',
      'knowledge/opening-hours.md',
      'knowledge/returns.md',
      'realtime/store-settings.json',
    ]);
    assert.equal(
      fs.files.get('knowledge/opening-hours.md'),
      '---\nname: Opening hours\nid: kt_opening_hours\n---\n\nOur stores are open Monday to Saturday from 9am to 6pm, and Sunday from 10am to 4pm.\n',
    );
    assert.match(fs.files.get('behavior.md')!, /^# Support Desk\n\nYou are Sam/);
    assert.equal(
      fs.files.get('realtime/store-settings.json'),
      '{\n  "greetingOverride": "",\n  "holidayMode": false,\n  "maxWaitMinutes": 15\n}\n',
    );
    assert.deepEqual(JSON.parse(fs.files.get('agent.json')!), {
      agentId: AGENT,
      name: 'Support Desk',
      profile: 'local',
      branch: MAIN,
    });
    assert.match(fs.files.get('.workbench/.gitignore')!, /^\*$/m);
    assert.doesNotMatch(fs.files.get('agent.json')! + fs.files.get('.workbench/base.json')!, /sk_|key/i);
  });

  it('the text of a read-only document of the platform, made by the same serializer, equals the checked-out file', async () => {
    const { fs, client } = await checkedOut(t.lp);
    assert.equal(behaviorText((await client.getBehavior(AGENT, MAIN.branchId)).behavior), fs.files.get('behavior.md'));
    for (const topic of await client.listTopics(AGENT, MAIN.branchId)) {
      assert.ok([...fs.files.values()].includes(topicText(topic)), topic.name);
    }
    assert.equal(
      realtimeText((await client.getRealtimeConfig(AGENT, 'store-settings')).variables),
      fs.files.get('realtime/store-settings.json'),
    );
  });

  it('a pull right after check out changes nothing, and status shows every file unchanged', async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    const before = new Map(fs.files);
    const report = await mirror.pull();
    assert.deepEqual(report, { actions: [], conflicts: [] });
    assert.deepEqual(
      new Map([...fs.files].filter(([p]) => p !== '.workbench/base.json')),
      new Map([...before].filter(([p]) => p !== '.workbench/base.json')),
    );
    assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
  });

  it('pushes an edited behavior, topic and variable, sending only what changed', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set(
      'behavior.md',
      fs.files.get('behavior.md')!.replace('Be brief and friendly.', 'Be brief, friendly and precise.'),
    );
    fs.files.set('knowledge/returns.md', fs.files.get('knowledge/returns.md')!.replace('30 days', '60 days'));
    fs.files.set('realtime/store-settings.json', fs.files.get('realtime/store-settings.json')!.replace('15', '20'));
    const status = await mirror.status();
    assert.deepEqual(
      status.filter((f) => f.state !== 'unchanged').map((f) => [f.path, f.state]),
      [
        ['behavior.md', 'modifiedLocally'],
        ['knowledge/returns.md', 'modifiedLocally'],
        ['realtime/store-settings.json', 'modifiedLocally'],
      ],
    );
    const report = await mirror.push();
    assert.deepEqual(report.refused, []);
    assert.deepEqual(
      report.sent.map((a) =>
        a.kind === 'updateTopic' ? [a.kind, a.change] : a.kind === 'variables' ? [a.kind, a.variables] : [a.kind],
      ),
      [
        ['behavior'],
        ['updateTopic', { content: (await client.getTopic(AGENT, MAIN.branchId, 'kt_returns')).content }],
        ['variables', { maxWaitMinutes: 20 }],
      ],
    );
    assert.match((await client.getBehavior(AGENT, MAIN.branchId)).behavior, /friendly and precise/);
    assert.match((await client.getTopic(AGENT, MAIN.branchId, 'kt_returns')).content, /60 days/);
    assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
  });

  it("pulls a teammate's edit into an unchanged file, and merges it line by line with a local edit", async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    fs.files.set('behavior.md', fs.files.get('behavior.md')!.replace('# Support Desk', '# Support Desk (local)'));
    const behavior = (await fs.read('behavior.md'))!
      .replace('# Support Desk (local)', '# Support Desk')
      .replace('Be brief and friendly.', 'Be brief and warm.')
      .slice(0, -1);
    await remoteEdit(t.lp, MAIN.branchId, {
      behavior,
      upsertTopics: [{ topicId: 'kt_delivery', name: 'Delivery times', content: 'Two days.' }],
    });
    const status = await mirror.status({ remote: true });
    assert.deepEqual(
      status.filter((f) => f.state !== 'unchanged').map((f) => [f.path, f.state]),
      [
        ['behavior.md', 'modifiedRemotely'],
        ['knowledge/delivery.md', 'modifiedRemotely'],
      ],
    );
    const report = await mirror.pull();
    assert.deepEqual(report.conflicts, []);
    assert.match(fs.files.get('behavior.md')!, /# Support Desk \(local\)[\s\S]*Be brief and warm\./);
    assert.equal(
      fs.files.get('knowledge/delivery.md'),
      '---\nname: Delivery times\nid: kt_delivery\n---\n\nTwo days.\n',
      'the file keeps its path when the topic is renamed',
    );
    assert.deepEqual(
      (await mirror.status()).filter((f) => f.state !== 'unchanged').map((f) => f.path),
      ['behavior.md'],
    );
  });

  it('refuses to push over a change made on the platform since the last pull, and sends nothing', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set('knowledge/returns.md', fs.files.get('knowledge/returns.md')!.replace('30 days', '14 days'));
    fs.files.set('behavior.md', 'Local behavior.\n');
    await remoteEdit(t.lp, MAIN.branchId, {
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 90 days.' }],
    });
    const report = await mirror.push();
    assert.deepEqual(report.sent, []);
    assert.deepEqual(
      report.refused.map((r) => [r.path, r.reason]),
      [['knowledge/returns.md', 'remoteChanged']],
    );
    assert.match(report.refused[0]!.message, /pull first/);
    assert.equal((await client.getTopic(AGENT, MAIN.branchId, 'kt_returns')).content, 'Returns within 90 days.');
    assert.notEqual((await client.getBehavior(AGENT, MAIN.branchId)).behavior, 'Local behavior.');
  });

  it('a conflict keeps the file as it was, is reported with base, local and remote, and its result is what gets pushed', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set('knowledge/returns.md', fs.files.get('knowledge/returns.md')!.replace('30 days', '14 days'));
    const mine = fs.files.get('knowledge/returns.md')!;
    await remoteEdit(t.lp, MAIN.branchId, {
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 90 days.' }],
    });
    const report = await mirror.pull();
    assert.equal(report.conflicts.length, 1);
    const c = report.conflicts[0]!;
    assert.equal(c.path, 'knowledge/returns.md');
    assert.equal(c.local, mine);
    assert.match(c.remote!, /90 days/);
    assert.match(c.base!, /30 days/);
    assert.equal(fs.files.get('knowledge/returns.md'), mine, 'no markers, no overwrite');
    assert.deepEqual(
      (await mirror.status()).filter((f) => f.state !== 'unchanged').map((f) => [f.path, f.state]),
      [['knowledge/returns.md', 'conflict']],
    );
    assert.deepEqual(
      (await mirror.push()).refused.map((r) => r.reason),
      ['conflict'],
    );
    await assert.rejects(mirror.switchBranch({ branchId: 'br_other', name: 'other' }), UnpushedEditsError);

    await mirror.resolve(
      'knowledge/returns.md',
      '---\nname: Returns\nid: kt_returns\n---\n\nReturns within 45 days.\n',
    );
    const pushed = await mirror.push();
    assert.deepEqual(
      pushed.sent.map((a) => a.kind),
      ['updateTopic'],
    );
    assert.equal((await client.getTopic(AGENT, MAIN.branchId, 'kt_returns')).content, 'Returns within 45 days.');
    assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
  });

  it('a server failure mid-push leaves files and base so the next push finishes the job', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set('behavior.md', 'New behavior.\n');
    fs.files.set('knowledge/returns.md', fs.files.get('knowledge/returns.md')!.replace('30 days', '21 days'));
    await t.admin.addFault({ family: 'build', method: 'PATCH', path: 'knowledge-base', status: 503, times: 5 });
    await assert.rejects(mirror.push(), /503|unavailable|try again/i);
    assert.equal((await client.getBehavior(AGENT, MAIN.branchId)).behavior, 'New behavior.');
    assert.deepEqual(
      (await mirror.status()).filter((f) => f.state !== 'unchanged').map((f) => f.path),
      ['knowledge/returns.md'],
    );
    const report = await mirror.push();
    assert.deepEqual(
      report.sent.map((a) => a.path),
      ['knowledge/returns.md'],
    );
    assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
  });
});

describe('file mirror: a folder read from other local platform data', { skip: READS_PLATFORM_COPY }, () => {
  const t = useLocalPlatform();

  it('is refused a pull or push after the local platform starts afresh, changing no file; taken up with this platform, its files are kept and what the platform lacks shows as a local change to push', async () => {
    const admin = new LocalAdmin(t.lp.urls.admin);
    const fs = new MemoryFileSystem();
    const mirror = new AgentMirror(fs, new AgentsClient(localContext(t.lp)), {
      platformData: async () => (await admin.connection()).dataId,
    });
    await mirror.checkout(MANIFEST);
    const edited = fs.files.get('behavior.md')!.replace('You are Sam', 'You are Robin');
    await fs.write('behavior.md', edited);
    assert.equal((await mirror.push()).sent.length, 1);

    // The platform starts afresh: it holds the seed again, without the edit pushed.
    await admin.reset();
    const before = new Map(fs.files);
    await assert.rejects(mirror.pull(), OtherPlatformDataError);
    await assert.rejects(mirror.push(), OtherPlatformDataError);
    assert.deepEqual(fs.files, before, 'a refused pull or push changes no file');

    await mirror.adoptPlatformData();
    for (const [path, text] of before)
      if (!path.startsWith('.workbench/')) assert.equal(fs.files.get(path), text, `${path} is kept as it was`);
    const changed = (await mirror.status({ remote: true })).filter((f) => f.local !== 'none');
    assert.deepEqual(
      changed.map((f) => [f.path, f.local, f.remote]),
      [['behavior.md', 'modified', 'none']],
      'what the files hold that the platform lacks is a local change, and nothing is to pull',
    );
    assert.equal((await mirror.pull()).actions.length, 0, 'a pull now takes nothing over the files');
    assert.equal((await mirror.push()).sent.length, 1);
    const behavior = await new AgentsClient(localContext(t.lp)).getBehavior(AGENT, MAIN.branchId);
    assert.match(behavior.behavior, /You are Robin/);
  });
});
