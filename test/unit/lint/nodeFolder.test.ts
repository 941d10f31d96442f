// Reading an agent folder from disk as the checks take it: every file whatever its size, text or why it is not text.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readAgentFolder, readLintConfig } from '../../../src/lint/nodeFolder';

let root: string;
const LONG = 'a line of a long behavior, past the first read\n'.repeat(3000);

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'aw-lint-folder-'));
  await mkdir(join(root, 'agent', 'knowledge'), { recursive: true });
  await mkdir(join(root, 'agent', '.workbench'), { recursive: true });
  await mkdir(join(root, '.agent-workbench'), { recursive: true });
  await writeFile(join(root, '.agent-workbench', 'lint.json'), '{"rules": {"secret": "warning"}}');
  await writeFile(join(root, 'agent', 'agent.json'), '{}');
  await writeFile(join(root, 'agent', 'behavior.md'), LONG);
  await writeFile(join(root, 'agent', 'knowledge', 'bom.md'), '\ufeffHello');
  await writeFile(join(root, 'agent', 'knowledge', 'empty.md'), '');
  await writeFile(join(root, 'agent', 'knowledge', 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await writeFile(join(root, 'agent', 'knowledge', 'logo.md'), Buffer.from([0x89, 0x50, 0, 1]));
  await writeFile(join(root, 'agent', '.workbench', 'base.json'), '{}');
});
after(() => rm(root, { recursive: true, force: true }));

test('every file is read whole (one far past 64 KB too), a BOM dropped, bookkeeping left out, in path order', async () => {
  const files = await readAgentFolder(join(root, 'agent'));
  assert.deepEqual(
    files.map((f) => f.path),
    ['agent.json', 'behavior.md', 'knowledge/bom.md', 'knowledge/empty.md', 'knowledge/latin1.md', 'knowledge/logo.md'],
  );
  const byPath = new Map(files.map((f) => [f.path, f]));
  assert.equal(byPath.get('behavior.md')!.text, LONG);
  assert.equal(byPath.get('knowledge/bom.md')!.text, 'Hello');
  assert.equal(byPath.get('knowledge/empty.md')!.text, '');
  assert.match(byPath.get('knowledge/latin1.md')!.unreadable!, /UTF-8/);
  assert.match(byPath.get('knowledge/logo.md')!.unreadable!, /binary/);
});

test('the nearest lint file above a folder is the one read', async () => {
  const { config, file } = await readLintConfig(join(root, 'agent', 'knowledge'));
  assert.equal(file, join(root, '.agent-workbench', 'lint.json'));
  assert.equal(config.rules.secret, 'warning');
});
