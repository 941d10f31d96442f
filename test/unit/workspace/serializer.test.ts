import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeDocs, mergeFields, mergeLines } from '../../../src/workspace/fileMerge';
import { MemoryFileSystem, NodeFileSystem } from '../../../src/workspace/fileSystem';
import { topicPath, topicSlug } from '../../../src/workspace/layout';
import {
  behaviorText,
  docText,
  parseBehavior,
  parseRealtime,
  parseTopic,
  realtimeText,
  topicText,
} from '../../../src/workspace/serializer';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

describe('file mirror: serializer, file merge, file systems', () => {
  it('every document round-trips through its one canonical text', () => {
    for (const behavior of ['', 'One line', 'Ends with a newline\n', '\nStarts with one', 'Windows\r\nlines']) {
      assert.deepEqual(parseBehavior(behaviorText(behavior)), { kind: 'behavior', behavior });
    }
    for (const topic of [
      { name: 'Opening hours', content: 'Mon to Sat.', topicId: 'kt_1' },
      { name: "It's: a #test --- with 'quotes'", content: '---\nnot front matter\n', topicId: 'kt_2' },
      { name: '2024', content: '', topicId: 'kt_3' },
      { name: '  padded  ', content: '\n\nblank lines first' },
      { name: 'x '.repeat(60).trim(), content: 'long name, one line' },
    ]) {
      const text = topicText(topic);
      assert.deepEqual(parseTopic(text, 'file.md'), { kind: 'topic', ...topic }, text);
      assert.equal(text.split('\n').filter((l) => l.startsWith('name:')).length, 1, 'the name stays on one line');
    }
    const vars = { b: { z: 1, a: [3, { y: 1, x: 2 }] }, a: 'text' };
    assert.equal(
      realtimeText(vars),
      '{\n  "a": "text",\n  "b": {\n    "a": [\n      3,\n      {\n        "x": 2,\n        "y": 1\n      }\n    ],\n    "z": 1\n  }\n}\n',
    );
    assert.equal(docText(parseRealtime(realtimeText(vars), 'c') as never), realtimeText(vars));
  });

  it('writes front matter that any YAML reader reads back as the same name and id', () => {
    const names = [
      'Opening hours',
      'yes',
      'No',
      'null',
      'true',
      '123',
      '1e3',
      '-dash',
      'a: b',
      'a #b',
      "'quoted'",
      '"double"',
      'trailing ',
      ' leading',
      'tab\there',
      'new\nline',
      'Café',
      '*star',
      '&amp',
      '!tag',
      '[list]',
      '{map}',
      'x:',
      'x',
      "O'Brien",
      'A/B (C) & D, e.f+g-h',
      '\u2028',
      '~',
      'a\\b',
    ];
    for (const name of names) {
      const text = topicText({ name, content: 'c', topicId: 'kt_1' });
      const front = text.slice(4, text.indexOf('\n---\n'));
      assert.deepEqual(parseYaml(front), { name, id: 'kt_1' }, JSON.stringify(name));
      assert.deepEqual(parseTopic(text, 'f.md'), { kind: 'topic', name, content: 'c', topicId: 'kt_1' });
    }
  });

  it('reads what a person writes: no front matter, no blank line, a number as name; reports broken ones', () => {
    assert.deepEqual(parseTopic('Just text\n', 'gift-cards.md'), {
      kind: 'topic',
      name: 'Gift cards',
      content: 'Just text',
    });
    // A file name is read as words: dashes and underscores are spaces, the first letter a capital, the rest as typed.
    for (const [file, name] of [
      ['gift-vouchers.md', 'Gift vouchers'],
      ['opening_hours.md', 'Opening hours'],
      ['FAQ.md', 'FAQ'],
      ['--.md', '--'],
    ] as const)
      assert.equal((parseTopic('x', file) as { name: string }).name, name);
    assert.deepEqual(parseTopic('---\nname: 42\n---\nBody', 'x.md'), { kind: 'topic', name: '42', content: 'Body' });
    assert.match((parseTopic('---\nname: [unclosed\n---\n', 'x.md') as { problem: string }).problem, /not valid YAML/);
    assert.match((parseTopic('---\nname: ""\n---\n', 'x.md') as { problem: string }).problem, /needs a name/);
    assert.match((parseRealtime('[1]', 'c') as { problem: string }).problem, /one JSON object/);
    assert.match((parseRealtime('{', 'c') as { problem: string }).problem, /Not valid JSON/);
  });

  it('names topic files from their names, telling equal names apart by id', () => {
    assert.equal(topicSlug('Opening Hours & Holidays!'), 'opening-hours-holidays');
    assert.equal(topicSlug('Café Crème'), 'cafe-creme');
    assert.equal(topicSlug('???'), 'topic');
    assert.equal(topicPath('Returns', 'kt_2', new Set(['knowledge/returns.md'])), 'knowledge/returns-kt_2.md');
  });

  it('merges lines three ways, and leaves overlapping changes to the person', () => {
    const base = 'a\nb\nc\nd\ne';
    assert.equal(mergeLines(base, 'A\nb\nc\nd\ne', 'a\nb\nc\nd\nE'), 'A\nb\nc\nd\nE');
    assert.equal(mergeLines(base, 'a\nB\nc\nd\ne', 'a\nX\nc\nd\ne'), undefined);
    assert.equal(mergeLines(base, 'same', 'same'), 'same');
  });

  it('merges real-time variables field by field, and a topic name apart from its content', () => {
    assert.deepEqual(mergeFields({ a: 1, b: 2, c: 3 }, { a: 10, b: 2, c: 3 }, { a: 1, b: 2 }), { a: 10, b: 2 });
    assert.equal(mergeFields({ a: 1 }, { a: 2 }, { a: 3 }), undefined);
    assert.deepEqual(mergeFields({ o: { x: 1, y: 2 } }, { o: { y: 2, x: 1 } }, { o: { x: 5, y: 2 } }), {
      o: { x: 5, y: 2 },
    });
    const t = (name: string, content: string) => ({ kind: 'topic' as const, name, content, topicId: 'kt_1' });
    assert.deepEqual(mergeDocs(t('A', 'one\ntwo'), t('B', 'one\ntwo'), t('A', 'one\nTWO')), {
      clean: true,
      doc: t('B', 'one\nTWO'),
    });
    assert.deepEqual(mergeDocs(t('A', 'x'), t('B', 'x'), t('C', 'x')), { clean: false });
    assert.deepEqual(mergeDocs(t('A', 'x'), undefined, t('A', 'y')), { clean: false }, 'deleted here, changed there');
    assert.deepEqual(mergeDocs(t('A', 'x'), undefined, t('A', 'x')), { clean: true, doc: undefined });
  });

  it('writes atomically on disk (no temporary files left) and lists only files', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mirror-'));
    try {
      const fs = new NodeFileSystem(root);
      await fs.write('knowledge/a.md', 'one');
      await fs.write('knowledge/a.md', 'two');
      await fs.write('knowledge/sub/b.md', 'x');
      assert.equal(await fs.read('knowledge/a.md'), 'two');
      assert.deepEqual(await fs.list('knowledge'), ['a.md']);
      assert.deepEqual(await readdir(join(root, 'knowledge')), ['a.md', 'sub']);
      assert.equal(await fs.read('missing.md'), undefined);
      assert.deepEqual(await fs.list('nowhere'), []);
      await fs.remove('knowledge/a.md');
      await fs.remove('knowledge/a.md');
      await assert.rejects(fs.write('../escape.md', 'x'), /outside the agent folder/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    const mem = new MemoryFileSystem({ 'knowledge/a.md': 'a', 'knowledge/sub/b.md': 'b', 'behavior.md': 'x' });
    assert.deepEqual(await mem.list('knowledge'), ['a.md']);
    assert.deepEqual(await mem.list(''), ['behavior.md']);
    mem.failAfter(1);
    await mem.write('one.md', '1');
    await assert.rejects(mem.write('two.md', '2'), /disk went away/);
    assert.equal(mem.files.has('two.md'), false);
  });
});
