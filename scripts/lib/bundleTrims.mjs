// esbuild plugins that keep out of the bundles the parts of dependencies the extension never runs.
// Each resolves one import to a smaller module; the dependency's own code is unchanged.

/**
 * zod re-exports every locale (about 250 KB minified) while only English is used: resolve the
 * locales index to a module that holds English alone.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`)
        ? { path: 'zod-locales-en', namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * undici's index loads all of undici (fetch, caches, mocks, WebSocket, proxies: about 230 KB minified)
 * while the client uses its `Pool` alone: resolve `undici` to a module that holds the pool and the
 * request API that undici's index gives every dispatcher. It is ESM on purpose: importing any other
 * name from `undici` then fails the build instead of being undefined at run time.
 */
export const undiciPoolOnly = {
  name: 'undici-pool-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici-pool', namespace: 'undici-pool' }));
    build.onLoad({ filter: /.*/, namespace: 'undici-pool' }, () => ({
      contents: [
        "import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';",
        "import api from 'undici/lib/api/index.js';",
        "import Pool from 'undici/lib/dispatcher/pool.js';",
        'Object.assign(Dispatcher.prototype, api);',
        'export { Pool };',
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * undici carries its HTTP parser twice, as WebAssembly with SIMD and without (about 75 KB each, as
 * base64), and uses the second where the first does not compile. The plain one runs everywhere and
 * parses the client's small answers as fast as it needs: both names resolve to it (undici's own
 * `UNDICI_NO_WASM_SIMD=1` mode, made permanent).
 */
export const undiciOneParser = {
  name: 'undici-one-parser',
  setup(build) {
    build.onResolve({ filter: /\/llhttp\/llhttp_simd-wasm\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/undici/`)
        ? build.resolve(args.path.replace('llhttp_simd-wasm.js', 'llhttp-wasm.js'), {
            kind: args.kind,
            resolveDir: args.resolveDir,
          })
        : undefined,
    );
  },
};

/**
 * The MCP SDK's server makes an Ajv validator (with ajv-formats and fast-uri: about 130 KB minified) unless it is
 * given one, and uses it only for requests the command line's server never makes (elicitation). The command line
 * gives it one on the project's own JSON Schema checker, so the SDK's Ajv provider resolves to a module that says
 * so if it is ever made.
 */
export const mcpWithoutAjv = {
  name: 'mcp-without-ajv',
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/@modelcontextprotocol/sdk/`)
        ? { path: 'mcp-ajv-provider', namespace: 'mcp-ajv' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'mcp-ajv' }, () => ({
      contents: [
        'export class AjvJsonSchemaValidator {',
        '  getValidator() {',
        "    throw new Error('This build of the MCP server has no Ajv: give the Server a jsonSchemaValidator.');",
        '  }',
        '}',
      ].join('\n'),
      loader: 'js',
    }));
  },
};
