import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { shownRow } from '../../../src/ui/common/shownRow';
import { ALL_ENTRIES } from '../../support/hostileCorpus';

test('a tree row shows a right-to-left override, a terminal escape and a NUL in its label and description as their codes', () => {
  const row = shownRow({ label: 'invoice\u202Etxt.exe', description: 'a\u001b[2Jb\u0000c' } as vscode.TreeItem);
  assert.equal(row.label, 'invoice⟦U+202E⟧txt.exe');
  assert.equal(row.description, 'a⟦U+001B⟧[2Jb⟦U+0000⟧c');
  const object = shownRow({ label: { label: '\u2067isolate\u2069' } } as vscode.TreeItem);
  assert.deepEqual(object.label, { label: '⟦U+2067⟧isolate⟦U+2069⟧' });
});

test('every entry of the hostile corpus as a row label keeps its text and obeys no bidirectional or control character', () => {
  for (const entry of ALL_ENTRIES) {
    const row = shownRow({ label: entry.text, description: entry.text } as vscode.TreeItem);
    for (const shown of [row.label, row.description] as string[])
      assert.doesNotMatch(
        shown,
        /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/,
        entry.name,
      );
  }
});
