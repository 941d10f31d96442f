// The language model tools package.json contributes are the assistant tools (src/assistantTools/catalog.ts): the same
// names, descriptions and input schemas, with strings for people in package.nls.json. VS Code registers an
// implementation only for a contributed name, and a model calls a tool with the schema package.json declares.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { languageModelTools } from '../../../scripts/languageModelTools';
import { ASSISTANT_TOOLS } from '../../../src/assistantTools/catalog';
import { contributedToolNames } from '../../../src/ui/assistant/contributedTools';

interface Entry {
  name: string;
  toolReferenceName?: string;
  displayName?: string;
  userDescription?: string;
  modelDescription?: string;
  canBeReferencedInPrompt?: boolean;
  inputSchema?: unknown;
  tags?: string[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { languageModelTools?: Entry[] } };
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
const entries = manifest.contributes.languageModelTools ?? [];
const REGENERATE =
  'run `node --import tsx scripts/languageModelTools.ts` to make package.json from the tool definitions';

test('package.json contributes every assistant tool once, by its name, and nothing else', () => {
  assert.deepEqual(
    entries.map((e) => e.name),
    ASSISTANT_TOOLS.map((t) => t.name),
    REGENERATE,
  );
  assert.deepEqual(
    contributedToolNames(manifest),
    ASSISTANT_TOOLS.map((t) => t.name),
  );
});

test('each contributed tool has the definition’s description and input schema, exactly', () => {
  for (const tool of ASSISTANT_TOOLS) {
    const entry = entries.find((e) => e.name === tool.name);
    assert.ok(entry, `${tool.name} is contributed; ${REGENERATE}`);
    assert.equal(entry.modelDescription, tool.description, `${tool.name}: modelDescription; ${REGENERATE}`);
    assert.deepEqual(entry.inputSchema, tool.inputSchema, `${tool.name}: inputSchema; ${REGENERATE}`);
    assert.ok(entry.tags?.includes(tool.kind), `${tool.name} is tagged ${tool.kind}`);
  }
  assert.deepEqual(entries, languageModelTools().entries, REGENERATE);
});

test('the entries are what VS Code 1.100 accepts, and their strings for people are in package.nls.json', () => {
  const references = new Set<string>();
  for (const entry of entries) {
    // What the workbench's languageModelTools extension point refuses (a tool without these is dropped).
    assert.match(entry.name, /^(?!copilot_|vscode_)[\w-]+$/);
    assert.ok(entry.displayName && entry.modelDescription, `${entry.name} has a displayName and a modelDescription`);
    if (entry.canBeReferencedInPrompt) {
      assert.match(entry.toolReferenceName ?? '', /^[\w-]+$/, `${entry.name} has a toolReferenceName`);
      assert.ok(!references.has(entry.toolReferenceName!), `${entry.toolReferenceName} is one tool's`);
      references.add(entry.toolReferenceName!);
    }
    for (const value of [entry.displayName, entry.userDescription]) {
      const key = /^%(.+)%$/.exec(value ?? '')?.[1];
      assert.ok(key, `${entry.name}: ${value} is a string of package.nls.json`);
      assert.ok(nls[key]?.trim(), `package.nls.json has ${key}`);
    }
  }
  const { strings } = languageModelTools();
  for (const [key, value] of Object.entries(strings)) assert.equal(nls[key], value, `${key}; ${REGENERATE}`);
});
