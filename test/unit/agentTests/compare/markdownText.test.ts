import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cell, markdownDiff } from '../../../../src/agentTests/compare/markdown';
import { htmlText } from '../../../../src/core/shownText';
import { wordDiff } from '../../../../src/core/wordDiff';
import { HOSTILE_CORPUS, showsAsText } from '../../../support/hostileCorpus';
import { renderMarkdown, strayTags, textOf } from '../../../support/markdownRender';

describe('Hostile content: the comparison and replay reports (opened in the Markdown preview)', () => {
  for (const e of HOSTILE_CORPUS)
    it(`${e.name}: a case name, an answer and its word diff stay text; a summary's name stays text`, () => {
      const { diff } = wordDiff(`Before ${e.text}`, `${e.text} after`);
      const md = `| Case | Answer |\n| --- | --- |\n| ${cell(e.text)} | ${markdownDiff(diff)} |\n\n<details><summary>${htmlText(e.text)}</summary>\n\n- ${cell(e.text)}\n\n</details>\n`;
      const html = renderMarkdown(md);
      const own = new Set([
        'table',
        'thead',
        'tbody',
        'tr',
        'th',
        'td',
        'del',
        'ins',
        'details',
        'summary',
        'ul',
        'li',
        'p',
      ]);
      assert.deepEqual(strayTags(html, [...own]), [], html);
      assert.equal(html.match(/<td>/g)?.length, 2, `one row of two cells: ${html}`);
      const summary = /<summary>([\s\S]*?)<\/summary>/.exec(html)?.[1] ?? '';
      assert.ok(showsAsText(textOf(summary), e.text), `the summary: ${summary}`);
      const answer = textOf(/<td>[\s\S]*?<\/td>\s*<td>([\s\S]*?)<\/td>/.exec(html)?.[1] ?? '');
      assert.ok(showsAsText(answer, `Before ${e.text} after`), `the diff: ${answer}`);
    });
});
