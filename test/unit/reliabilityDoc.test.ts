import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { MATRIX_OPERATIONS } from '../support/faultMatrix';
import { FAULT_PLACES } from '../support/faultPlaces';
import { FAULT_KINDS, FAULT_LABEL } from '../support/faults';
import { block, markers, withBlocks } from '../support/reliabilityTables';

const DOC = 'docs/reliability.md';

test('docs/reliability.md shows the fault tables the suites run (AGENT_WORKBENCH_WRITE_DOCS=1 writes them)', () => {
  const doc = readFileSync(DOC, 'utf8');
  const wanted = withBlocks(doc);
  if (process.env.AGENT_WORKBENCH_WRITE_DOCS === '1' && wanted !== doc) writeFileSync(DOC, wanted);
  else
    assert.equal(
      doc,
      wanted,
      'the generated blocks of docs/reliability.md differ: run with AGENT_WORKBENCH_WRITE_DOCS=1',
    );
});

test("the editor's table has one row per place of the suite and one column per fault", () => {
  const doc = readFileSync(DOC, 'utf8');
  const [open, close] = markers('editor');
  const table = doc
    .slice(doc.indexOf(open) + open.length, doc.indexOf(close))
    .trim()
    .split('\n');
  const head = table[0]!.split('|').map((c) => c.trim());
  assert.deepEqual(
    head.slice(4, -1),
    FAULT_KINDS.map((k) => FAULT_LABEL[k]),
  );
  const places = table.slice(2).map((r) => r.split('|')[1]!.trim().replace(/ \*$/, ''));
  assert.deepEqual(
    places,
    FAULT_PLACES.map((p) => p.label),
  );
  assert.equal(new Set(FAULT_PLACES.map((p) => p.id)).size, FAULT_PLACES.length, 'place ids are unique');
});

test("the client's table has one row per operation, every family of the spec among them", () => {
  const rows = block('client').split('\n').slice(2);
  assert.equal(rows.length, MATRIX_OPERATIONS.length);
  assert.deepEqual([...new Set(MATRIX_OPERATIONS.map((o) => o.family))].sort(), [
    'agents',
    'alerts',
    'chat',
    'concurrency',
    'conversations',
    'dni',
    'externalEvents',
    'messaging',
    'outbound',
  ]);
});
