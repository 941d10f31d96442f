// npm test's last part: every secret the runs used (test/support/secretsScan.ts, the one list) is searched for, as
// bytes, in UTF-8 and UTF-16, in all that the integration and end-to-end runs left in .test-output: npm test's own
// output, the hosts' logs, the extension's output channel and the editor's logs, settings, workspace files,
// cassettes, JUnit and SARIF reports, the editor's and the webviews' state (the browser's storage, which is where
// code-server keeps it) and the text of every page and frame. Prints what it searched, place by place, and what
// it found (the secret's name and where, never the secret); exits 1 when something is found, or when a place that
// must be searched is missing.
//   node --import tsx test/host/scanSecrets.ts [--root DIR] [--whole-run]
// --whole-run (npm test) also fails when a place but the screenshots and other files had nothing to search.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { type Finding, NAMED_SECRETS, SECRET_SHAPES, secretsInBytes } from '../support/secretsScan';

const { values: opts } = parseArgs({
  options: { root: { type: 'string', default: '.test-output' }, 'whole-run': { type: 'boolean', default: false } },
});
const root = resolve(opts.root);

/** The places searched, in the order they are printed. */
const PLACES = [
  "npm test's output",
  'test and host logs',
  "the extension's output channel",
  "the editor's logs",
  'settings',
  'workspace files',
  'cassettes',
  'JUnit reports',
  'SARIF reports',
  'editor and webview state',
  "the pages' text",
  'screenshots',
  'other files',
] as const;
type Place = (typeof PLACES)[number];

/** Which place a file (its path below the root, with /) belongs to. */
function placeOf(path: string, head: Buffer): Place {
  const name = path.split('/').at(-1)!;
  if (path.startsWith('parts/')) return "npm test's output";
  if (name === 'pages.txt') return "the pages' text";
  if (
    name === 'browser-storage.json' ||
    /\/User\/(globalStorage|workspaceStorage|History)\//.test(path) ||
    name.endsWith('.vscdb')
  )
    return 'editor and webview state';
  if (/\/logs\//.test(path) && /agent-workbench|Agent Workbench/.test(path)) return "the extension's output channel";
  if (/\/user-data\/logs\//.test(path)) return "the editor's logs";
  if (name.endsWith('.cassette.json')) return 'cassettes';
  if (name.endsWith('.sarif')) return 'SARIF reports';
  if (name.endsWith('.xml') && head.toString('utf8').includes('<testsuite')) return 'JUnit reports';
  if (
    name === 'settings.json' ||
    name.endsWith('.code-workspace') ||
    (name.endsWith('.yaml') && /code-server|config/.test(name))
  )
    return 'settings';
  if (name.endsWith('.png')) return 'screenshots';
  if (/(^|\/)(sandbox\/workspace|kept-by-suites|cli-package(-\d+)?|state\/sample-workspace)\//.test(path))
    return 'workspace files';
  if (/\.(log|tap)$/.test(name) || name === 'results.json' || path.includes('/code-server-home/'))
    return 'test and host logs';
  return 'other files';
}

/**
 * Secrets written on purpose where they are found, each excluded precisely (which secrets, which files) and why.
 * Anything else found fails the run.
 */
const ON_PURPOSE: ReadonlyArray<{ secrets: RegExp; files: RegExp; why: string }> = [
  {
    secrets: /^(local|bella-tavola|northwind-cards) (key|connector) /,
    files: /^e2e\/kept\/start(-\d+)?\/npm-start-output\.txt$/,
    why: "npm start prints the local platform's demo credentials, as the README says (they open only that platform, on loopback); the file is that output, kept",
  },
  {
    secrets: /^local (key|connector) /,
    files:
      /^e2e\/kept\/e2e-vsix(-\d+)?\/sandbox\/extensions\/agent-workbench\.agent-workbench-[^/]+\/dist\/localPlatform\.js$/,
    why: "the local platform ships in the extension with its seeded demo credentials (they open only that platform, on loopback): the package installed from its .vsix holds them in the local platform's bundle, as the source does",
  },
  {
    secrets: /^test key (inPrompt|typedInPrompt)$/,
    files:
      /^(e2e\/kept\/e2e-agent-diagnostics(-\d+)?\/(pages\.txt$|sandbox\/workspace\/)|(e2e\/kept\/e2e-agent-diagnostics(-\d+)?|integration[\w-]*)\/sandbox\/user-data\/User\/History\/)/,
    why: "the agent folder checks write a key into a prompt file on purpose, for the check that flags it (which must not repeat it): it stays in that file, in the editor's local history of the file, and on the page while the editor shows it",
  },
];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    return st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}

const kb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`);

const searched = new Map<Place, { files: number; bytes: number; found: number }>(
  PLACES.map((p) => [p, { files: 0, bytes: 0, found: 0 }]),
);
const found: Array<Finding & { file: string }> = [];
const excused = new Map<string, Set<string>>();
for (const file of filesUnder(root)) {
  const path = relative(root, file).split(sep).join('/');
  const bytes = readFileSync(file);
  const place = placeOf(path, bytes.subarray(0, 512));
  const tally = searched.get(place)!;
  tally.files += 1;
  tally.bytes += bytes.length;
  for (const f of secretsInBytes(bytes)) {
    const excuse = ON_PURPOSE.find((e) => e.secrets.test(f.secret) && e.files.test(path));
    if (excuse) excused.set(excuse.why, (excused.get(excuse.why) ?? new Set()).add(path));
    else {
      tally.found += 1;
      found.push({ ...f, file: path });
    }
  }
}

const total = [...searched.values()].reduce(
  (t, s) => ({ files: t.files + s.files, bytes: t.bytes + s.bytes, found: t.found + s.found }),
  { files: 0, bytes: 0, found: 0 },
);
console.log(`Secrets scan of ${relative(process.cwd(), root) || root}`);
console.log(
  `  secrets: ${NAMED_SECRETS.size} (${[...new Set([...NAMED_SECRETS.keys()].map((n) => n.replace(/ \S+$/, '')))].join(', ')}), and ${SECRET_SHAPES.length} shapes (${SECRET_SHAPES.map((s) => s.name).join(', ')}), each as UTF-8 and UTF-16 bytes`,
);
console.log(`  ${'place'.padEnd(34)} ${'files'.padStart(6)} ${'bytes'.padStart(10)} ${'found'.padStart(6)}`);
for (const [place, s] of searched)
  console.log(
    `  ${place.padEnd(34)} ${String(s.files).padStart(6)} ${kb(s.bytes).padStart(10)} ${String(s.found).padStart(6)}`,
  );
console.log(
  `  ${'all'.padEnd(34)} ${String(total.files).padStart(6)} ${kb(total.bytes).padStart(10)} ${String(total.found).padStart(6)}`,
);
for (const [why, files] of excused) console.log(`  not counted, on purpose (${[...files].join(', ')}): ${why}`);
for (const f of found) console.log(`✖ ${f.secret} (${f.encoding}) in ${f.file} at byte ${f.at}`);
const required = opts['whole-run'] ? PLACES.filter((p) => p !== 'screenshots' && p !== 'other files') : [];
const missing = required.filter((p) => searched.get(p)!.files === 0);
for (const p of missing) console.log(`✖ nothing was searched in ${p}: the runs did not leave it where the scan reads`);
console.log(
  `Secrets searched: ${NAMED_SECRETS.size} and ${SECRET_SHAPES.length} shapes; files: ${total.files}; bytes: ${total.bytes}; found: ${total.found}`,
);
process.exit(found.length > 0 || missing.length > 0 ? 1 : 0);
