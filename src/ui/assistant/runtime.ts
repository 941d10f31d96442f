// The assistant tools (src/assistantTools) and the editor's ToolContext as their own bundle (dist/assistantTools.js),
// loaded the first time a language model tool is prepared or invoked, so activation and dist/extension.js stay without
// them. assistantRuntime.ts loads it; the editor registers the tools by the names package.json contributes.
export { ASSISTANT_TOOLS, describeChange, findTool, invokeTool } from '../../assistantTools/catalog';
export { inputProblem } from '../../assistantTools/validate';
export { EditorToolContext } from './editorToolContext';
