// The packaged extension, as a user installs it: `npm run package`, then the .vsix into a clean VS Code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { codeServerCli } from '../../scripts/lib/codeServer.mjs';
import { vsixFacts } from '../../scripts/lib/vsixContents.mjs';
import { stageRepository } from '../support/stagedRepository.mjs';
import {
  notification,
  openWorkbench,
  resetWorkbench,
  runCommand,
  screenshot,
  showAgentWorkbench,
  step,
} from '../support/browser/workbench.mjs';

// Packaged in a copy of the repository: a production build empties dist/, which the suites running beside this one load.
const stage = stageRepository('package');
const VSIX = join(stage.dir, 'dist', 'agent-workbench.vsix');
const ALLOWED = [
  /^dist\/[^/]+\.js$/,
  /^dist\/webview\//,
  /^media\//,
  /^docs\/images\/[^/]+\.png$/,
  // The pages the Problems panel links each check's rule id to, offline.
  /^docs\/rules\/[^/]+\.md$/,
  /^package\.json$/,
  /^package\.nls(\.[\w-]+)?\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
];

describe('Packaged extension', { timeout: 300_000 }, () => {
  before(() => {
    execFileSync('npm', ['run', '--silent', 'package'], { cwd: stage.dir, stdio: ['ignore', 'ignore', 'inherit'] });
  });
  after(() => stage.remove());

  it('the package holds only the bundles, media, manifest, strings and docs', () => {
    const files = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], {
      cwd: stage.dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const unexpected = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    assert.deepEqual(unexpected, [], `files that do not belong in the package: ${unexpected.join(', ')}`);
    for (const needed of [
      'package.json',
      'package.nls.json',
      'dist/extension.js',
      'dist/cli.js',
      'dist/localPlatform.js',
      'dist/lint.js',
      'media/icon.png',
      'LICENSE',
    ]) {
      assert.ok(files.includes(needed), `${needed} is missing from the package`);
    }
  });

  it('ships no source map and one local platform bundle', () => {
    const { maps, localPlatformBundles } = vsixFacts(VSIX);
    assert.deepEqual(maps, [], `source maps in the package: ${maps.join(', ')}`);
    assert.deepEqual(localPlatformBundles, ['extension/dist/localPlatform.js']);
  });

  it('the .vsix is smaller than 2 MB', () => {
    const bytes = statSync(VSIX).size;
    assert.ok(bytes < 2 * 1024 * 1024, `${VSIX} is ${(bytes / 1024 / 1024).toFixed(2)} MB`);
  });

  describe('installed from the .vsix into a clean VS Code', () => {
    let wb;
    before(async () => {
      wb = await openWorkbench({
        name: 'e2e-vsix',
        devExtension: false,
        prepare: async (sandbox) => {
          await codeServerCli([
            '--install-extension',
            VSIX,
            '--extensions-dir',
            sandbox.extensionsDir,
            '--user-data-dir',
            sandbox.userDataDir,
          ]);
          const listed = await codeServerCli([
            '--list-extensions',
            '--show-versions',
            '--extensions-dir',
            sandbox.extensionsDir,
            '--user-data-dir',
            sandbox.userDataDir,
          ]);
          assert.match(listed, /agent-workbench\.agent-workbench@0\.\d+\.\d+/);
        },
      });
    });
    after(async () => {
      await wb?.close();
    });
    beforeEach(async () => {
      if (wb) await resetWorkbench(wb.page);
    });

    it('shows its activity bar item and the Agents view', async () => {
      const { page } = wb;
      await step(page, 'vsix-agents-view', async () => {
        await showAgentWorkbench(page);
        await page
          .locator('.sidebar .welcome-view-content')
          .first()
          .getByRole('button', { name: 'Start Local Platform' })
          .waitFor();
      });
    });

    it('activates and runs its commands', async () => {
      const { page } = wb;
      await step(page, 'vsix-start-local-platform', async () => {
        await runCommand(page, 'Agent Workbench: Start Local Platform');
        await notification(page, 'The local platform is running on').waitFor();
        await screenshot(page, 'vsix-local-platform-started');
      });
    });
  });
});
