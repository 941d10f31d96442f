// The layer rules of docs/architecture.md, checked on the import graph by `npm run lint` (its `depcruise` step).
// Unlike a per-file lint rule, a graph rule also sees what a module reaches through others, so
// `vscode` stays out of everything but src/ui and src/extension.ts even when it would come in indirectly.
// Inside src/ui the folders are layered too (UI_BASE, UI_FEATURES and UI_FEATURE_EDGES below, written down once).
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

/**
 * The folders of src/ui below the feature folders, lowest first: each may import the ones before it, and the
 * modules directly in src/ui (ids, uris, log, the settings and the loader of bundles), never one after it or a
 * feature folder.
 * - common: editor plumbing every feature uses (prompts, l10n, multi-step input, running a command, failure
 *   wording, alert wording)
 * - model: what the editor knows of the platform, and the one door to it (PlatformClients, platformContract)
 * - connection: profiles, secrets and the live connection, which owns the active profile's PlatformClients
 */
const UI_BASE = ['common', 'model', 'connection'];

/** The feature folders of src/ui: each uses the base folders, and another feature folder only along an edge below. */
const UI_FEATURES = [
  'explorer',
  'commands',
  'files',
  'panels',
  'runtimeTools',
  'localPlatform',
  'diagnostics',
  'testing',
  'assistant',
];

/**
 * The imports allowed between feature folders, each with its reason; any other is an error. `from` may name a
 * folder of panels (panels/chat); `typesOnly` allows only type imports.
 */
const UI_FEATURE_EDGES = [
  { from: 'commands', to: 'explorer', why: "commands take the views' nodes as arguments and refresh the views" },
  {
    from: 'files',
    to: 'explorer',
    why: 'Check Out and the branch commands take Agents view nodes; Source Control opens the read-only remote documents',
  },
  {
    from: 'panels',
    to: 'explorer',
    why: 'the chat, chart and transcript commands open from an agent or deployment node',
  },
  {
    from: 'panels/chat',
    to: 'runtimeTools',
    typesOnly: true,
    why: "the chat playground runs Send External Event for its conversation and names the command's argument and result",
  },
];

/**
 * The client families src/ui reaches only through the model, which makes their reads and writes and tells every view
 * (AgentsModel): outside src/ui/model/ nothing imports their client module (src/client/<family>.ts), not even for a
 * type, nor the model's `<family>ClientOf.ts`, the one way from the clients src/ui holds to that family's client.
 */
const THROUGH_MODEL = ['agents'];

const ui = (folder) => `(^|/)src/ui/${folder}/`;
const uiAny = (folders) => `(^|/)src/ui/(${folders.join('|')})/`;

/** The rules of UI_BASE: each base folder imports only the base folders below it. */
function uiBaseRules() {
  return UI_BASE.map((folder, i) =>
    never(
      `ui-${folder}-below-features`,
      ui(folder),
      `(^|/)src/ui/(?!${UI_BASE.slice(0, i + 1)
        .map((f) => `${f}/`)
        .join('|')})[^/]+/`,
      i === 0
        ? `src/ui/${folder} is the lowest folder of src/ui: it imports no other.`
        : `src/ui/${folder} may import only ${UI_BASE.slice(0, i).join(' and ')} of the folders of src/ui.`,
    ),
  );
}

