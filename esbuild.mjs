// Bundles the extension, the local platform and the webview apps.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, no source maps, into an emptied dist/
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --tests       also bundle the integration suites into out/test
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CLI_PACKAGE_DIR, cliPackageConfigs, writeCliPackage } from './scripts/lib/cliPackage.mjs';
import { mcpWithoutAjv, undiciOneParser, undiciPoolOnly, zodEnglishOnly } from './scripts/lib/bundleTrims.mjs';
import {
  sharedLibraryEntries,
  sharedLibraryEntryPoints,
  sharedLibraryImports,
} from './scripts/lib/sharedLibraries.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Reports build problems in the format of the `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * `integration-suites`: every test/integration/*.test.ts (the secret scan last, since it checks what the
 * others left behind) and *.bench.ts, found when bundling, so adding a suite is adding a file.
 */
const integrationSuites = {
  name: 'integration-suites',
  setup(build) {
    build.onResolve({ filter: /^integration-suites$/ }, () => ({
      path: 'integration-suites',
      namespace: 'integration-suites',
    }));
    build.onLoad({ filter: /.*/, namespace: 'integration-suites' }, () => {
      const dir = join(process.cwd(), 'test', 'integration');
      const list = (suffix) =>
        readdirSync(dir)
          .filter((f) => f.endsWith(suffix))
          .map((f) => f.slice(0, -suffix.length))
          .sort((a, b) => (a === 'secrets') - (b === 'secrets') || a.localeCompare(b));
      const entries = (names, suffix) =>
        names.map((n) => `  ${JSON.stringify(n)}: () => import(${JSON.stringify(`./${n}${suffix}`)}),`).join('\n');
      return {
        contents: `export const suites = {\n${entries(list('.test.ts'), '.test.ts')}\n};\nexport const benchSuites = {\n${entries(list('.bench.ts'), '.bench.ts')}\n};\n`,
        resolveDir: dir,
        loader: 'js',
        watchDirs: [dir],
      };
    });
  },
};

/**
 * `cli-command-bundles`: dist/cli.js requires each subcommand's module from the bundle that holds it instead of
 * holding it too: `lint` from dist/lint.js (the checks' own bundle, which the editor loads as well), the local
 * platform and the commands that start it from dist/localPlatform.js. Node compiles the whole of a bundle it
 * loads, so `lint` in CI no longer compiles the local platform, zod, undici and the MCP SDK first (about 100 ms).
 * The source (run through tsx by the unit tests) requires the modules themselves; each bundle exports their names.
 */
const CLI_COMMAND_BUNDLES = {
  '../lint/lintCommand': './lint.js',
  '../localPlatform/serveCommand': './localPlatform.js',
  '../localPlatform/server': './localPlatform.js',
  './testCommand': './localPlatform.js',
  './compareCommand': './localPlatform.js',
  './mcpCommand': './localPlatform.js',
  './mergeReports': './localPlatform.js',
};
const cliCommandBundles = {
  name: 'cli-command-bundles',
  setup(build) {
    build.onResolve({ filter: /(?:Command|\/server|\/mergeReports)$/ }, (args) =>
      Object.hasOwn(CLI_COMMAND_BUNDLES, args.path) &&
      /[\\/]src[\\/]cli[\\/](?:main|subcommands)\.ts$/.test(args.importer)
        ? { path: CLI_COMMAND_BUNDLES[args.path], external: true }
        : undefined,
    );
  },
};

// The command line says its version (`--version`, the MCP server's) from the extension's manifest.
const version = JSON.parse(readFileSync('package.json', 'utf8')).version;

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  legalComments: 'none',
  plugins: [zodEnglishOnly, undiciPoolOnly, undiciOneParser, mcpWithoutAjv, ...(watch ? [problemMatcher] : [])],
};

const webviewDir = 'webview';
const panels = existsSync(webviewDir)
  ? readdirSync(webviewDir).filter(
      (d) =>
        d !== 'shared' && statSync(join(webviewDir, d)).isDirectory() && existsSync(join(webviewDir, d, 'main.ts')),
    )
  : [];

const cliConfig = {
  ...common,
  // The command line (`node dist/cli.js <command>`: `serve` is what the editor forks) and, when required, the
  // local platform as a library (`startLocalPlatform`); the commands' code is in dist/lint.js and
  // dist/localPlatform.js, required by dist/cli.js when one runs (see cliCommandBundles).
  entryPoints: { cli: 'src/cli/main.ts', localPlatform: 'src/cli/localPlatformRuntime.ts' },
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { AGENT_WORKBENCH_VERSION: JSON.stringify(version) },
  plugins: [sharedLibraryImports, ...common.plugins, cliCommandBundles],
};

