// Size of what users download: the production extension bundle (loaded at activation) and the .vsix,
// made as a person would make it: `npm run package` right after a development build (`npm run build`,
// which leaves source maps in dist/), so a map or a stale bundle that reaches the package shows here.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { vsixFacts } from '../scripts/lib/vsixContents.mjs';

const npm = (script) => execFileSync('npm', ['run', '--silent', script], { stdio: ['ignore', 'ignore', 'inherit'] });
npm('build');
npm('package');
const extensionKb = statSync('dist/extension.js').size / 1024;
const { bytes, maps, localPlatformBundles } = vsixFacts('dist/agent-workbench.vsix');
const figures = [
  {
    name: 'dist/extension.js size (production)',
    value: Math.round(extensionKb * 10) / 10,
    unit: 'KB',
    target: '< 400',
  },
  { name: '.vsix size', value: Math.round((bytes / 1024 / 1024) * 1000) / 1000, unit: 'MB', target: '< 1.6' },
  { name: 'source maps in the .vsix', value: maps.length, unit: 'files', target: '== 0' },
  { name: 'local platform bundles in the .vsix', value: localPlatformBundles.length, unit: 'files', target: '== 1' },
];
for (const figure of figures) console.log(`BENCH ${JSON.stringify(figure)}`);
