// Platform text is shown as text: no HTML is made from strings in the webviews, and no Markdown the editor shows may
// carry HTML or run every command. Each Markdown string escapes what it shows with src/core/shownText.ts (the hover
// builders are checked with the hostile corpus in agentTooltips.test.ts, the end-to-end suite checks every place).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Where a pattern stands in the files, as file:line. */
function places(paths: readonly string[], pattern: RegExp): string[] {
  return paths.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const UI = [...files('src/ui'), 'src/extension.ts'];
const WEBVIEW = files('webview');

test('[hostile content] no webview code makes HTML from strings', () => {
  assert.deepEqual(
    places(
      WEBVIEW,
      /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|unsafeHTML|unsafeSVG|dangerouslySetInnerHTML|srcdoc|createContextualFragment|DOMParser/,
    ),
    [],
  );
});

test('[hostile content] no Markdown string of the editor allows HTML, or trusts every command', () => {
  assert.deepEqual(places(UI, /supportHtml\s*[=:]\s*true|isTrusted\s*[=:]\s*true/), []);
});

test('[hostile content] the Markdown strings that enable a command link are the known ones, and escape what they show', () => {
  // A trusted Markdown string runs the commands it names from a link: only these build one, and each escapes its text.
  const trusted = places(UI, /isTrusted\s*=/).map((p) => p.split(':')[0]);
  assert.deepEqual([...new Set(trusted)].sort(), [
    join('src', 'ui', 'testing', 'judgedMessages.ts'),
    join('src', 'ui', 'testing', 'testRun.ts'),
  ]);
  for (const f of new Set(trusted)) assert.match(readFileSync(f!, 'utf8'), /markdownText/, `${f} escapes its text`);
});

test('[hostile content] no escaper of its own: Markdown text is escaped by src/core/shownText.ts only', () => {
  // Escapers written apart each missed something (an image, an entity, a line break): one, tested with the corpus.
  assert.deepEqual(
    places([...UI, ...files('src/agentTests'), ...files('src/cli')], /function (escape|escapeMd|md)\(/),
    [],
  );
});
