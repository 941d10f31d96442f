/**
 * The names of the language model tools package.json contributes. VS Code takes an implementation only for a
 * contributed name, so the editor registers exactly these (test/unit/ui/languageModelTools.test.ts checks they are the
 * assistant tools' names), and activation needs none of the tools' code.
 */
export function contributedToolNames(packageJSON: unknown): string[] {
  const tools = (packageJSON as { contributes?: { languageModelTools?: unknown } }).contributes?.languageModelTools;
  if (!Array.isArray(tools)) return [];
  return tools.map((t: unknown) => (t as { name?: unknown }).name).filter((n): n is string => typeof n === 'string');
}
