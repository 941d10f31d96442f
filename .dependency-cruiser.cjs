// The layer rules of docs/architecture.md, checked on the import graph by `npm run lint` (scripts/layers.mjs).
// Unlike a per-file lint rule, a graph rule also sees what a module reaches through others, so
// `vscode` stays out of everything but src/ui and src/extension.ts even when it would come in indirectly.
// test/unit/layers.test.ts proves each rule reports a forbidden import, with the fixtures of test/fixtures/layers/.

/** A layer (`from`) that may not import another (`to`), at run time or as a type. */
const never = (name, from, to, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: from },
  to: { path: to },
});

/** `<root>/src/<layer>/`, for the real tree and for the fixtures, which copy its shape. */
const layer = (name) => `(^|/)src/${name}/`;
const ROOT = '(^|/)src/';

module.exports = {
  forbidden: [
    never(
      'core-imports-nothing',
      layer('core'),
      `${ROOT}(?!core/)`,
      'core is the bottom layer: no other layer of src/.',
    ),
    never('contract-only-core', layer('contract'), `${ROOT}(?!core/|contract/)`, 'contract builds on core only.'),
    never(
      'client-not-above',
      layer('client'),
      `${ROOT}(localPlatform|ui|workspace)/|${ROOT}extension\\.ts$`,
      'client is below workspace and ui and beside the local platform.',
    ),
    never(
      'workspace-not-above',
      layer('workspace'),
      `${ROOT}(localPlatform|ui)/|${ROOT}extension\\.ts$`,
      'workspace is below ui and beside the local platform.',
    ),
    never(
      'localPlatform-beside-client',
      layer('localPlatform'),
      `${ROOT}(client|ui|workspace)/|${ROOT}extension\\.ts$`,
      'the local platform uses core and contract only.',
    ),
    never(
      'protocol-beside-contract',
      layer('protocol'),
      `${ROOT}(?!protocol/|contract/|core/)`,
      'protocol is message types shared with the webviews: it may name contract types, nothing above.',
    ),
    never('webview-only-protocol', '(^|/)webview/', `${ROOT}(?!protocol/)`, 'browser code may use src/protocol only.'),
    {
      name: 'protocol-types-only',
      severity: 'error',
      comment:
        'protocol holds message types and their guards: a value import from outside protocol would ship host code to the browser.',
      from: { path: layer('protocol') },
      to: { pathNot: layer('protocol'), dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'vscode-only-in-ui',
      severity: 'error',
      comment:
        "only src/ui and src/extension.ts run inside VS Code: nothing else may reach 'vscode', directly or through other modules, even for a type.",
      from: { path: ROOT, pathNot: `${layer('ui')}|${ROOT}extension\\.ts$` },
      to: { path: '^vscode$', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|out|node_modules|\\.cache|\\.test-output)/' },
    // Type-only imports count as dependencies (a layer rule holds for types too); protocol-types-only tells them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.d.ts'],
    },
    builtInModules: { add: ['vscode'] },
  },
};
