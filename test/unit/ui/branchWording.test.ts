import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MergeConflict } from '../../../src/contract/agents';
import { plainL10n } from '../../../src/ui/common/l10n';
import {
  branchPickDescription,
  conflictChoices,
  conflictLabel,
  conflictSubject,
  discardQuestion,
  divergedQuestion,
  mergedMessage,
  resolutionFor,
  sideDocument,
  unpushedQuestion,
} from '../../../src/ui/files/branchWording';

const names = new Map([['kt_hours', 'Opening hours']]);
const behavior: MergeConflict = { path: 'behavior', base: 'Be kind.', ours: 'Be brief.', theirs: 'Be warm.' };
const content: MergeConflict = {
  path: 'knowledge-base/topics/kt_hours/content',
  base: 'Open 9 to 17.',
  ours: 'Open 8 to 17.',
  theirs: 'Open 9 to 20.',
};
const deleted: MergeConflict = {
  path: 'knowledge-base/topics/kt_returns',
  base: { name: 'Returns', content: '30 days.' },
  ours: null,
  theirs: { name: 'Returns', content: '60 days.' },
};

test('conflict paths name what a person recognises: the behavior, a topic, a field of a topic', () => {
  assert.deepEqual(conflictSubject('behavior'), { kind: 'behavior' });
  assert.deepEqual(conflictSubject('knowledge-base/topics/kt_1/name'), {
    kind: 'topicField',
    topicId: 'kt_1',
    field: 'name',
  });
  assert.equal(conflictLabel(plainL10n, behavior, names), 'Behavior');
  assert.equal(conflictLabel(plainL10n, content, names), 'Content of topic “Opening hours”');
  // A whole topic carries its name; an unknown path is shown as it is.
  assert.equal(conflictLabel(plainL10n, deleted, names), 'Topic “Returns”');
  assert.equal(conflictLabel(plainL10n, { ...behavior, path: 'attributes/x' }, names), 'attributes/x');
  // A topic main does not list any more is named by the base name of its name conflict, else by its id.
  assert.equal(
    conflictLabel(
      plainL10n,
      { path: 'knowledge-base/topics/kt_x/name', base: 'FAQ', ours: 'Q&A', theirs: 'Help' },
      names,
    ),
    'Name of topic “FAQ”',
  );
  assert.equal(
    conflictLabel(plainL10n, { ...content, path: 'knowledge-base/topics/kt_y/content' }, names),
    'Content of topic “kt_y”',
  );
});

test('each choice says what that side did; branch is theirs and main is ours', () => {
  const [branch, main, compare] = conflictChoices(plainL10n, deleted, 'returns-60');
  assert.equal(branch!.description, 'returns-60: changed: Returns: 60 days.');
  assert.equal(main!.description, 'main: deleted');
  assert.equal(compare!.choice, 'compare');
  assert.deepEqual(resolutionFor(deleted, 'branch'), { path: deleted.path, strategy: 'theirs' });
  assert.deepEqual(resolutionFor(deleted, 'main'), { path: deleted.path, strategy: 'ours' });
  const long = conflictChoices(plainL10n, { ...behavior, theirs: 'x'.repeat(200) }, 'b')[0]!.description;
  assert.ok(long.endsWith('…') && long.length < 80, long);
});

test('a text item is offered the merge editor with both sides; a whole topic is not', () => {
  const text = conflictChoices(plainL10n, behavior, 'spring', true);
  assert.deepEqual(
    text.map((c) => c.choice),
    ['branch', 'main', 'mergeEditor', 'compare'],
  );
  assert.equal(text[2]!.label, 'Merge in the merge editor…');
  assert.equal(text[2]!.description, 'keep lines of main and of spring');
  assert.ok(!conflictChoices(plainL10n, behavior, 'spring').some((c) => c.choice === 'mergeEditor'));
});

test('the sides diff as documents: text with one final newline, a topic as heading and content, nothing for absent', () => {
  assert.equal(sideDocument('Be warm.'), 'Be warm.\n');
  assert.equal(sideDocument('Be warm.\n'), 'Be warm.\n');
  assert.equal(sideDocument({ name: 'Returns', content: '60 days.' }), '# Returns\n\n60 days.\n');
  assert.equal(sideDocument(null), '');
});

test('the 409 question lists every diverged item and says nothing is merged yet', () => {
  const q = divergedQuestion(plainL10n, 'spring', [behavior, content], names);
  assert.equal(q.question, 'Main and spring both changed 2 items since the branch was made.');
  assert.match(q.detail, /^• Behavior\n• Content of topic “Opening hours”\n\nNothing has been merged yet/);
  assert.equal(
    divergedQuestion(plainL10n, 'spring', [behavior], names).question,
    'Main and spring both changed one item since the branch was made.',
  );
});

test('switch and discard questions name the files, a few at most', () => {
  const one = unpushedQuestion(plainL10n, 'main', ['behavior.md']);
  assert.equal(one.question, '1 file has edits not pushed. Push or discard them before switching to main.');
  assert.deepEqual([one.push, one.discard], ['Push', 'Discard…']);
  const many = unpushedQuestion(plainL10n, 'main', ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.equal(many.detail, 'a\nb\nc\nd\ne\nand 2 more');
  assert.equal(
    discardQuestion(plainL10n, ['a', 'b']).question,
    'Discard the edits of 2 files? They cannot be brought back.',
  );
});

test('the merged message tells what moved where the platform says it', () => {
  assert.equal(mergedMessage(plainL10n, 'b', undefined, 0), 'Branch b is merged into main.');
  assert.equal(mergedMessage(plainL10n, 'b', 0, 0), 'Branch b is merged into main: main already had everything.');
  assert.equal(mergedMessage(plainL10n, 'b', 3, 2), 'Branch b is merged into main: 3 changes. 2 items as you chose.');
});

test('a branch picker names who made a branch and when, main as the one published, never an id', () => {
  assert.equal(branchPickDescription(plainL10n, { name: 'main' }), 'the branch that gets published');
  assert.equal(
    branchPickDescription(plainL10n, {
      name: 'christmas-menu',
      createdBy: 'lee@acme.test',
      createdAt: '2026-11-19T10:00:00Z',
    }),
    'made by lee@acme.test on 2026-11-19',
  );
  assert.equal(
    branchPickDescription(plainL10n, { name: 'x', createdAt: '2026-11-19T10:00:00Z' }),
    'made on 2026-11-19',
  );
  assert.equal(branchPickDescription(plainL10n, { name: 'x' }), '');
});
