// Drives the VS Code workbench in Chromium as a person would: activity bar, views, command palette,
// notifications. Each suite gets its own code-server in a fresh sandbox.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  createSandbox,
  keepBrowserStorage,
  keepPageText,
  keepSandbox,
  launchBrowser,
  outputDir,
  serveWebviewsFromOwnSite,
  startHost,
  workbenchUrl,
} from '../../host/workbench.mjs';

export { ROOT };
export const OUT = outputDir('e2e');
export const DOCS_IMAGES = join(ROOT, 'docs', 'images');
const VIEWPORT = { width: 1280, height: 760 };
/** Loading the workbench and its extension host can take a while on a busy 2-core machine. */
export const UI_TIMEOUT = 60_000;
/**
 * AGENT_WORKBENCH_WEBVIEW_SITE=own serves webviews from sites of their own, as desktop VS Code and vscode.dev do
 * (see serveWebviewsFromOwnSite in test/host/workbench.mjs); by default they come from the workbench's origin.
 */
const OWN_WEBVIEW_SITE = process.env.AGENT_WORKBENCH_WEBVIEW_SITE === 'own';

/**
 * Starts code-server and opens the workbench.
 * @param {object} o
 * @param {string} o.name               sandbox and log name
 * @param {boolean} [o.devExtension]    load the extension from this tree (extensionDevelopmentPath)
 * @param {(sandbox) => Promise<void>} [o.prepare]  runs before code-server starts (e.g. install a .vsix)
 * @param {Record<string, unknown>} [o.settings]  user settings over the quiet ones of the test hosts
 * @param {{ width: number, height: number }} [o.viewport]  the window's size, for a suite that shows several panels at once
 */
export async function openWorkbench({ name, devExtension = true, prepare, settings = {}, viewport = VIEWPORT }) {
  const sandbox = createSandbox(name, settings);
  const kept = keptFolder(name);
  const hostLog = [];
  let server;
  let browser;
  try {
    await prepare?.(sandbox);
    server = await startHost(sandbox, { logLines: hostLog, ownWebviewSite: OWN_WEBVIEW_SITE });
    browser = await launchBrowser({ ownWebviewSite: OWN_WEBVIEW_SITE });
    const page = await browser.newPage({ viewport });
    page.setDefaultTimeout(UI_TIMEOUT);
    const framesOnOwnSite = OWN_WEBVIEW_SITE ? await serveWebviewsFromOwnSite(page, server) : () => 0;
    await page.goto(
      workbenchUrl(server, { folder: sandbox.workspace, ...(devExtension ? { extensionDevelopmentPath: ROOT } : {}) }),
    );
    // The user settings ask for a dark theme: once it is applied, the workbench has read them.
    await page.locator('.monaco-workbench.vs-dark .activitybar').waitFor();
    KEPT.set(page, kept);
    return {
      page,
      sandbox,
      server,
      hostLog,
      async close() {
        if (OWN_WEBVIEW_SITE)
          console.log(`${name}: ${framesOnOwnSite()} webview frames loaded from sites of their own`);
        await keepPageText(page, join(kept, 'pages.txt'), 'the end of the suite');
        await keepBrowserStorage(page, join(kept, 'browser-storage.json'));
        await browser.close().catch(() => {});
        await server.stop();
        keepSandbox(sandbox, join(kept, 'sandbox'));
        sandbox.remove();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => {});
    await server?.stop();
    keepSandbox(sandbox, join(kept, 'sandbox'));
    sandbox.remove();
    if (hostLog.length) console.log(`code-server output:\n${hostLog.slice(-30).join('\n')}`);
    throw err;
  }
}

/** Where each open workbench keeps what the secrets scan reads (its page's text, its storage, its sandbox). */
const KEPT = new WeakMap();

/** A folder of its own under .test-output/e2e/kept/ for a workbench of this name. */
export function keptFolder(name) {
  for (let n = 1; ; n++) {
    const dir = join(OUT, 'kept', n === 1 ? name : `${name}-${n}`);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      return dir;
    }
  }
}

