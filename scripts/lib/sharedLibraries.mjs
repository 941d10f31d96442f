import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

// The libraries that more than one of the extension's Node bundles uses, each built once as a bundle of its own
// (dist/<name>.js) that the others require where they import it. Bundled into each user instead, yaml was in four
// bundles and zod, undici and libphonenumber-js in two or three: about 300 KB of the .vsix. A process that loads two
// of the bundles (the editor: the client and the file mirror; the command line: the local platform and the checks)
// now also compiles each library once.
//
// A bundle requires a library where its code imports it: at load for a top-level import (the client, the local
// platform), on the call for a `require()` inside a function (the extension's own modules, so activation loads none).

/**
 * Each shared library: the bundle's name in dist/, the import paths that resolve to it, whether its bundle exports
 * the library's default export, and the names it exports when not all of them (an import of anything else fails
 * the build: see importedNames).
 * `zod/v4` is the same module as `zod` (the MCP SDK imports it by that path); the SDK's other entries (`zod/v3`,
 * `zod/v4-mini`) stay in the local platform's bundle. `undici` is the pool alone (see undiciPoolOnly in
 * bundleTrims.mjs).
 */
export const SHARED_LIBRARIES = [
  { name: 'zod', imports: ['zod', 'zod/v4'], defaultExport: true },
  { name: 'undici', imports: ['undici'], defaultExport: false },
  // Its whole index is a third larger than what the project uses, which the local platform would compile at every start.
  {
    name: 'libphonenumber-js',
    imports: ['libphonenumber-js'],
    defaultExport: false,
    names: ['findPhoneNumbersInText', 'isSupportedCountry', 'isValidPhoneNumber', 'parsePhoneNumberFromString'],
  },
  { name: 'yaml', imports: ['yaml'], defaultExport: true },
  { name: 'ws', imports: ['ws'], defaultExport: true },
  { name: 'node-diff3', imports: ['node-diff3'], defaultExport: false },
  { name: 'jsonc-parser', imports: ['jsonc-parser'], defaultExport: false },
  { name: 'diff', imports: ['diff'], defaultExport: false },
];

const libraryOf = new Map(SHARED_LIBRARIES.flatMap((lib) => lib.imports.map((path) => [path, lib])));

/**
 * The values a source file takes from a module by its import path: the names of `import { a, b as c } from` (or
 * `export { ... } from`) and of `const { a } = require(`, `default` for a default import, `*` for a namespace
 * import, `export *` or any other `require`. Type-only imports take nothing.
 */
export function importedNames(source, path) {
  const quoted = `['"]${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`;
  const names = [];
  const named = (list) =>
    list
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .forEach((n) => names.push(n.split(/\s+as\s+|\s*:\s*/)[0]));
  for (const m of source.matchAll(new RegExp(`(?:import|export)\\s+(?!type\\s)([^;]*?)\\s+from\\s+${quoted}`, 'g'))) {
    const clause = m[1];
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) named(braces[1]);
    const before = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,\s*$/, '')
      .trim();
    if (before.startsWith('*')) names.push('*');
    else if (before) names.push('default');
  }
  // A require destructured where it is made names what it takes; any other keeps the whole module.
  for (const m of source.matchAll(
    new RegExp(`(?:(?:const|let)\\s+\\{([^}]*)\\}\\s*=\\s*)?require\\(${quoted}\\)`, 'g'),
  )) {
    if (m[1] !== undefined) named(m[1]);
    else names.push('*');
  }
  return names;
}

/** What of the library's bundle a file imports that the bundle does not export, if anything. */
function missingExport(lib, source, path) {
  return importedNames(source, path).find((name) =>
    name === 'default' ? !lib.defaultExport : lib.names !== undefined && !lib.names.includes(name),
  );
}

/** In a bundle written to dist/: each import of a shared library is a `require` of its bundle beside it. */
export const sharedLibraryImports = {
  name: 'shared-library-imports',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (args) => {
      const lib = libraryOf.get(args.path);
      if (!lib) return undefined;
      // Only the project's own files: a library's imports of another (the MCP SDK's of zod) are its own affair.
      if (!args.importer.includes('node_modules') && existsSync(args.importer)) {
        const missing = missingExport(lib, readFileSync(args.importer, 'utf8'), args.path);
        if (missing)
          return {
            errors: [
              {
                text: `${relative('.', args.importer)} imports ${missing} from ${args.path}, which dist/${lib.name}.js does not export: list it in scripts/lib/sharedLibraries.mjs`,
              },
            ],
          };
      }
      return { path: `./${lib.name}.js`, external: true };
    });
  },
};

/**
 * The entry points of the libraries' own bundles (`shared-library:<name>`): everything the library exports (or the
 * names listed), with its default export where it has one.
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
        contents: `export ${lib.names ? `{ ${lib.names.join(', ')} }` : '*'} from ${from};\n${lib.defaultExport ? `export { default } from ${from};\n` : ''}`,
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
