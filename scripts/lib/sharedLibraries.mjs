// The libraries that more than one of the extension's Node bundles uses, each built once as a bundle of its own
// (dist/<name>.js) that the others require where they import it. Bundled into each user instead, yaml was in four
// bundles and zod, undici and libphonenumber-js in two or three: about 300 KB of the .vsix. A process that loads two
// of the bundles (the editor: the client and the file mirror; the command line: the local platform and the checks)
// now also compiles each library once.
//
// A bundle requires a library where its code imports it: at load for a top-level import (the client, the local
// platform), on the call for a `require()` inside a function (the extension's own modules, so activation loads none).

/**
 * Each shared library: the bundle's name in dist/, and the import paths that resolve to it. `zod/v4` is the same
 * module as `zod` (the MCP SDK imports it by that path); the SDK's other entries (`zod/v3`, `zod/v4-mini`) stay in
 * the local platform's bundle. `undici` is the pool alone (see undiciPoolOnly in bundleTrims.mjs).
 */
export const SHARED_LIBRARIES = [
  { name: 'zod', imports: ['zod', 'zod/v4'], defaultExport: true },
  { name: 'undici', imports: ['undici'], defaultExport: false },
  { name: 'libphonenumber-js', imports: ['libphonenumber-js'], defaultExport: true },
  { name: 'yaml', imports: ['yaml'], defaultExport: true },
  { name: 'ws', imports: ['ws'], defaultExport: true },
  { name: 'node-diff3', imports: ['node-diff3'], defaultExport: false },
  { name: 'jsonc-parser', imports: ['jsonc-parser'], defaultExport: false },
  { name: 'diff', imports: ['diff'], defaultExport: false },
];

const bundleOf = new Map(SHARED_LIBRARIES.flatMap((lib) => lib.imports.map((path) => [path, `./${lib.name}.js`])));

/** In a bundle written to dist/: each import of a shared library is a `require` of its bundle beside it. */
export const sharedLibraryImports = {
  name: 'shared-library-imports',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (args) => {
      const bundle = bundleOf.get(args.path);
      return bundle ? { path: bundle, external: true } : undefined;
    });
  },
};

/**
 * The entry points of the libraries' own bundles (`shared-library:<name>`): everything the library exports, with its
 * default export where it has one, so any name a bundle imports is there (the build does not see which names those
 * are: a require of an external module is not checked).
 */
export const sharedLibraryEntries = {
  name: 'shared-library-entries',
  setup(build) {
    build.onResolve({ filter: /^shared-library:/ }, (args) => ({
      path: args.path.slice('shared-library:'.length),
      namespace: 'shared-library',
    }));
    build.onLoad({ filter: /.*/, namespace: 'shared-library' }, (args) => {
      const lib = SHARED_LIBRARIES.find((l) => l.name === args.path);
      const from = JSON.stringify(lib.imports[0]);
      return {
        contents: `export * from ${from};\n${lib.defaultExport ? `export { default } from ${from};\n` : ''}`,
        resolveDir: process.cwd(),
        loader: 'js',
      };
    });
  },
};

/** The entry points of the shared libraries' bundles, by output name. */
export const sharedLibraryEntryPoints = Object.fromEntries(
  SHARED_LIBRARIES.map((lib) => [lib.name, `shared-library:${lib.name}`]),
);