/** Clicks the Agent Workbench item of the activity bar (it appears once the extension host has read the extension). */
export async function showAgentWorkbench(page) {
  // The item, not its icon: a badge (firing alerts) lies over the icon and may take the click.
  const item = page.locator('.activitybar li.action-item', { has: page.locator('a[aria-label^="Agent Workbench"]') });
  await item.click();
  // With one view in the container VS Code titles the side bar "Agent Workbench: Agents"; with several (Agents, Alerts) each view has its own header.
  await page
    .locator('.sidebar .composite.title .title-label', { hasText: 'Agents' })
    .or(page.locator('.sidebar .pane-header', { hasText: /^Agents/i }))
    .first()
    .waitFor();
}

/** Starts the local platform from the palette, as a person does, and returns its origin (from the notification). */
export async function startLocalPlatform(page) {
  await runCommand(page, 'Agent Workbench: Start Local Platform');
  const toast = notification(page, 'The local platform is running on');
  await toast.waitFor();
  const origin = (await toast.innerText()).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
  if (!origin) throw new Error('the notification names no local platform address');
  return origin;
}

/**
 * Gives the workbench the keyboard by clicking where nothing happens: the middle of the editor area, or, when a
 * webview lies there (a webview that reports its focus late may close a quick input opened after the click), the
 * empty part of the activity bar.
 */
async function focusWorkbench(page) {
  const point = await page.evaluate(() => {
    const bar = document.querySelector('.part.activitybar')?.getBoundingClientRect();
    const candidates = [{ x: 640, y: 400 }, ...(bar ? [{ x: bar.left + bar.width / 2, y: bar.bottom - 160 }] : [])];
    return candidates.find(({ x, y }) => {
      const at = document.elementFromPoint(x, y);
      return at && !at.closest('iframe, .webview, a, button, .action-item, .monaco-list-row');
    });
  });
  await page.mouse.click(point?.x ?? 640, point?.y ?? 400);
}

/**
 * Runs a command from the command palette by its title, as a person types it. A quick input closes when something
 * else takes the focus (a notification, a panel loading); it is then opened again, up to three times.
 */
export async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input.input');
  for (let attempt = 1; ; attempt++) {
    try {
      await focusWorkbench(page);
      await page.keyboard.press('Control+Shift+P');
      await input.waitFor({ timeout: 15_000 });
      await input.fill(`>${title}`, { timeout: 10_000 });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor({ timeout: 30_000 });
      // A recently used command whose title contains this one ("Browse Color Themes…" for "Color Theme") may be first.
      const label = page.locator('.quick-input-list .monaco-list-row.focused .label-name');
      if ((await label.count()) && !(await label.first().innerText()).replace(/\s+/g, ' ').includes(title))
        await row.click();
      else await page.keyboard.press('Enter');
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** Opens a workspace file by name with Go to File, as a person does, and puts the cursor at its end. */
export async function openFileAtEnd(page, name) {
  await runCommand(page, 'Go to File...');
  await page.locator('.quick-input-widget input.input').fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
}

/** The webviews' own pages: VS Code's inner frame of each webview. */
export function webviewPages(page) {
  return page.frames().filter((f) => f.url().includes('/webview/browser/pre/fake.html'));
}

/** The page of the webview that shows `selector` (several panels may be open, each two frames deep). */
export async function webviewShowing(page, selector, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of webviewPages(page))
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    if (Date.now() > deadline) throw new Error(`no webview shows ${selector}`);
    await page.waitForTimeout(200);
  }
}

/** The notification toast that contains `text` (string or RegExp). */
export function notification(page, text) {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

/**
 * Waits until a notification that contains `text` has been shown, as a toast or, once its toast has gone, in the
 * notification center. VS Code hides an information toast after 15 s while the window has focus, and shows at most
 * three at once: a notification raised by a background reading may be gone from the toasts by the time a busy
 * machine looks, yet a person still finds it under the bell.
 */
export async function notificationShown(page, text, { timeout = UI_TIMEOUT } = {}) {
  const deadline = Date.now() + timeout;
  const centerItem = page.locator('.notifications-center .monaco-list-row', { hasText: text });
  for (;;) {
    const toast = await notification(page, text)
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (toast) return;
    await runCommand(page, 'Notifications: Show Notifications');
    const inCenter = await centerItem
      .first()
      .waitFor({ timeout: 2_000 })
      .then(
        () => true,
        () => false,
      );
    await runCommand(page, 'Notifications: Hide Notifications');
    if (inCenter) return;
    if (Date.now() > deadline)
      throw new Error(`no notification with "${text}" was shown within ${Math.round(timeout / 1000)} s`);
  }
}

/**
 * Saves a screenshot into the test output folder. With `docsName`, and only when the run refreshes the README's
 * pictures (`npm run screenshots`), it also goes to docs/images; an ordinary test run leaves the work tree as it was.
 */
export async function screenshot(page, name, docsName) {
  await page.mouse.move(900, 600); // no hover tooltip in the picture
  await settle(page);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  if (docsName && process.env.AGENT_WORKBENCH_DOCS_IMAGES === '1') {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    await page.screenshot({ path: join(DOCS_IMAGES, docsName) });
  }
}

/**
 * Chooses an item of the open context menu by its title. A mouse click on a menu item may not register in
 * code-server on a busy machine, so the item is hovered (which focuses it) and chosen with Enter, and the
 * menu is checked to be gone.
 */
export async function chooseMenuItem(page, title) {
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu.locator('.action-item', {
    has: page.locator('.action-label', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
  });
  await item.hover();
  await menu.locator('.action-item.focused', { hasText: title }).waitFor();
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'detached' });
}

