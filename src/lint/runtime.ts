// The checks of agent folders as their own bundle (dist/lint.js: yaml, libphonenumber-js and the rules), loaded the
// first time a checked-out agent's file is opened, so activation stays small. src/ui/lintRuntime.ts loads it, and so
// does `node dist/cli.js lint` (the command itself is here), which then loads nothing else but the libraries' own
// bundles (dist/yaml.js, dist/libphonenumber-js.js: see scripts/lib/sharedLibraries.mjs).
export { LintSession } from './engine';
export { lint } from './lintCommand';
export { DEFAULT_CONFIG, LINT_CONFIG_FILE, parseLintConfig, readSeverities, withSeverities } from './config';
export type { LintConfig } from './config';
export { readAgentFolder, readLintConfig } from './nodeFolder';
export { MAX_FILE_CHARS } from './agentFile';
export type { AgentFileInput } from './agentFile';
export type { Problem, Severity, SeveritySetting } from './problem';