/** The rules of UI_FEATURES and UI_FEATURE_EDGES: a feature folder imports another only along a written edge. */
function uiFeatureRules() {
  const rules = [];
  for (const folder of UI_FEATURES) {
    const edges = UI_FEATURE_EDGES.filter((e) => e.from.split('/')[0] === folder);
    const whole = edges.filter((e) => e.from === folder && !e.typesOnly).map((e) => e.to);
    const narrow = edges.filter((e) => e.from !== folder || e.typesOnly);
    const others = UI_FEATURES.filter((f) => f !== folder && !whole.includes(f));
    const plain = others.filter((f) => !narrow.some((e) => e.to === f));
    if (plain.length > 0)
      rules.push(
        never(
          `ui-${folder}-apart`,
          ui(folder),
          uiAny(plain),
          `src/ui/${folder} may not import these feature folders: only the edges of UI_FEATURE_EDGES are allowed.`,
        ),
      );
    for (const edge of narrow) {
      const from = edge.from.replace('/', '-');
      const comment = `only src/ui/${edge.from} may import src/ui/${edge.to}${edge.typesOnly ? ', and only types' : ''}: ${edge.why}.`;
      // From the rest of the folder: not at all.
      if (edge.from !== folder)
        rules.push({
          name: `ui-${edge.to}-only-from-${from}`,
          severity: 'error',
          comment,
          from: { path: ui(folder), pathNot: ui(edge.from) },
          to: { path: ui(edge.to) },
        });
      // From the folder the edge names: types only, where the edge says so.
      if (edge.typesOnly)
        rules.push({
          name: `ui-${from}-${edge.to}-types-only`,
          severity: 'error',
          comment,
          from: { path: ui(edge.from) },
          to: { path: ui(edge.to), dependencyTypesNot: ['type-only', 'type-import'] },
        });
    }
  }
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'no import cycle, not even through a type: a module is read before the modules it imports, and a folder is above the folders it imports.',
      from: { path: '(^|/)(src|webview)/' },
      to: { circular: true },
    },
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
      'lint-below-ui',
      layer('lint'),
      `${ROOT}(client|localPlatform|ui|cli|protocol)/|${ROOT}extension\\.ts$`,
      'the checks of agent folders run in the editor and on the command line alike: core, contract and the file layout of workspace only.',
    ),
    never(
      'cli-headless',
      layer('cli'),
      `${ROOT}ui/|${ROOT}extension\\.ts$`,
      'the command line runs without VS Code: it may use every layer but ui.',
    ),
    never(
      'agentTests-headless',
      layer('agentTests'),
      `${ROOT}(ui|localPlatform|workspace)/|${ROOT}extension\\.ts$`,
      'conversation tests run in the editor and on the command line: they use core, contract and client only.',
    ),
    never(
      'agentTests-above-client',
      `${ROOT}(core|contract|client|workspace|localPlatform|protocol)/`,
      layer('agentTests'),
      'conversation tests are above the client: the layers below them do not run tests.',
    ),
    never(
      'assistantTools-headless',
      layer('assistantTools'),
      `${ROOT}(ui|localPlatform|cli|protocol)/|${ROOT}extension\\.ts$`,
      'the assistant tools serve the editor and the command line alike: they reach the platform, the folders and the engines through their ToolContext, and import types of the layers below.',
    ),
    never(
      'assistantTools-above-engines',
      `${ROOT}(core|contract|client|workspace|localPlatform|protocol|lint|agentTests)/`,
      layer('assistantTools'),
      'the assistant tools are above the client, the file mirror and the engines: only ui and cli use them.',
    ),
    never('nothing-imports-cli', `${ROOT}(?!cli/)`, layer('cli'), 'the command line is the top of the headless side.'),
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
    never(
      'ui-root-below-folders',
      '(^|/)src/ui/[^/]+\\.ts$',
      '(^|/)src/ui/[^/]+/',
      'the modules directly in src/ui (ids, uris, log, settings, loaders) are below every folder of src/ui.',
    ),
    ...uiBaseRules(),
    ...uiFeatureRules(),
    {
      name: 'ui-alerts-writes-in-model',
      severity: 'error',
      comment:
        'the alerts model makes every write of alert rules and webhook endpoints (it keeps what the platform answered and forgets what changed) and holds their reads: the rest of src/ui calls the model, never the Alerts API client.',
      from: { path: '(^|/)src/ui/', pathNot: ui('model') },
      to: { path: '(^|/)src/client/alerts\\.ts$' },
    },
    never(
      'ui-clients-through-model',
      '(^|/)src/ui/(?!model/)',
      `${ROOT}client/(${THROUGH_MODEL.join('|')})\\.ts$|${ui('model')}(${THROUGH_MODEL.join('|')})ClientOf\\.ts$`,
      `src/ui reads and writes ${THROUGH_MODEL.join(', ')} through the profile's model (src/ui/model/), which keeps what a platform that cannot list it needs and tells every view.`,
    ),
    never(
      'ui-each-panel-apart',
      '(^|/)src/ui/panels/([^/]+)/',
      '(^|/)src/ui/panels/(?!$2/)[^/]+/',
      'a panel (panels/chat, panels/transcripts ...) may use the panel host, not another panel.',
    ),
    never(
      'ui-panel-host-below-panels',
      '(^|/)src/ui/panels/[^/]+\\.ts$',
      '(^|/)src/ui/panels/[^/]+/',
      'the panel host (panelHost, viewPanel, directChannel) is below the panels built on it.',
    ),
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
