// Hostile content in the workbench: the corpus of test/support/hostileCorpus.ts put into every field the editor
// shows, through the local platform (test/support/hostileSeed.ts) and a conversation test file, then every place
// that shows them opened as a person would: the Agents, Alerts and Webhook Deliveries trees with each row's hover,
// the transcript viewer, the chat playground, the concurrency chart, and the Testing view with its output. In every
// frame (webviews included) nothing ran, no element was made of the corpus' markup, nothing was asked of a remote
// host, the layouts held (nothing wider than the window, toolbars in view), and hovers show the text as written.
// The figures are printed at the end (HOSTILE {json}) and kept in docs/reliability.md.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  notification,
  openWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  startLocalPlatform,
  step,
  webviewPages,
  webviewShowing,
} from '../support/browser/workbench.mjs';
import {
  AGENT_NAME_MAX,
  HOSTILE_CORPUS,
  MARKUP_ATTRIBUTE,
  ONE_MEGABYTE,
  REMOTE_HOST,
  SENTINEL,
  comparable,
  joined,
  showsAsText,
  sized,
} from '../support/hostileCorpus.ts';
import { keywordOf, seedHostile } from '../support/hostileSeed.ts';
import { LocalAdmin } from '../support/localAdmin.ts';

/** The conversation tests: each case named by an entry, asking the topic whose content is that entry. */
const TEST_FILE = `agent: ag_support
cases:
${HOSTILE_CORPUS.map(
  (e) => `  - name: ${JSON.stringify(e.text)}
    turns:
      - user: ${JSON.stringify(`What about ${keywordOf(e)}?`)}
        contains: never said zq
`,
).join('')}`;

/** A pane of the Agent Workbench side bar, by its title. */
function pane(page, title) {
  return page
    .locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: new RegExp(`^${title}`, 'i') }) })
    .first();
}

/** Opens the pane of that title in the side bar and closes the others, so its tree has the room. */
async function only(page, title) {
  const headers = page.locator('.sidebar .pane-header');
  for (let i = 0; i < (await headers.count()); i++) {
    const header = headers.nth(i);
    const mine = new RegExp(`^${title}`, 'i').test((await header.innerText()).trim());
    // On its title, left of the view's own actions.
    if ((await header.getAttribute('aria-expanded')) !== String(mine))
      await header.click({ position: { x: 12, y: 10 } });
  }
}

/**
 * The row of a tree in `scope` that shows `text` as text: the one whose label is the text when there is one, else
 * the first whose label and description hold it; at a `level` of the tree where given. The tree is scrolled to find
 * it (a list draws only the rows in view).
 */
/** The bidirectional controls: marks, embeddings, overrides and isolates. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

async function rowShowing(scope, text, what, level) {
  const page = scope.page();
  const deadline = Date.now() + 20_000;
  let direction = 1;
  for (;;) {
    const rows = scope.locator(level ? `.monaco-list-row[aria-level="${level}"]` : '.monaco-list-row');
    const seen = await rows.evaluateAll((els) =>
      els.map((e) => ({ all: e.innerText, label: e.querySelector('.label-name')?.innerText ?? e.innerText })),
    );
    const wanted = comparable(text);
    let at = seen.findIndex((r) => comparable(r.label) === wanted);
    if (at < 0) at = seen.findIndex((r) => showsAsText(r.all, text));
    if (at >= 0) {
      // A bidirectional control in a row would reorder what it shows (`invoice\u202Etxt.exe`): shown as its code.
      assert.doesNotMatch(seen[at].all, BIDI_CONTROLS, `the row of ${what} obeys no bidirectional control`);
      await rows.nth(at).scrollIntoViewIfNeeded();
      return rows.nth(at);
    }
    if (Date.now() > deadline)
      throw new Error(
        `no row shows ${what} as text; rows: ${seen
          .map((r) => r.all)
          .join(' | ')
          .slice(0, 800)}`,
      );
    // Not drawn: scroll on, and back from the top once at the end.
    const list = scope.locator('.monaco-list').first();
    const box = await list.boundingBox().catch(() => null);
    if (box) {
      const first = await rows
        .first()
        .getAttribute('data-index')
        .catch(() => null);
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height - 5, 40));
      await page.mouse.wheel(0, direction * box.height * 0.8);
      await page.waitForTimeout(100);
      if (
        (await rows
          .first()
          .getAttribute('data-index')
          .catch(() => null)) === first
      )
        direction = -direction;
    } else await page.waitForTimeout(150);
  }
}

/** Expands (or collapses) the row of a tree that shows `text`, once it is drawn, and returns it. */
async function expand(scope, text, what, level, want = 'true') {
  for (let i = 0; ; i++) {
    const row = await rowShowing(scope, text, what, level);
    const state = await row.getAttribute('aria-expanded').catch(() => null);
    if (state === want) return row;
    if (i === 40) throw new Error(`${what} does not ${want === 'true' ? 'expand' : 'collapse'}`);
    if (state !== null) await row.locator('.monaco-tl-twistie').click();
    await scope.page().waitForTimeout(150);
  }
}

