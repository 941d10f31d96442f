import { expected, MATRIX_OPERATIONS, RETRIES } from './faultMatrix';
import { FAULT_PLACES, type FaultPlace, placeResult, placesFor } from './faultPlaces';
import { FAULT_KINDS, FAULT_LABEL, FAULT_MEANING } from './faults';

/**
 * The generated parts of docs/reliability.md ("Faults"): the faults, the editor's places and the client's operations
 * under each, and their counts, from the same tables the suites run. test/unit/reliabilityDoc.test.ts keeps the
 * document equal to them (AGENT_WORKBENCH_WRITE_DOCS=1 writes them into it).
 */

/** The markers around each generated block. */
export const BLOCKS = ['faults', 'editor', 'client', 'figures'] as const;
export type Block = (typeof BLOCKS)[number];

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const header = (cells: readonly string[]): string[] => [row(cells), row(cells.map(() => '---'))];

function faultsTable(): string {
  return [
    ...header(['Fault', 'What the local platform does']),
    ...FAULT_KINDS.map((k) => row([FAULT_LABEL[k], FAULT_MEANING[k]])),
  ].join('\n');
}

function editorTable(): string {
  const at = (p: FaultPlace): string => `${p.label}${p.assumed ? ' *' : ''}`;
  return [
    ...header(['Place', 'Tells by', 'Request', ...FAULT_KINDS.map((k) => FAULT_LABEL[k])]),
    ...FAULT_PLACES.map((p) => row([at(p), p.shows, `\`${p.request}\``, ...FAULT_KINDS.map((k) => placeResult(p, k))])),
  ].join('\n');
}

/** A cell of the client's table: requests sent, and what the caller is told. */
function clientCell(op: (typeof MATRIX_OPERATIONS)[number], k: (typeof FAULT_KINDS)[number]): string {
  const e = expected(op, k);
  const told =
    e.outcome === 'answered'
      ? 'answered'
      : e.outcome === 'acceptedUnreadable'
        ? e.says.some((r) => r.source.includes('may have been done'))
          ? 'may be done'
          : 'done, unreadable'
        : e.says.some((r) => r.source.includes('may have been done'))
          ? 'may be done'
          : 'failed';
  const was =
    e.carriedOut === undefined || e.outcome === 'answered' || told === 'failed'
      ? ''
      : e.carriedOut === false
        ? ' (was not)'
        : ' (was)';
  return `${e.attempts}× ${told}${was}`;
}

function clientTable(): string {
  return [
    ...header(['Family', 'Operation', 'Repeats', ...FAULT_KINDS.map((k) => FAULT_LABEL[k])]),
    ...MATRIX_OPERATIONS.map((op) =>
      row([
        op.family,
        `${op.name} (${op.role}, ${op.rules}${op.assumed ? ', *' : ''})`,
        op.repeat === 'safe' ? 'itself' : op.repeatsAfterRefusal ? 'after a refusal' : 'never',
        ...FAULT_KINDS.map((k) => clientCell(op, k)),
      ]),
    ),
  ].join('\n');
}

function figures(): string {
  const faults = FAULT_KINDS.length;
  const ops = MATRIX_OPERATIONS.length;
  const opsSpecOnly = MATRIX_OPERATIONS.filter((o) => !o.assumed).length;
  const places = FAULT_PLACES.length;
  const placesSpecOnly = placesFor('spec-only').length;
  const writes = FAULT_PLACES.filter((p) => p.kind === 'write').length;
  const keeps = FAULT_PLACES.filter((p) => p.keeps).length;
  const writeOps = MATRIX_OPERATIONS.filter((o) => o.repeat === 'once').length;
  const total = 2 * ops * faults + opsSpecOnly * faults + places * faults + placesSpecOnly * faults;
  return [
    ...header(['', 'Faults injected', 'Parts of `npm test`']),
    row([
      'Client: operations × faults',
      `${ops} × ${faults} = **${ops * faults}** against the full and the spec-minimal platform, ${opsSpecOnly} × ${faults} = **${opsSpecOnly * faults}** against the spec-only one (no call status there)`,
      'unit, unit (spec-minimal), unit (spec-only)',
    ]),
    row([
      'Editor: places × faults',
      `${places} × ${faults} = **${places * faults}** against the full platform, ${placesSpecOnly} × ${faults} = **${placesSpecOnly * faults}** against the spec-only one (the places on endpoints the spec shows)`,
      'integration, integration (spec-only)',
    ]),
    row(['In all', `**${total}** faults injected by one \`npm test\``, '']),
    row([
      'Sent twice',
      `**none**: ${writeOps} operations and ${writes} places write; each write is counted in the platform's request log and sent at most once (a messaging session again only after a refusal)`,
      '',
    ]),
    row([
      'Lost',
      `**nothing**: in the ${keeps} places where the person types (the chat box, a rule typed step by step), what was typed is there after every failed write`,
      '',
    ]),
    row([
      'Left loading',
      `**nothing**: every place ended within 20 s of the fault's own wait (10 s for the slow answer); a read is sent at most ${1 + RETRIES} times`,
      '',
    ]),
  ].join('\n');
}

/** The text of a block, without its markers. */
export function block(name: Block): string {
  switch (name) {
    case 'faults':
      return faultsTable();
    case 'editor':
      return editorTable();
    case 'client':
      return clientTable();
    case 'figures':
      return figures();
  }
}

/** The markers of a block: `<!-- faults:NAME -->` and `<!-- /faults:NAME -->`. */
export function markers(name: Block): [string, string] {
  return [`<!-- faults:${name} -->`, `<!-- /faults:${name} -->`];
}

/** The document with every generated block as the tables say (a block missing from it is an error). */
export function withBlocks(doc: string): string {
  let out = doc;
  for (const name of BLOCKS) {
    const [open, close] = markers(name);
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/reliability.md has no block ${open} … ${close}`);
    out = `${out.slice(0, start + open.length)}\n${block(name)}\n${out.slice(end)}`;
  }
  return out;
}
