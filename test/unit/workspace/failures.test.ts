import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { NodeFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror } from '../../../src/workspace/mirror';
import type { MirrorClient } from '../../../src/workspace/remote';
import { localContext } from '../../support/localClient';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import { AGENT, checkedOut, MAIN, MANIFEST } from './mirrorSupport';

// Check out, pull and push read the platform's copy (behavior, topics, branches), which the spec does not show.
const READS_PLATFORM_COPY = assumed(
  'GET /v1/agents/{agentId}/branches/{branchId}/behavior, GET .../knowledge-base/topics and GET /v1/agents/{agentId}/branches',
);

describe('file mirror: failures and files that cannot be pushed', { skip: READS_PLATFORM_COPY }, () => {
  const t = useLocalPlatform();

  it('a topic created by a push whose answer was lost is not created twice by the next push', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set('knowledge/parking.md', 'Free parking behind the store.\n');
    // The server answers the create only after the client gave up on it: made, but the answer never read.
    await t.admin.addFault({ family: 'build', method: 'POST', path: 'knowledge-base/topics', delayMs: 500, times: 1 });
    const impatient: MirrorClient = Object.assign(Object.create(client) as AgentsClient, {
      createTopic: (agentId: string, branchId: string, topic: { name: string; content: string }) =>
        client.createTopic(agentId, branchId, topic, AbortSignal.timeout(200)),
    });
    await assert.rejects(new AgentMirror(fs, impatient).push(), /Create topic "Parking" was cancelled/);
    const parking = async (): Promise<number> =>
      (await client.listTopics(AGENT, MAIN.branchId)).filter((x) => x.name === 'Parking').length;
    for (let waited = 0; (await parking()) === 0 && waited < 3000; waited += 25)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal(await parking(), 1, 'the server made it');
    const report = await mirror.push();
    assert.deepEqual(report.sent, []);
    assert.equal(await parking(), 1, 'and only once');
    assert.match(fs.files.get('knowledge/parking.md')!, /^---\nname: Parking\nid: kt_/);
    assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
  });

  it('an unreadable file, a deleted behavior and a config the platform does not have are refused, with what to do', async () => {
    const { fs, mirror } = await checkedOut(t.lp);
    fs.files.set('knowledge/returns.md', '---\nname: [oops\n---\nbody\n');
    fs.files.delete('behavior.md');
    fs.files.set('realtime/unknown.json', '{"a": 1}\n');
    const status = await mirror.status();
    assert.equal(
      status.find((f) => f.path === 'knowledge/returns.md')?.problem?.startsWith('The front matter is not valid YAML'),
      true,
    );
    const report = await mirror.push();
    assert.deepEqual(report.sent, []);
    assert.deepEqual(report.refused.map((r) => [r.path, r.reason]).sort(), [
      ['behavior.md', 'cannotDelete'],
      ['knowledge/returns.md', 'unreadable'],
      ['realtime/unknown.json', 'unknownConfig'],
    ]);
  });

  it('the platform refusing a value (422) stops the push; the files keep the edit and nothing else is lost', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    fs.files.set('realtime/store-settings.json', fs.files.get('realtime/store-settings.json')!.replace('15', '500'));
    fs.files.set('behavior.md', 'Pushed first.\n');
    await assert.rejects(mirror.push(), /store-settings/);
    assert.equal((await client.getBehavior(AGENT, MAIN.branchId)).behavior, 'Pushed first.');
    assert.deepEqual(
      (await mirror.status()).filter((f) => f.state !== 'unchanged').map((f) => f.path),
      ['realtime/store-settings.json'],
    );
    assert.match(fs.files.get('realtime/store-settings.json')!, /500/);
  });

  it('where the platform cannot list real-time configs, behavior and topics still pull and push, and config files still push', async () => {
    const { fs, mirror, client } = await checkedOut(t.lp);
    await t.admin.addFault({ family: 'build', method: 'GET', path: '/real-time-configs$/', status: 404 });
    fs.files.set(
      'realtime/store-settings.json',
      fs.files.get('realtime/store-settings.json')!.replace('false', 'true'),
    );
    fs.files.set('behavior.md', 'Still pushed.\n');
    assert.deepEqual((await mirror.pull()).actions, [], 'the config file is not taken as deleted on the platform');
    assert.deepEqual(
      (await mirror.push()).sent.map((a) => a.kind),
      ['behavior', 'variables'],
    );
    assert.equal((await client.getBehavior(AGENT, MAIN.branchId)).behavior, 'Still pushed.');
    const other = await checkedOut(t.lp);
    assert.deepEqual(
      [...other.fs.files.keys()].filter((p) => p.startsWith('realtime/')),
      [],
      'a new check out simply has no config files',
    );
    await t.admin.clearFaults();
    assert.equal((await client.getRealtimeConfig(AGENT, 'store-settings')).variables.holidayMode, true);
  });

  it('works the same on disk, leaving no temporary files', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mirror-disk-'));
    try {
      const mirror = new AgentMirror(new NodeFileSystem(root), new AgentsClient(localContext(t.lp)));
      await mirror.checkout(MANIFEST);
      const file = join(root, 'knowledge', 'delivery.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace('3 to 5', '2 to 4'));
      assert.deepEqual(
        (await mirror.push()).sent.map((a) => a.path),
        ['knowledge/delivery.md'],
      );
      assert.ok((await mirror.status({ remote: true })).every((f) => f.state === 'unchanged'));
      assert.deepEqual((await readdir(root)).sort(), [
        '.workbench',
        'agent.json',
        'behavior.md',
        'knowledge',
        'realtime',
      ]);
      assert.deepEqual((await readdir(join(root, 'knowledge'))).sort(), [
        'delivery.md',
        'opening-hours.md',
        'returns.md',
      ]);
      assert.deepEqual((await readdir(join(root, '.workbench'))).sort(), ['.gitignore', 'base.json']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
