import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  htmlText,
  iconText,
  markdownCell,
  markdownCode,
  markdownStrong,
  markdownText,
  notificationText,
  visibleControls,
} from '../../../src/core/shownText';
import { ALL_ENTRIES, HOSTILE_CORPUS, ONE_MEGABYTE, comparable, showsAsText } from '../../support/hostileCorpus';
import { renderMarkdown, strayTags, tagsOf, textOf } from '../../support/markdownRender';

describe('Hostile content: visibleControls', () => {
  it('shows right-to-left controls, control characters and lone surrogates as their code; tabs, line breaks and emoji stay', () => {
    assert.equal(visibleControls('invoice\u202Etxt.exe'), 'invoice⟦U+202E⟧txt.exe');
    assert.equal(visibleControls('a\u0000b\u001b[2J\u007F\u009B'), 'a⟦U+0000⟧b⟦U+001B⟧[2J⟦U+007F⟧⟦U+009B⟧');
    assert.equal(visibleControls('high\uD800 low\uDC00'), 'high⟦U+D800⟧ low⟦U+DC00⟧');
    assert.equal(visibleControls('a\tb\nc\r\nd'), 'a\tb\nc\r\nd');
    const emoji = '👨‍👩‍👧‍👦 🇺🇦 👍🏽 1️⃣ e\u0301';
    assert.equal(visibleControls(emoji), emoji);
  });
});

describe('Hostile content: markdownText', () => {
  for (const e of ALL_ENTRIES)
    it(`${e.name} (${e.tries}) renders as text, even where HTML and links are allowed`, () => {
      const html = renderMarkdown(markdownText(e.text));
      assert.deepEqual(strayTags(html, ['p', 'br']), [], `only paragraphs and line breaks: ${html.slice(0, 300)}`);
      assert.ok(showsAsText(textOf(html), e.text), `the text as written: ${textOf(html).slice(0, 300)}`);
      assert.doesNotMatch(html, /\u202E|\u001b/, 'no acting character left');
    });

  it('keeps each line break as a line break, and a lone half of a surrogate pair as its code', () => {
    assert.equal(renderMarkdown(markdownText('a\nb\r\nc')).trim(), '<p>a<br>\nb<br>\nc</p>');
    assert.match(textOf(renderMarkdown(markdownText('x\uD800y'))), /x⟦U\+D800⟧y/);
  });

  it('escapes 1 MB in well under a second', () => {
    const started = performance.now();
    const out = markdownText(ONE_MEGABYTE.text);
    assert.ok(out.length >= ONE_MEGABYTE.text.length);
    assert.ok(performance.now() - started < 1_000);
  });
});

describe('Hostile content: markdownCode and markdownCell', () => {
  for (const e of HOSTILE_CORPUS)
    it(`${e.name} as a code span shows as written, on one line`, () => {
      const html = renderMarkdown(`id: ${markdownCode(e.text)}`);
      assert.deepEqual(strayTags(html, ['p', 'code']), [], html);
      assert.equal(tagsOf(html).filter((t) => t === 'code').length, 1, 'one code span');
      assert.ok(showsAsText(textOf(html), e.text), textOf(html));
    });

  it('a code span of backticks only, or with spaces at both ends, keeps them', () => {
    assert.equal(textOf(renderMarkdown(markdownCode('``'))).trim(), '``');
    assert.equal(textOf(renderMarkdown(`a${markdownCode(' x ')}b`)).trim(), 'a x b');
  });

  for (const e of HOSTILE_CORPUS)
    it(`${e.name} in a table cell stays in its one cell, as text`, () => {
      const html = renderMarkdown(`| a | b |\n| - | - |\n| ${markdownCell(e.text)} | after |\n`);
      assert.deepEqual(strayTags(html, ['table', 'thead', 'tbody', 'tr', 'th', 'td']), [], html);
      assert.equal(html.match(/<td>/g)?.length, 2, `two cells in one row: ${html}`);
      assert.ok(showsAsText(textOf(html), e.text), textOf(html));
    });
});

/** The pattern by which VS Code 1.100's notifications make links (parseLinkedText). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('Hostile content: notificationText and htmlText', () => {
  for (const e of HOSTILE_CORPUS)
    it(`${e.name} in a notification makes no link and keeps its text`, () => {
      const shown = notificationText(`Alert triggered: ${e.text}`);
      assert.deepEqual([...shown.matchAll(NOTIFICATION_LINK)], []);
      assert.ok(showsAsText(shown, e.text), shown);
    });

  it('a command link in a name is broken apart, visibly', () => {
    assert.equal(notificationText('[run](command:x)'), '[run] (command:x)');
    assert.match('[run](command:x)', NOTIFICATION_LINK);
  });

  for (const e of HOSTILE_CORPUS)
    it(`${e.name} inside an HTML element of a Markdown document stays text`, () => {
      const html = renderMarkdown(`<details><summary>${htmlText(e.text)}</summary>\n\nx\n\n</details>`);
      assert.deepEqual(strayTags(html, ['details', 'summary', 'p']), [], html);
      assert.ok(showsAsText(textOf(html), e.text), textOf(html));
    });
});

describe('Hostile content: markdownStrong', () => {
  for (const e of HOSTILE_CORPUS)
    it(`${e.name} in bold: its asterisks are never beside a space of any kind (a renderer would show them)`, () => {
      const html = renderMarkdown(markdownStrong(`${e.text} \u200B`));
      assert.deepEqual(strayTags(html, ['p', 'br', 'strong']), [], html);
      assert.ok(tagsOf(html).includes('strong'), `in bold: ${html}`);
      assert.equal(comparable(textOf(html)), comparable(e.text), 'the text, and no asterisk more');
    });
});

describe('Hostile content: iconText', () => {
  it('escapes icon syntax, which VS Code then shows as written, and shows acting characters as their code', () => {
    assert.equal(iconText('$(alert) a $(loading~spin)'), '\\$(alert) a \\$(loading~spin)');
    assert.equal(iconText('x\u202Ey'), 'x⟦U+202E⟧y');
    assert.equal(iconText('Opening hours'), 'Opening hours');
  });
});
