// The command line as an npm package of its own, `agent-workbench` (`npx agent-workbench test --local`): built by
// `npm run build` into dist/cli-package/, packed there by `npm pack`. It holds the bundles of the command line
// (cli.js, and the lint.js and localPlatform.js it requires), the libraries' bundles those require, a package.json
// with the extension's version, a README and the licence: no dependency is installed with it, Node 20 is all it needs.
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CLI_PACKAGE_DIR = 'dist/cli-package';

/** The esbuild configurations of the package: the command line's, the checks' and the libraries', minified. */
export function cliPackageConfigs(cliConfig, sharedLibrariesConfig) {
  const own = { outdir: CLI_PACKAGE_DIR, minify: true, sourcemap: false, metafile: true };
  return [
    { ...cliConfig, ...own, banner: { js: '#!/usr/bin/env node' } },
    // The checks of agent folders, which `lint` requires (the extension's build makes dist/lint.js the same way).
    {
      ...cliConfig,
      ...own,
      entryPoints: { lint: 'src/lint/runtime.ts' },
      mainFields: ['module', 'main'],
      plugins: cliConfig.plugins.filter((p) => p.name !== 'cli-command-bundles'),
    },
    { ...sharedLibrariesConfig, ...own },
  ];
}

/** The bundles of the package folder that cli.js reaches through `require("./x.js")`, itself included. */
function requiredBundles(dir) {
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file)) return;
    reached.add(file);
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/require\(["']\.\/([\w.-]+\.js)["']\)/g)) visit(m[1]);
  };
  visit('cli.js');
  return reached;
}

/**
 * Once the bundles are built: drops the libraries' bundles nothing requires, writes package.json, README.md and
 * LICENSE. Returns the package's files and their size.
 */
export function writeCliPackage({ version }) {
  const dir = CLI_PACKAGE_DIR;
  const needed = requiredBundles(dir);
  for (const file of readdirSync(dir)) if (!needed.has(file)) rmSync(join(dir, file), { force: true });
  const manifest = {
    name: 'agent-workbench',
    version,
    description:
      'Agent Workbench on the command line: conversation tests (JUnit, JSON, Markdown, sharding), checks of agent folders (SARIF), the assistant tools over MCP and the local platform.',
    license: 'MIT',
    bin: { 'agent-workbench': 'cli.js' },
    main: 'cli.js',
    engines: { node: '>=20' },
    files: [...needed].sort(),
    keywords: ['conversational ai', 'voice agents', 'testing', 'mcp', 'ci'],
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync('docs/command-line.md', join(dir, 'README.md'));
  copyFileSync('LICENSE', join(dir, 'LICENSE'));
  const files = readdirSync(dir).sort();
  return { files, bytes: files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) };
}
