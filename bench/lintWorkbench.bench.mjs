// Diagnostics as a person sees them: the workbench in Chromium (code-server, production bundle), an agent folder of
// 1,000 topics and a 100 KB behavior opened in the editor, and keys pressed at its end. For each key, from the
// keydown in the page to the behavior's squiggle drawn out to the new end (the diagnostics of the new text, back
// from the extension host), and, beside it, to the typed character drawn (the editor alone). Times are the
// page's clock; the first keystrokes after opening are not counted (code compiled, other extensions' first work).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { openFileAtEnd, openWorkbench } from '../test/support/browser/workbench.mjs';

const { writeBenchFolder } = await tsImport('../test/support/lintBenchFolder.ts', import.meta.url);

const WARM_UP = 5;
const COUNTED = 30;
const round = (n) => Math.round(n * 10) / 10;
const bench = (name, value, unit, target) =>
  console.log(`BENCH ${JSON.stringify({ name, value: round(value), unit, ...(target ? { target } : {}) })}`);
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: ['ignore', 'ignore', 'inherit'] });
const wb = await openWorkbench({
  name: 'bench-lint-workbench',
  prepare: (sandbox) => writeBenchFolder(join(sandbox.workspace, 'agent')),
});
const { page } = wb;
try {
  await openFileAtEnd(page, 'behavior.md');
  // A line of its own, short enough never to scroll sideways: its squiggle starts at the line's start.
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .view-overlays .cdr.squiggly-warning').first().waitFor();
  await page.evaluate(() => {
    window.keydowns = [];
    window.addEventListener('keydown', () => window.keydowns.push(performance.now()), true);
  });
  const squiggle = [];
  const typed = [];
  for (let i = 0; i < WARM_UP + COUNTED; i++) {
    await page.evaluate(() => {
      const editor = document.querySelector('.editor-instance .monaco-editor');
      const overlays = editor.querySelector('.view-overlays');
      const lines = editor.querySelector('.view-lines');
      // The right end of the squiggles on the last line drawn (the line with the cursor), -1 for none.
      const end = () => {
        let top = -Infinity;
        let right = -1;
        for (const line of overlays.children) {
          const at = Number.parseFloat(line.style.top);
          if (!(at >= top)) continue;
          top = at;
          right = -1;
          for (const s of line.querySelectorAll('.cdr.squiggly-warning'))
            right = Math.max(right, Number.parseFloat(s.style.left) + Number.parseFloat(s.style.width));
        }
        return right;
      };
      const before = end();
      const textBefore = lines.textContent.length;
      window.drawn = new Promise((resolve) => {
        let textAt;
        const limit = setTimeout(() => resolve(undefined), 10_000);
        const watch = new MutationObserver(() => {
          const now = performance.now();
          if (textAt === undefined && lines.textContent.length !== textBefore) textAt = now;
          if (end() <= before) return;
          watch.disconnect();
          clearTimeout(limit);
          resolve({ key: window.keydowns.at(-1), squiggle: now, text: textAt ?? now });
        });
        watch.observe(editor, { subtree: true, childList: true, attributes: true, characterData: true });
      });
    });
    await page.keyboard.press('x');
    const drawn = await page.evaluate(() => window.drawn);
    if (!drawn) throw new Error(`keystroke ${i + 1}: no new squiggle drawn within 10 s`);
    if (i >= WARM_UP) {
      squiggle.push(drawn.squiggle - drawn.key);
      typed.push(drawn.text - drawn.key);
    }
    // Keys a person types, not a burst: each one's diagnostics are seen before the next.
    await page.waitForTimeout(100);
  }
  bench(
    `lint: in the workbench in Chromium, a key pressed at the end of a 100 KB behavior to its diagnostics drawn (the squiggle redrawn to the new end, p95 of ${COUNTED})`,
    p95(squiggle),
    'ms',
    '< 100',
  );
  bench(
    `lint: the same keys to the typed character drawn (the editor's own drawing, no extension in it, p95 of ${COUNTED})`,
    p95(typed),
    'ms',
  );
  const sorted = [...squiggle].sort((a, b) => a - b);
  bench(
    `lint: in the workbench in Chromium, a key pressed to its diagnostics drawn (median of ${COUNTED})`,
    sorted[Math.floor(sorted.length / 2)],
    'ms',
  );
} finally {
  await wb.close();
}
