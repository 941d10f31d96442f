// package.json's language model tools, made from the assistant tools' definitions (src/assistantTools/catalog.ts), so
// the editor contributes exactly the tools it registers, with the same descriptions and input schemas as over MCP:
//   node --import tsx scripts/languageModelTools.ts   rewrites contributes.languageModelTools and their strings
// test/unit/ui/languageModelTools.test.ts fails when package.json or package.nls.json differ from what this makes.
import { readFileSync, writeFileSync } from 'node:fs';
import { ASSISTANT_TOOLS } from '../src/assistantTools/catalog';
import type { AssistantTool, ToolKind } from '../src/assistantTools/tool';

/** One entry of `contributes.languageModelTools`, as VS Code 1.100 reads it. */
export interface LanguageModelToolEntry {
  name: string;
  toolReferenceName: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: AssistantTool['inputSchema'];
}

const PREFIX = 'agentWorkbench_';

const ICONS: Record<ToolKind, string> = { read: '$(search)', act: '$(play)', change: '$(cloud-upload)' };

/** The key of a tool's string in package.nls.json. */
export function stringKey(tool: AssistantTool, field: 'displayName' | 'userDescription'): string {
  return `languageModelTools.${tool.name.slice(PREFIX.length)}.${field}`;
}

/** The first sentence of a description: what a person reads in the tool picker. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** The entries and their strings for every assistant tool, in the catalog's order. */
export function languageModelTools(tools: readonly AssistantTool[] = ASSISTANT_TOOLS): {
  entries: LanguageModelToolEntry[];
  strings: Record<string, string>;
} {
  const strings: Record<string, string> = {};
  const entries = tools.map((tool) => {
    strings[stringKey(tool, 'displayName')] = tool.title;
    strings[stringKey(tool, 'userDescription')] = firstSentence(tool.description);
    return {
      name: tool.name,
      // `#agentWorkbench_pull` in a chat prompt: the tool's own name, unique among every extension's tools.
      toolReferenceName: tool.name,
      displayName: `%${stringKey(tool, 'displayName')}%`,
      userDescription: `%${stringKey(tool, 'userDescription')}%`,
      modelDescription: tool.description,
      canBeReferencedInPrompt: true,
      icon: ICONS[tool.kind],
      tags: ['agent-workbench', tool.kind],
      inputSchema: tool.inputSchema,
    };
  });
  return { entries, strings };
}

function main(): void {
  const { entries, strings } = languageModelTools();
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: Record<string, unknown> };
  manifest.contributes.languageModelTools = entries;
  writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
  const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
  const others = Object.entries(nls).filter(([key]) => !key.startsWith('languageModelTools.'));
  writeFileSync('package.nls.json', `${JSON.stringify({ ...Object.fromEntries(others), ...strings }, null, 2)}\n`);
  console.log(`package.json contributes ${entries.length} language model tools.`);
}

if (require.main === module) main();
