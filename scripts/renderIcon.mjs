// Renders the marketplace icon media/icon.png (128x128) from media/agent-workbench.svg with headless Chromium.
//   node scripts/renderIcon.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from './lib/hostPaths.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(root, 'media', 'agent-workbench.svg'), 'utf8')
  .replace(/width="24" height="24"/, 'width="96" height="96"')
  .replace('stroke-width="1.6"', 'stroke-width="1.5"');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="icon" style="width:128px;height:128px;border-radius:26px;display:flex;align-items:center;justify-content:center;
  background:linear-gradient(135deg,#2f6fde 0%,#6a46d8 100%);color:#fff">${svg}</div></body></html>`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  const out = join(root, 'media', 'icon.png');
  await page.locator('#icon').screenshot({ path: out, omitBackground: true });
  console.log(`Wrote ${out}`);
} finally {
  await browser.close();
}