/** Opens the context menu of a locator (right click) and returns the menu's item titles. */
export async function openContextMenu(page, target) {
  // The tooltip of the row the pointer rests on (a tree item's hover) can lie over the target and take the click:
  // the pointer leaves it first, and the tooltip is let go.
  await page.mouse.move(0, 0);
  await page
    .locator('.context-view .workbench-hover, .context-view .monaco-hover')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
  await target.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await menu.waitFor();
  return (await menu.locator('.action-label').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Brings the workbench back to a clean state whatever the test before did: context menus, hovers, dialogs
 * and quick inputs closed, then every editor closed. Each test calls it first (beforeEach), so one failure
 * never drags down the next test.
 */
export async function resetWorkbench(page) {
  // What the test before left on screen, for the secrets scan.
  if (KEPT.has(page)) await keepPageText(page, join(KEPT.get(page), 'pages.txt'), 'before a test');
  const open = page.locator(
    '.context-view .monaco-menu, .monaco-dialog-box, .quick-input-widget:visible, .monaco-hover:visible',
  );
  for (let tries = 0; tries < 6 && (await open.count()) > 0; tries++) {
    // A hover stays while the pointer rests on what it describes (an activity bar item just clicked), whatever
    // Escape does: the pointer moves to the empty editor area first.
    await page.mouse.move(880 + tries, 590);
    await page.mouse.move(900, 600);
    await page.keyboard.press('Escape');
    await open
      .first()
      .waitFor({ state: 'hidden', timeout: 2_000 })
      .catch(() => {});
  }
  // A hover shown because a control has keyboard focus (an activity bar item just clicked) blocks nothing and
  // leaves when focus moves on: only menus, dialogs and quick inputs would stand in the next test's way.
  const blocking = page.locator('.context-view .monaco-menu, .monaco-dialog-box, .quick-input-widget:visible');
  if ((await blocking.count()) > 0) {
    const what = await blocking.evaluateAll((nodes) =>
      nodes.map((n) => `${n.className}: ${(n.textContent ?? '').trim().slice(0, 120)}`).join('; '),
    );
    throw new Error(
      `the workbench could not be brought back to a clean state (a menu, dialog or quick input stays open): ${what}`,
    );
  }
  if ((await page.locator('.editor-group-container .tab').count()) > 0) {
    await runCommand(page, 'View: Close All Editors');
    // A document with unsaved changes asks first: tests never keep their edits.
    const tabs = page.locator('.editor-group-container .tab');
    const dialog = page.locator('.monaco-dialog-box');
    await page.waitForFunction(
      () => !document.querySelector('.editor-group-container .tab') || document.querySelector('.monaco-dialog-box'),
    );
    if (await dialog.count()) await dialog.getByRole('button', { name: /Don't Save/ }).click();
    await tabs.first().waitFor({ state: 'detached' });
  }
}

/** Waits (best effort) until the status bar no longer reports extensions activating, so pictures show the settled workbench. */
async function settle(page) {
  await page
    .locator('.statusbar', { hasText: 'Activating Extensions' })
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
}

/** Runs a test step; on failure keeps a screenshot of the workbench for the reviewer. */
export async function step(page, name, fn) {
  try {
    await fn();
  } catch (err) {
    await page.screenshot({ path: join(OUT, `${name}-failure.png`) }).catch(() => {});
    throw err;
  }
}
