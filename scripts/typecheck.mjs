// npm run typecheck: the extension's TypeScript project, then the webview project (browser libraries).
// The webview project is skipped only while webview/ holds no TypeScript at all (tsc would stop with
// "No inputs were found"), so an empty folder does not read as a type error.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function hasTypeScript(dir) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? name !== 'node_modules' && hasTypeScript(p) : p.endsWith('.ts');
  });
}

function tsc(project) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit'], {
    stdio: 'inherit',
  });
  return r.status === 0;
}

let ok = tsc('tsconfig.json');
if (hasTypeScript('webview')) ok = tsc('webview/tsconfig.json') && ok;
else console.log('webview/ has no TypeScript yet: webview/tsconfig.json skipped');
process.exit(ok ? 0 : 1);