const collapse = (scope, text, what, level) => expand(scope, text, what, level, 'false');

/**
 * Hovers a row and returns its hover's text once it begins with `text` as text (or holds it, `starts: false`); checks the hover lies within the window and
 * holds no element made of the corpus' markup, and counts it.
 */
async function hoverShows(page, row, text, what, counts, { starts = true } = {}) {
  await row.hover();
  const deadline = Date.now() + 10_000;
  let tries = 0;
  for (;;) {
    // A hover is shown on the pointer's movement: a row drawn again under a still pointer shows none.
    if (++tries % 15 === 0) {
      await page.mouse.move(0, 0);
      await row.hover();
    }
    const shown = await page.locator('.monaco-hover').evaluateAll((hs) =>
      hs
        .filter((h) => h.getBoundingClientRect().width > 0)
        .map((h) => ({
          text: h.innerText,
          box: h.getBoundingClientRect().toJSON(),
          links: h.querySelectorAll('a').length,
          images: h.querySelectorAll('img').length,
        })),
    );
    // A hover that begins with the text: another row's hover may hold it further down.
    const hover = shown.find((h) =>
      starts ? comparable(h.text).startsWith(comparable(text)) : showsAsText(h.text, text),
    );
    if (hover) {
      const { width } = page.viewportSize();
      assert.ok(hover.box.right <= width + 1 && hover.box.left >= -1, `the hover of ${what} lies within the window`);
      assert.equal(hover.images, 0, `no image in the hover of ${what}`);
      counts.hovers++;
      return hover.text;
    }
    if (Date.now() > deadline)
      throw new Error(
        `the hover of ${what} does not show it as text: ${shown
          .map((h) => h.text)
          .join(' | ')
          .slice(0, 600)}`,
      );
    await page.waitForTimeout(50);
  }
}

/** Every text a virtualized list of a webview page draws, read while scrolling it from top to bottom. */
async function allTexts(frame, itemSelector) {
  return frame.evaluate(async (selector) => {
    const texts = new Set();
    const first = document.querySelector(selector);
    let scroller = first?.parentElement;
    while (
      scroller &&
      !(scroller.scrollHeight > scroller.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(scroller).overflowY))
    )
      scroller = scroller.parentElement;
    const frameDone = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let i = 0; i < 400; i++) {
      for (const el of document.querySelectorAll(selector)) texts.add(el.innerText);
      if (!scroller || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
      scroller.scrollTop += Math.max(50, scroller.clientHeight - 40);
      await frameDone();
    }
    for (const el of document.querySelectorAll(selector)) texts.add(el.innerText);
    return [...texts];
  }, itemSelector);
}

/** A webview page's layout holds: nothing wider than its window, and its toolbar (`selector`) in view. */
async function layoutHolds(frame, toolbar, what) {
  const m = await frame.evaluate((sel) => {
    const bar = document.querySelector(sel)?.getBoundingClientRect();
    return {
      width: innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      bodyScroll: document.body.scrollWidth,
      bar: bar ? { top: bar.top, bottom: bar.bottom, right: bar.right, width: bar.width } : null,
      height: innerHeight,
    };
  }, toolbar);
  assert.ok(
    m.scrollWidth <= m.width + 1 && m.bodyScroll <= m.width + 1,
    `${what}: nothing wider than the window (${m.scrollWidth} > ${m.width})`,
  );
  assert.ok(
    m.bar && m.bar.width > 0 && m.bar.top >= 0 && m.bar.bottom <= m.height && m.bar.right <= m.width + 1,
    `${what}: its toolbar is in view ${JSON.stringify(m.bar)}`,
  );
}

