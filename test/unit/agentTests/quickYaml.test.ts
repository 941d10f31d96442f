// The quick reader of test files' YAML gives the values and places the `yaml` library gives, and leaves to the
// library every text beyond the plain subset it reads.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocument } from 'yaml';
import { readQuickYaml } from '../../../src/agentTests/quickYaml';
import { fromYaml, mapToJS, type YNode } from '../../../src/agentTests/yamlNodes';

/** A node as plain data: kind, place, value, children, and a mapping's plain values. */
function shape(node: YNode | null): unknown {
  if (node === null) return null;
  const place = [node.start, node.end];
  if (node.kind === 'scalar') return { place, value: Object.is(node.value, -0) ? '-0' : node.value };
  if (node.kind === 'seq') return { place, items: node.items.map(shape) };
  if (node.kind === 'map')
    return { place, pairs: node.items.map((p) => [shape(p.key), shape(p.value)]), js: mapToJS(node) };
  return { place, other: true };
}

function libraryShape(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  assert.deepEqual(doc.errors, []);
  assert.deepEqual(doc.warnings, []);
  return shape(fromYaml(doc.contents));
}

const QUICK = [
  // As the playground and the transcript viewer write them, and as people do by hand.
  `agent: ag_support
cases:
  - name: Opening hours
    tags: [sandbox, smoke]
    integration_attributes: { caller: vip, level: 3, vip: true, note: ~ }
    repeat: 3
    required_pass_rate: 0.66
    turns:
      - contains: Hello
      - user: What are your opening hours?   # the usual question
        metadata: { channel: web, ids: [1, 2], nested: { a: -0 } }
        contains: [Monday, "Saturday", 'nine o''clock']
        not_contains: sorry
        matches: /open .* from \\d+am/i
        handoff: none
        end: false
        max_latency_ms: 2000

  # A case about people
  - name: "A person \\u00e9\\x41\\t\\"quoted\\""
    turns:
    - user: I want to speak to a person
      handoff: { destination: human-support-queue, reason: The user asked }
`,
  'cases:\n  - name: x\n    turns:\n      - user: a#b http://x.y/z 12:30 a, b [c]\n        reference: 0x1F\n',
  'cases:\n- name: 1.5e3\n  turns:\n  - user: .inf\n    contains: [TRUE, Null, 0o17, +3, .5]\n',
  'a: x',
];
// The same with CRLF line breaks, as a Windows checkout has them.
QUICK.push(...QUICK.map((text) => text.replace(/\n/g, '\r\n')));

test('the quick reader gives the values and places of the yaml library', () => {
  for (const text of QUICK) {
    const quick = readQuickYaml(text);
    assert.ok(quick, text);
    assert.deepStrictEqual(shape(quick.root), libraryShape(text), text);
  }
});

test('texts beyond the quick subset, or that the library reports, are left to the library', () => {
  const beyond = [
    'a: 1\rb: 2\n',
    '---\na: 1\n',
    'a:\n\tb: 1\n',
    'a: |\n  block\n',
    'a: &x 1\nb: *x\n',
    'a: !!str 3\n',
    'a: "two\n  lines"\n',
    'a: one\n  more\n',
    'a: 1\na: 2\n',
    'a:\nb: 1\n',
    'a: b: c\n',
    'a: [b,\n  c]\n',
    'a: [b, ]\n',
    'a: "unclosed\n',
    'a: "\\q"\n',
    'a: x\n  # deeper comment\nb: y\n',
    '- a\n- b\n',
    'just text\n',
    '',
    '? complex\n: key\n',
  ];
  for (const text of beyond) assert.equal(readQuickYaml(text), undefined, JSON.stringify(text));
});
