// Accessibility checks of the extension's webviews with axe-core, run inside each webview's page (the frame two
// deep under the workbench), and the editor's colour theme switched as a person does: every open webview takes the
// new theme's colours without reloading.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runCommand, webviewPages } from './workbench.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The four kinds of theme VS Code has, each by a theme it ships with: its name in the Color Theme picker, its id in
 * the `workbench.colorTheme` setting, and the kind a webview's page is told (`data-vscode-theme-kind`).
 */
export const THEME_KINDS = [
  { name: 'Light Modern', id: 'Default Light Modern', kind: 'vscode-light' },
  { name: 'Dark Modern', id: 'Default Dark Modern', kind: 'vscode-dark' },
  { name: 'Dark High Contrast', id: 'Default High Contrast', kind: 'vscode-high-contrast' },
  { name: 'Light High Contrast', id: 'Default High Contrast Light', kind: 'vscode-high-contrast-light' },
];

/**
 * WCAG 2.1 A and AA, less what is the editor's and not the page's: the page's <title> (the editor names the tab and
 * the frame) and landmark rules, which are best practice rather than WCAG.
 */
const RULES = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  rules: { 'document-title': { enabled: false } },
};

/**
 * Chooses a colour theme with Preferences: Color Theme, as a person does, and waits until the workbench and every
 * webview page wear its kind. Returns the webview pages.
 */
export async function switchTheme(page, { name, kind }) {
  await runCommand(page, 'Preferences: Color Theme');
  await page.locator('.quick-input-widget input.input').fill(name);
  await page
    .locator('.quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }),
    })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  const pages = webviewPages(page);
  await Promise.all(
    pages.map((frame) =>
      frame.waitForFunction((k) => document.body.dataset.vscodeThemeKind === k, kind, { timeout: 30_000 }),
    ),
  );
  return pages;
}

/**
 * Runs axe in a webview's page: WCAG 2.1 AA (colour contrast among it). Returns one line per problem, each naming
 * the element and, for contrast, its colours and their ratio. Text axe cannot place over a background of its own
 * (the label of a vscode-elements button, slotted into its shadow root) is measured here from the colours the
 * button draws with, over what lies behind it.
 */
export async function accessibilityProblems(frame) {
  if (!(await frame.evaluate(() => typeof globalThis.axe === 'object'))) await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async (rules) => {
    const { axe } = globalThis;
    const result = await axe.run(document, rules);
    const problems = [];
    const where = (node) => `${node.target.join(' ')} ${node.html.replace(/\s+/g, ' ').slice(0, 90)}`;
    for (const rule of result.violations)
      for (const node of rule.nodes) {
        const d = rule.id === 'color-contrast' ? node.any[0]?.data : undefined;
        problems.push(
          d
            ? `contrast ${d.contrastRatio}:1 (needs ${d.expectedContrastRatio}) of ${d.fgColor} on ${d.bgColor}: ${where(node)}`
            : `${rule.id}: ${where(node)}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
        );
      }
    // What axe leaves undecided where the page's own colours are in question: a button's label over its own background.
    const { Color, flattenColors, getContrast } = axe.commons.color;
    const parse = (css) => new Color().parseString(css);
    /** The colour behind an element: its own background over its ancestors', through shadow roots, over the page. */
    const behind = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement ?? e.getRootNode().host) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg.alpha > 0) layers.push(bg);
        if (bg.alpha === 1) break;
      }
      return layers.reduceRight((under, over) => flattenColors(over, under), new Color(255, 255, 255, 1));
    };
    const undecided = result.incomplete.find((r) => r.id === 'color-contrast')?.nodes ?? [];
    for (const node of undecided) {
      if (node.any[0]?.data?.messageKey !== 'bgOverlap') continue;
      const el = axe.utils.shadowSelect(node.target);
      const host = el?.getRootNode().host;
      if (!el || !host || host.hasAttribute('disabled')) continue;
      const bg = behind(el);
      const fg = flattenColors(parse(getComputedStyle(el).color), bg);
      const ratio = getContrast(bg, fg);
      if (ratio < 4.5)
        problems.push(
          `contrast ${ratio.toFixed(2)}:1 (needs 4.5:1) of ${fg.toHexString()} on ${bg.toHexString()}: ${where(node)}`,
        );
    }
    return problems;
  }, RULES);
}