/** What the corpus did in each frame: a payload that ran, elements made of its markup, refusals of the page's policy. */
async function framesFindings(page) {
  const findings = [];
  for (const f of page.frames()) {
    const r = await f
      .evaluate(
        ({ sentinel, attribute }) => {
          let marked = 0;
          const walk = (root) => {
            marked += root.querySelectorAll(`[${attribute}]`).length;
            for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
          };
          walk(document);
          return {
            ran: globalThis[sentinel] ?? null,
            marked,
            title: document.title,
            refused: globalThis.__refusedByPolicy ?? [],
          };
        },
        { sentinel: SENTINEL, attribute: MARKUP_ATTRIBUTE },
      )
      .catch(() => null);
    if (r) findings.push({ url: f.url(), ...r });
  }
  return findings;
}

/** Where a request may go: the workbench's own server (webviews on their own *.localhost sites too) and local data. */
function isLocal(url, workbenchOrigin) {
  if (/^(data|blob|about|vscode-[a-z-]+|chrome-error):/.test(url)) return true;
  const u = new URL(url);
  return (
    u.origin === workbenchOrigin ||
    u.hostname === '127.0.0.1' ||
    u.hostname.endsWith('.localhost') ||
    u.hostname === 'localhost'
  );
}

describe('Hostile content in the workbench', { timeout: 300_000 }, () => {
  let wb;
  let seed;
  let admin;
  let receiverUrl;
  const started = Date.now();
  /** Requests for other hosts (and sockets), until a service worker answers them from the workbench. */
  const remote = [];
  const pending = new Map();
  const remoteLoads = () => [...remote, ...pending.values()];
  const counts = { hovers: 0, rows: 0, places: new Set(), texts: 0 };
  /** What every frame held after each place was looked at (a hidden webview's page is gone by the end). */
  const seenFrames = [];
  const look = async (page, where) => {
    for (const f of await framesFindings(page)) seenFrames.push({ where, ...f });
  };

  before(async () => {
    wb = await openWorkbench({
      name: 'e2e-hostile',
      viewport: { width: 1600, height: 1500 },
      settings: {
        'agentWorkbench.localPlatform.seed': 'base',
        'agentWorkbench.alerts.pollIntervalSeconds': 5,
        'workbench.hover.delay': 50,
        'workbench.tree.enableStickyScroll': false,
        // A terminal draws only the rows in view: small enough that a run's whole output fits in the panel.
        'terminal.integrated.fontSize': 5,
      },
      prepare: async (sandbox) => {
        const dir = join(sandbox.workspace, 'hostile-tests', 'tests');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'hostile.yaml'), TEST_FILE);
      },
    });
    const { page } = wb;
    const workbenchOrigin = new URL(page.url()).origin;
    // A webview's resources (https://*.vscode-resource.vscode-cdn.net/...) are answered by its service worker from
    // the workbench: never the network. Anything else that is not this machine's is a remote load.
    page.context().on('request', (r) => {
      if (!isLocal(r.url(), workbenchOrigin)) pending.set(r, r.url());
    });
    page.context().on('response', (r) => {
      if (r.fromServiceWorker()) pending.delete(r.request());
    });
    page.on('websocket', (ws) => {
      if (!isLocal(ws.url().replace(/^ws/, 'http'), workbenchOrigin)) remote.push(ws.url());
    });
    // The corpus' host never resolves; a request for it is still stopped here, after it was seen, so none leaves.
    await page.context().route(new RegExp(REMOTE_HOST.replace('.', '\\.')), (route) => route.abort());
    // Every frame from now on (each webview's) records what its security policy refused.
    const recordRefusals = () =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (globalThis.__refusedByPolicy ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
      );
    await page.addInitScript(recordRefusals);
    await page.evaluate(recordRefusals);
  });
  after(async () => {
    await wb?.close();
  });

  it('the corpus goes into the platform: agents, branches, topics, a published deployment, chats, records, rules, endpoints', async () => {
    const { page } = wb;
    await step(page, 'hostile-seed', async () => {
      await showAgentWorkbench(page);
      const origin = await startLocalPlatform(page);
      admin = LocalAdmin.atOrigin(origin);
      // The receiver first, so the alerts the rules raise are delivered to it.
      await runCommand(page, 'Agent Workbench: Start Webhook Receiver');
      const listening = notification(page, 'The webhook receiver listens at');
      await listening.waitFor();
      receiverUrl = (await listening.innerText()).match(/http:\/\/127\.0\.0\.1:\d+\/alerts/)?.[0];
      await listening.getByRole('button', { name: 'Register as Endpoint' }).click();
      await notification(page, 'is kept in secret storage for this connection profile').waitFor();
      // The watchers see what they must: a request for a remote host, and an element made of the corpus' markup.
      await page.evaluate(async (url) => {
        await fetch(url).catch(() => {});
        document.body.insertAdjacentHTML('beforeend', '<i id="canary" data-hostile hidden></i>');
      }, `https://${REMOTE_HOST}/canary`);
      assert.ok(
        remoteLoads().some((u) => u.includes('canary')),
        'the request watcher sees a request for a remote host',
      );
      assert.ok(
        (await framesFindings(page)).some((f) => f.marked > 0),
        'the frame check sees markup',
      );
      await page.evaluate(() => document.getElementById('canary')?.remove());
      pending.clear();
      seed = await seedHostile(origin, { reset: false });
      for (const r of seed.refusals) assert.equal(r.status, 400, `${r.field} one over ${r.max}: ${r.message}`);
      const evaluated = await admin.evaluateAlerts();
      assert.equal(evaluated.changes.filter((c) => c.to === 'alert').length, seed.rules.length, 'every rule fires');
    });
  });

  it('Agents view: every agent, branch and topic row and its hover show the text as written', async () => {
    const { page } = wb;
    await step(page, 'hostile-agents', async () => {
      // The watcher's notification of the alerts the rules raised (it reads every 5 s): its rule names make no link.
      const toasts = page.locator('.notifications-toasts .notification-toast');
      await toasts.filter({ hasText: 'Alert' }).first().waitFor({ timeout: 20_000 });
      assert.equal(
        await toasts.locator('a[href^="command:"], a[href*="remote.invalid"]').count(),
        0,
        'no link in a notification',
      );
      counts.places.add('alert notifications');
      await runCommand(page, 'Agent Workbench: Refresh Agents');
      await only(page, 'Agents');
      const agents = pane(page, 'Agents');
      for (const a of seed.agents.filter((x) => x.entry)) {
        const row = await rowShowing(agents, a.name, `agent ${a.entry}`, 1);
        counts.rows++;
        await hoverShows(page, row, `${a.name}${a.description}`, `agent ${a.entry}`, counts);
      }
      counts.places.add('Agents view: agent rows and hovers');
      // The longest name and description the platform takes: the row stays within the side bar.
      const long = await rowShowing(agents, seed.longAgent.name, 'the longest agent name', 1);
      const sidebar = await page.locator('.part.sidebar').boundingBox();
      const box = await long.boundingBox();
      assert.ok(box.x + box.width <= sidebar.x + sidebar.width + 1, 'the longest agent row stays within the side bar');
      await hoverShows(page, long, seed.longAgent.name, 'the longest agent', counts);
      await expand(agents, seed.longAgent.name, 'the longest agent', 1);
      for (const b of seed.branches) {
        const row = await rowShowing(agents, b.name, `branch ${b.entry ?? 'longest'}`, 2);
        counts.rows++;
        await hoverShows(page, row, b.name, `branch ${b.entry ?? 'longest'}`, counts);
      }
      counts.places.add('Agents view: branch rows and hovers');
      await look(page, 'agents-branches');
      await screenshot(page, 'hostile-agents-branches');
      await collapse(agents, seed.longAgent.name, 'the longest agent', 1);

      await expand(agents, 'Support Desk', 'Support Desk', 1);
      await expand(agents, 'main', 'main', 2);
      await expand(agents, 'Knowledge', 'Knowledge', 3);
      for (const t of seed.topics) {
        const row = await rowShowing(agents, t.name, `topic ${t.entry ?? 'longest'}`, 4);
        counts.rows++;
        // The hover: the name, who edited it (every entry) and the start of its content.
        const text = await hoverShows(page, row, t.name, `topic ${t.entry ?? 'longest'}`, counts);
        if (t.entry)
          assert.ok(showsAsText(text, t.content), `topic ${t.entry}: its content in the hover: ${text.slice(0, 1500)}`);
        assert.ok(showsAsText(text, seed.topicEditor), `topic ${t.entry ?? 'longest'}: who edited it`);
      }
      counts.places.add('Agents view: topic rows and hovers');
      await collapse(agents, 'Knowledge', 'Knowledge', 3);
      await collapse(agents, 'main', 'main', 2);
      await expand(agents, 'Deployments', 'Deployments', 2);
      await expand(agents, 'sandbox', 'sandbox', 3);
      const deployment = await rowShowing(agents, seed.deploymentMessage.slice(0, 40), 'the published deployment', 4);
      await hoverShows(page, deployment, seed.deploymentMessage, 'the deployment message', counts, { starts: false });
      counts.places.add('Agents view: deployment row and hover');
      // A name one character over the limit is refused as it is typed, with the limit named, never sent or shown.
      await runCommand(page, 'Agent Workbench: Create Agent');
      const input = page.locator('.quick-input-widget input.input');
      await input.fill(sized(AGENT_NAME_MAX + 1));
      await page
        .locator('.quick-input-message', { hasText: `1 to ${AGENT_NAME_MAX} characters (now ${AGENT_NAME_MAX + 1})` })
        .waitFor();
      await page.keyboard.press('Escape');
      counts.places.add('Create Agent: a name over the limit refused as typed');
      await look(page, 'agents-topics');
      await screenshot(page, 'hostile-agents-topics');
      await collapse(agents, 'Support Desk', 'Support Desk', 1);
    });
  });

  it('Alerts view: rules, firing alerts and endpoints; Webhook Deliveries: signed and unsigned deliveries', async () => {
    const { page } = wb;
    await step(page, 'hostile-alerts', async () => {
      await runCommand(page, 'Agent Workbench: Refresh Alerts');
      await only(page, 'Alerts');
      const alerts = pane(page, 'Alerts');
      // One group open at a time: a rule is listed by its name under Current Alerts (firing) and Alert Rules.
      for (const group of ['Current Alerts', 'Alert Rules']) {
        await expand(alerts, group, group, 1);
        for (const r of seed.rules) {
          const row = await rowShowing(alerts, r.name, `rule ${r.id} under ${group}`, 2);
          counts.rows++;
          await hoverShows(page, row, r.name, `rule ${r.id} under ${group}`, counts);
        }
        await collapse(alerts, group, group, 1);
      }
      counts.places.add('Alerts view: rule and firing alert rows and hovers');
      await expand(alerts, 'Webhook Endpoints', 'Webhook Endpoints', 1);
      for (const e of seed.endpoints) {
        const row = await rowShowing(alerts, e.name, `endpoint ${e.id}`, 2);
        counts.rows++;
        const text = await hoverShows(page, row, e.name, `endpoint ${e.id}`, counts);
        assert.ok(
          showsAsText(text, e.url.replace('http://127.0.0.1:9/', '')),
          `endpoint ${e.id}: its address as written`,
        );
      }
      counts.places.add('Alerts view: endpoint rows and hovers');
      await look(page, 'alerts');
      await screenshot(page, 'hostile-alerts');

      // Deliveries: the platform's signed ones, and unsigned ones anyone on the machine could post.
      const unsigned = {
        event_type: joined(),
        alert: {
          id: joined(),
          name: joined(),
          metric: joined(),
          operator: joined(),
          previous_state: joined(),
          triggered_at: joined(),
        },
      };
      const posted = await fetch(receiverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(unsigned),
      });
      assert.equal(posted.status, 200);
      const limit = 256 * 1024;
      const large = JSON.stringify({ event_type: 'alerts.triggered', alert: { name: sized(limit - 60) } });
      assert.equal(
        (await fetch(receiverUrl, { method: 'POST', body: large })).status,
        200,
        'a body at the limit is taken',
      );
      const over = await fetch(receiverUrl, { method: 'POST', body: 'x'.repeat(limit + 1) });
      assert.equal(over.status, 413, 'a body over the limit is refused');
      await runCommand(page, 'Agent Workbench: Refresh Alerts');
      await only(page, 'Webhook Deliveries');
      const deliveries = pane(page, 'Webhook Deliveries');
      for (const r of seed.rules) {
        const row = await rowShowing(deliveries, `alerts.triggered · ${r.name}`, `the delivery of rule ${r.id}`, 1);
        counts.rows++;
        await hoverShows(page, row, `alerts.triggered · ${r.name}`, `the delivery of rule ${r.id}`, counts);
      }
      const row = await rowShowing(deliveries, `${joined()} · ${joined()}`, 'the unsigned delivery');
      counts.rows++;
      const text = await hoverShows(page, row, `${joined()} · ${joined()}`, 'the unsigned delivery', counts);
      assert.match(text, /not verified/);
      const box = await (
        await rowShowing(deliveries, sized(limit - 60).slice(0, 200), 'the delivery at the limit')
      ).boundingBox();
      const sidebar = await page.locator('.part.sidebar').boundingBox();
      assert.ok(
        box.x + box.width <= sidebar.x + sidebar.width + 1,
        'the delivery at the limit stays within the side bar',
      );
      counts.places.add('Webhook Deliveries view: rows and hovers');
      await look(page, 'deliveries');
      await screenshot(page, 'hostile-deliveries');
    });
  });

  it('transcript viewer: every turn, fact, metric and state of the hostile record as text; a 1 MB conversation keeps its layout', async () => {
    const { page } = wb;
    await step(page, 'hostile-transcripts', async () => {
      const open = async (id) => {
        await runCommand(page, 'Agent Workbench: Open Conversation by Id');
        const input = page.locator('.quick-input-widget input.input');
        await input.waitFor();
        await input.fill(id);
        await page.keyboard.press('Enter');
        // The panel shows one conversation at a time: the page that titles this one.
        for (const deadline = Date.now() + 30_000; ;) {
          for (const frame of webviewPages(page)) {
            const title = await frame
              .locator('.detail-view .title')
              .first()
              .innerText({ timeout: 200 })
              .catch(() => '');
            if (title.includes(id) && (await frame.locator('.turn .said').count()) > 0) return frame;
          }
          if (Date.now() > deadline) throw new Error(`no page shows conversation ${id}`);
          await page.waitForTimeout(200);
        }
      };
      const detail = await open(seed.conversations.hostile);
      const turns = (await allTexts(detail, '.turn')).join('\n');
      for (const e of HOSTILE_CORPUS) {
        assert.ok(showsAsText(turns, `${e.text}`), `turn text of ${e.name}`);
        counts.texts++;
      }
      const side = await detail.locator('.side').innerText();
      for (const e of HOSTILE_CORPUS) assert.ok(showsAsText(side, e.text), `state and metrics of ${e.name}`);
      assert.ok(showsAsText(side, joined()), 'handoff reason and destination');
      await layoutHolds(detail, '#find', 'a conversation of every entry');
      counts.places.add('transcript viewer: turns, intents, entities, facts, metrics, state');
      await look(page, 'transcript');
      await screenshot(page, 'hostile-transcript');

      // Exported as Markdown (the save dialog taken as it comes) and read in the Markdown preview.
      await detail.locator('#action-exportMarkdown').click();
      const path = page.locator('.quick-input-widget input.input');
      await path.waitFor();
      await page.keyboard.press('Enter');
      await notification(page, 'Exported conversation').getByRole('button', { name: 'Open' }).first().click();
      await page.locator('.tab.active', { hasText: `conversation-${seed.conversations.hostile}.md` }).waitFor();
      // Its preview, from the editor that has the keyboard (Markdown: Open Preview).
      await page.locator('.editor-instance textarea').first().focus();
      await page.keyboard.press('Control+Shift+V');
      const preview = await webviewShowing(page, '.markdown-body, body.vscode-body h1');
      await preview.locator('h1', { hasText: `Conversation ${seed.conversations.hostile}` }).waitFor();
      const previewed = await preview.locator('body').innerText();
      for (const e of HOSTILE_CORPUS) {
        assert.ok(showsAsText(previewed, e.text), `${e.name} in the Markdown preview as text`);
        counts.texts++;
      }
      await layoutHolds(preview, 'h1', 'the Markdown preview of an exported transcript');
      counts.places.add('Markdown preview: an exported transcript');
      await look(page, 'markdown preview');
      await screenshot(page, 'hostile-markdown-preview');

      const large = await open(seed.conversations.large);
      const text = await large.locator('.turn .said.user .text').first().innerText();
      assert.ok(text.length >= ONE_MEGABYTE.text.length, `the 1 MB turn is shown whole (${text.length})`);
      assert.ok(text.startsWith(`<b ${MARKUP_ATTRIBUTE}>START`) && text.endsWith('END</b>'), 'as text');
      await layoutHolds(large, '#find', 'a conversation of 1 MB texts');
      counts.places.add('transcript viewer: a 1 MB conversation');

      await runCommand(page, 'Agent Workbench: Open Conversations');
      const list = await webviewShowing(page, '.rows .row[data-id]');
      await list.locator('.status', { hasText: /conversations? shown/ }).waitFor();
      const listed = list.locator(`.rows .row[data-id="${seed.conversations.hostile}"]`);
      await listed.waitFor();
      assert.ok(showsAsText(await listed.innerText(), joined()), 'the list row: channel and variant as text');
      await layoutHolds(list, 'form.filters', 'the conversations list');
      counts.places.add('transcript viewer: conversations list');
      await look(page, 'transcript-list');
      await screenshot(page, 'hostile-transcript-list');
    });
  });

  it('chat playground: every entry sent and answered, shown as text', async () => {
    const { page } = wb;
    await step(page, 'hostile-chat', async () => {
      await runCommand(page, 'Agent Workbench: Open Chat');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Messaging, streamed' }).first().click();
      const chat = await webviewShowing(page, '#message textarea');
      await chat.locator('.status', { hasText: 'Connected' }).waitFor();
      const box = chat.locator('#message textarea');
      const message = `What about ${keywordOf(HOSTILE_CORPUS[0])}? ${joined()}`;
      await box.fill(message);
      await box.press('Enter');
      const user = chat.locator('.line.user .text').last();
      await user.waitFor();
      assert.ok(showsAsText(await user.innerText(), joined()), 'the message as typed');
      const answer = chat.locator('.line.agent:not(.streaming) .text').nth(1);
      await answer.waitFor();
      const said = await answer.innerText();
      assert.ok(
        seed.topics.some((t) => t.entry && showsAsText(said, t.content)),
        `the answer, a hostile topic, as text: ${said.slice(0, 300)}`,
      );
      await layoutHolds(chat, '.toolbar', 'the chat');
      counts.places.add('chat playground: messages and answers');
      await look(page, 'chat');
      await screenshot(page, 'hostile-chat');
    });
  });

  it('concurrency chart: a hostile variant name in the legend, as text, the chart within its window', async () => {
    const { page } = wb;
    await step(page, 'hostile-chart', async () => {
      await runCommand(page, 'Agent Workbench: Open Concurrency Chart');
      const chart = await webviewShowing(page, '.plot canvas');
      await chart.locator('vscode-checkbox#slice').click();
      await chart.locator('vscode-button#show').click();
      const legend = chart.locator('.u-legend');
      await legend.filter({ hasText: 'data-hostile' }).first().waitFor();
      const text = await legend.innerText();
      assert.ok(showsAsText(text, joined()), `the legend: ${text.slice(0, 300)}`);
      await layoutHolds(chart, 'vscode-button#show', 'the chart');
      counts.places.add('concurrency chart: legend');
      await look(page, 'chart');
      await screenshot(page, 'hostile-chart');
    });
  });

  it('Testing view: every case named by an entry, its answer in the output shown as text', async () => {
    const { page } = wb;
    await step(page, 'hostile-tests', async () => {
      await runCommand(page, 'Testing: Focus on Test Explorer View');
      const view = page.locator('.sidebar');
      await expand(view, 'hostile.yaml', 'the test file', 1);
      for (const e of HOSTILE_CORPUS) {
        await rowShowing(view, e.text, `test ${e.name}`, 2);
        counts.rows++;
      }
      counts.places.add('Testing view: test names');
      await runCommand(page, 'Test: Run All Tests');
      await page
        .locator('.sidebar .monaco-list-row .codicon-testing-failed-icon')
        .nth(HOSTILE_CORPUS.length - 1)
        .waitFor({ timeout: 60_000 });
      await runCommand(page, 'View: Toggle Maximized Panel');
      const output = page.locator('.part.panel');
      await output
        .filter({ hasText: keywordOf(HOSTILE_CORPUS.at(-1)) })
        .first()
        .waitFor();
      const text = await output.innerText();
      for (const e of HOSTILE_CORPUS) {
        assert.ok(
          showsAsText(text, `The answer about ${keywordOf(e)}: ${e.text}`),
          `the answer of ${e.name} in the output: ${JSON.stringify(text.slice(Math.max(0, text.indexOf(keywordOf(e)) - 20), text.indexOf(keywordOf(e)) + 200))}`,
        );
        counts.texts++;
      }
      assert.match(text, /⟦U\+001B⟧\[31mred/, "an answer's escape sequence is shown, not obeyed");
      counts.places.add('Testing view: run output');
      await look(page, 'tests');
      await screenshot(page, 'hostile-tests');
      await runCommand(page, 'View: Toggle Maximized Panel');
    });
  });

  /** The fields the corpus went into: the platform's (with the entries each holds whole), the test file's, the deliveries'. */
  const fieldsCovered = () => [
    ...seed.fields.map((f) => `${f.field} (${f.entries.length})`),
    `test name (${HOSTILE_CORPUS.length})`,
    `test answer (${HOSTILE_CORPUS.length})`,
    `signed webhook delivery: rule name (${HOSTILE_CORPUS.length})`,
    `unsigned webhook delivery: event type, rule id, name, metric, operator, state, time (${HOSTILE_CORPUS.length})`,
  ];

  it('nothing ran in any frame, nothing was made of the markup, nothing loaded from a remote host', async () => {
    const { page } = wb;
    await look(page, 'the end');
    const findings = seenFrames;
    const ran = findings.filter((f) => f.ran !== null || /PWNED/.test(f.title));
    const marked = findings.filter((f) => f.marked > 0);
    const refused = findings.flatMap((f) => f.refused.filter((r) => r.includes(REMOTE_HOST) || r.includes(SENTINEL)));
    const figures = {
      strings: HOSTILE_CORPUS.length + 1,
      fields: fieldsCovered().length,
      refusals: seed.refusals.length,
      places: counts.places.size,
      rows: counts.rows,
      hovers: counts.hovers,
      frames: new Set(findings.map((f) => f.url)).size,
      webviewFrames: new Set(findings.filter((f) => f.url.includes('fake.html')).map((f) => f.url)).size,
      executed: ran.length,
      markup: marked.length,
      remote: remoteLoads().length,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    console.log(`HOSTILE ${JSON.stringify(figures)}`);
    console.log(`places: ${[...counts.places].join('; ')}`);
    console.log(`fields: ${fieldsCovered().join('; ')}`);
    assert.deepEqual(ran, [], 'no payload ran');
    assert.deepEqual(marked, [], 'no element was made of the markup');
    assert.deepEqual(refused, [], 'no page had to refuse a payload');
    assert.deepEqual(remoteLoads(), [], 'no request left the machine');
  });
});
