// Every question and message goes through src/ui/common/prompts.ts, so the integration tests can answer
// them there; a direct call to the editor's dialogs would be a question no test can answer.
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

test("only the prompts module opens the editor's dialogs", () => {
  const direct = [...files('src/ui'), 'src/extension.ts']
    .filter((f) => f !== join('src', 'ui', 'common', 'prompts.ts'))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /window\.show(InputBox|QuickPick|InformationMessage|WarningMessage|ErrorMessage|OpenDialog|SaveDialog)\b/.test(
            line,
          )
            ? [`${f}:${i + 1}`]
            : [],
        ),
    );
  assert.deepEqual(direct, []);
});

test('a file dialog is always shown: no argument stands in for the file the person chooses', () => {
  // A file address given in place of the dialog would let a caller choose what the person never saw.
  const bypass = [...files('src/ui'), 'src/extension.ts'].flatMap((f) => {
    const lines = readFileSync(f, 'utf8').split('\n');
    return lines.flatMap((line, i) =>
      /prompts\.(openFile|saveFile)\(/.test(line) &&
      /(\?\?|\?|:)\s*\(?\s*await\s+prompts\.(openFile|saveFile)|instanceof vscode\.Uri/.test(
        lines.slice(Math.max(0, i - 3), i + 1).join('\n'),
      )
        ? [`${f}:${i + 1}`]
        : [],
    );
  });
  assert.deepEqual(bypass, []);
});

/** A line's code: without its string literals and comments, where the words "confirmed" may well be said. */
const codeOf = (line: string): string =>
  /^\s*(\*|\/\*\*?|\/\/)/.test(line)
    ? ''
    : line.replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`/g, "''").replace(/\/\/.*$/, '');

test('no command takes an argument that answers a confirmation for the person', () => {
  const skips = [...files('src/ui'), 'src/extension.ts'].flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        /\b(confirmed|typedName)\b|confirm\?: boolean/.test(codeOf(line)) ? [`${f}:${i + 1}`] : [],
      ),
  );
  assert.deepEqual(skips, []);
});