const sharedLibrariesConfig = {
  ...common,
  // The libraries more than one of the bundles above use, one bundle each, which those require (see
  // scripts/lib/sharedLibraries.mjs).
  entryPoints: sharedLibraryEntryPoints,
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  plugins: [sharedLibraryEntries, ...common.plugins],
};

const configs = [
  {
    ...common,
    // The client (zod, undici, the contract) and the file mirror (yaml, node-diff3) are bundles of their own, loaded on first use.
    entryPoints: {
      extension: 'src/extension.ts',
      client: 'src/client/runtime.ts',
      workspace: 'src/workspace/runtime.ts',
      lint: 'src/lint/runtime.ts',
      agentTests: 'src/agentTests/runtime.ts',
      assistantTools: 'src/ui/assistant/runtime.ts',
    },
    outdir: 'dist',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    // Keep the local platform out of the extension bundle: it is loaded on demand.
    mainFields: ['module', 'main'],
    plugins: [sharedLibraryImports, ...common.plugins],
  },
  cliConfig,
  sharedLibrariesConfig,
  // The command line as an npm package of its own (dist/cli-package/, `npx agent-workbench`): its bundles and the
  // libraries' bundles they require, always minified and without source maps (scripts/lib/cliPackage.mjs).
  ...(watch ? [] : cliPackageConfigs(cliConfig, sharedLibrariesConfig)),
  ...(panels.length
    ? [
        {
          ...common,
          entryPoints: Object.fromEntries(panels.map((p) => [p, join(webviewDir, p, 'main.ts')])),
          outdir: 'dist/webview',
          format: 'esm',
          // The apps share lit, the elements and the virtualizer: one copy of each, in chunks the apps import
          // (dist/webview/chunk-*.js). A page's module script imports them with its own nonce, so the content
          // security policy stays as it is.
          splitting: true,
          chunkNames: 'chunk-[hash]',
          platform: 'browser',
          target: 'es2022',
          loader: { '.css': 'text', '.ttf': 'file' },
        },
      ]
    : []),
  ...(tests
    ? [
        {
          ...common,
          minify: false,
          sourcemap: 'inline',
          entryPoints: { 'integration/index': 'test/integration/index.ts' },
          outdir: 'out/test',
          format: 'cjs',
          platform: 'node',
          target: 'node20',
          external: ['vscode', 'mocha'],
          plugins: [...common.plugins, integrationSuites],
        },
      ]
    : []),
];

// Two entries of dist/ with one name would write one file.
const distNames = configs.filter((c) => c.outdir === 'dist').flatMap((c) => Object.keys(c.entryPoints));
const twice = distNames.filter((name, i) => distNames.indexOf(name) !== i);
if (twice.length) throw new Error(`two bundles would be written as dist/${twice[0]}.js`);

function sizeReport(metafile) {
  const rows = Object.entries(metafile.outputs)
    .filter(([file]) => !file.endsWith('.map') && !file.startsWith(CLI_PACKAGE_DIR))
    .map(([file, out]) => `  ${relative('.', file).padEnd(40)} ${(out.bytes / 1024).toFixed(1).padStart(9)} KB`);
  return rows.join('\n');
}

// What a production build leaves in dist/ is exactly what it wrote: no source map or bundle of an
// earlier development build (or of an entry since removed) can reach the package.
if (production) rmSync('dist', { recursive: true, force: true });

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] watching for changes');
} else {
  const started = Date.now();
  // The package folder holds only what this build writes there.
  rmSync(CLI_PACKAGE_DIR, { recursive: true, force: true });
  const results = await Promise.all(configs.map((c) => esbuild.build(c)));
  const cliPackage = writeCliPackage({ version });
  console.log(`Built in ${Date.now() - started} ms${production ? ' (production)' : ''}:`);
  for (const r of results) if (sizeReport(r.metafile)) console.log(sizeReport(r.metafile));
  console.log(
    `  ${`${CLI_PACKAGE_DIR}/ (${cliPackage.files.length} files)`.padEnd(40)} ${(cliPackage.bytes / 1024).toFixed(1).padStart(9)} KB`,
  );
}
