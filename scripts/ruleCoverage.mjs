// Counts which rules of the platform specification (shared/spec/rules.md) the tests check: a test
// checks a rule when its title carries the rule's id in brackets, e.g. `[MSG-18] ...`.
//   node scripts/ruleCoverage.mjs [path/to/rules.md]   (default: ../shared/spec/rules.md)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const rulesFile = resolve(process.argv[2] ?? join('..', 'shared', 'spec', 'rules.md'));
if (!existsSync(rulesFile)) {
  // Counting against nothing would report 0 of 0 and pass: a missing rules file is a failure.
  console.error(
    `No rules file at ${rulesFile}: the spec's rules (shared/spec/rules.md beside the project) are needed to count coverage.`,
  );
  process.exit(1);
}
const ids = [...readFileSync(rulesFile, 'utf8').matchAll(/^- ([A-Z]+-\d+) /gm)].map((m) => m[1]);
if (ids.length === 0) {
  console.error(`${rulesFile} lists no rule ids (lines like "- MSG-18 ..."): nothing to count against.`);
  process.exit(1);
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(test|spec)\.(ts|mjs)$/.test(p) ? [p] : [];
  });
}

const tests = new Map();
for (const file of files('test')) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/\[([A-Z]+-\d+)\]/g)) {
    if (!tests.has(m[1])) tests.set(m[1], new Set());
    tests.get(m[1]).add(file);
  }
}
const covered = ids.filter((id) => tests.has(id));
const missing = ids.filter((id) => !tests.has(id));
const byFamily = new Map();
for (const id of ids) {
  const fam = id.split('-')[0];
  const f = byFamily.get(fam) ?? { all: 0, covered: 0 };
  f.all += 1;
  if (tests.has(id)) f.covered += 1;
  byFamily.set(fam, f);
}
for (const [fam, f] of byFamily) console.log(`${fam.padEnd(6)} ${String(f.covered).padStart(3)} / ${f.all}`);
console.log(`\n${covered.length} of ${ids.length} rules are checked by at least one test.`);
if (missing.length) console.log(`Not checked: ${missing.join(', ')}`);
process.exit(missing.length ? 1 : 0);
