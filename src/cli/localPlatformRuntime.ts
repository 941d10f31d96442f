// The local platform and the subcommands that start it (serve, test, compare, mcp; merge-reports, which shares test's
// reporters) as their own bundle,
// dist/localPlatform.js. dist/cli.js requires it when one of them runs, or when it is required as a library
// (startLocalPlatform), so `lint` starts without compiling them: see cliCommandBundles in esbuild.mjs.
export { serve } from '../localPlatform/serveCommand';
export { startLocalPlatform } from '../localPlatform/server';
export { compareCommand } from './compareCommand';
export { mcpCommand } from './mcpCommand';
export { mergeReportsCommand } from './mergeReports';
export { testCommand } from './testCommand';
