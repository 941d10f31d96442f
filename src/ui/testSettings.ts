import * as vscode from 'vscode';

/** The settings of conversation tests (package.json `agentWorkbench.tests.*`). */
export const TESTS_SECTION = 'agentWorkbench.tests';

const DEFAULT_INCLUDE = '**/tests/*.yaml';

/**
 * Where conversation test files are, as a glob of the workspace (setting `agentWorkbench.tests.include`): the Testing
 * view lists these files and the assistant tools run them.
 */
export function testFilesInclude(): string {
  return vscode.workspace.getConfiguration(TESTS_SECTION).get<string>('include', DEFAULT_INCLUDE) || DEFAULT_INCLUDE;
}
