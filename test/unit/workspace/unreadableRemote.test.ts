import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { MemoryFileSystem } from '../../../src/workspace/fileSystem';
import { AgentMirror, UnreadableRemoteError } from '../../../src/workspace/mirror';
import { localContext } from '../../support/localClient';
import { useLocalPlatform } from '../../support/localPlatform';
import { MANIFEST } from './mirrorSupport';

// A platform with only the spec's endpoints: behavior, topics and configs cannot be read, only written.
describe('file mirror where the platform copy cannot be read (spec-only mode)', () => {
  const t = useLocalPlatform({ responses: 'spec-only' });
  const folder = async () => {
    const fs = new MemoryFileSystem();
    const mirror = new AgentMirror(fs, new AgentsClient(localContext(t.lp)));
    return { fs, mirror, checkedOut: await mirror.checkout(MANIFEST) };
  };

  it('checks out an empty folder and says it could not read the branch', async () => {
    const { fs, checkedOut } = await folder();
    assert.deepEqual(checkedOut, { readable: false });
    assert.deepEqual([...fs.files.keys()].sort(), ['.workbench/.gitignore', '.workbench/base.json', 'agent.json']);
  });

  it('AGENT-4 AGENT-5 AGENT-10 pushes nothing without overwrite; with it sets behavior, adds a topic once and sets variables', async () => {
    const { fs, mirror } = await folder();
    await fs.write('behavior.md', 'Be brief.\n');
    await fs.write('knowledge/parking.md', '---\nname: Parking\n---\n\nFree after six.\n');
    await fs.write('realtime/store-settings.json', '{\n  "maxWaitMinutes": 30\n}\n');
    await assert.rejects(mirror.push(), UnreadableRemoteError);
    const report = await mirror.push(undefined, { overwrite: true });
    assert.deepEqual(report.sent.map((a) => a.kind).sort(), ['behavior', 'createTopic', 'variables']);
    assert.deepEqual((await mirror.push(undefined, { overwrite: true })).sent, [], 'nothing is sent twice');
    // A topic created without an id in the answer cannot be changed from here: the push says so.
    await fs.write('knowledge/parking.md', '---\nname: Parking\n---\n\nFree after eight.\n');
    const refused = await mirror.push(undefined, { overwrite: true });
    assert.match(refused.refused[0]?.message ?? '', /did not say its id: change or delete that topic in the studio/);
  });
});
