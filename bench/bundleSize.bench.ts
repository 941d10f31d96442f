// Size of what users download: the production extension bundle (loaded at activation) and the .vsix.
// Builds with `npm run package` (production bundles + vsce) and prints two BENCH lines.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

execFileSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
const extensionKb = statSync('dist/extension.js').size / 1024;
const vsixMb = statSync('dist/agent-workbench.vsix').size / 1024 / 1024;
console.log(
  `BENCH ${JSON.stringify({ name: 'dist/extension.js size (production)', value: Math.round(extensionKb * 10) / 10, unit: 'KB', target: '< 400' })}`,
);
console.log(
  `BENCH ${JSON.stringify({ name: '.vsix size', value: Math.round(vsixMb * 1000) / 1000, unit: 'MB', target: '< 2' })}`,
);
