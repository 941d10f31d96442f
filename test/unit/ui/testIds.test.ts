import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseItemId } from '../../../src/ui/testing/testIds';
import { HOSTILE_CORPUS } from '../../support/hostileCorpus';

test('[hostile content] a case id never holds the NUL VS Code keeps for its own, and two names never share one', () => {
  const names = [...HOSTILE_CORPUS.map((e) => e.text), 'a\0b', 'a%00b', 'a%b', 'a%25b'];
  const ids = names.map((n) => caseItemId('file:///w/tests/t.yaml', n));
  assert.ok(ids.every((id) => !id.includes('\0')));
  assert.equal(new Set(ids).size, names.length);
  assert.equal(caseItemId('f', 'Opening hours'), 'f#Opening hours', 'a plain name is the id as before');
});
