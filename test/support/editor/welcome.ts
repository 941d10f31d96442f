import * as fs from 'node:fs';
import * as path from 'node:path';
import { getExtension } from './extension';

export interface Welcome {
  view: string;
  when: string;
  contents: string;
}

/** The welcome contents of package.json, in the words the person reads (package.nls.json). */
export function welcomes(): Welcome[] {
  const root = getExtension().extensionPath;
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { viewsWelcome: Welcome[] };
  };
  const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return manifest.contributes.viewsWelcome.map((w) => ({
    ...w,
    contents: w.contents.replace(/^%(.+)%$/, (_m, key: string) => nls[key] ?? _m),
  }));
}

/** The welcome VS Code shows for a view in a state (connected), or undefined: none shows while the view has a message. */
export function welcomeShown(
  view: 'agents' | 'alerts',
  shown: { state: string; problem?: string; message?: string },
): Welcome | undefined {
  if (shown.message) return undefined;
  return welcomes().find(
    (w) =>
      w.view === `agentWorkbench.${view}` &&
      w.when.includes(`.state == ${shown.state}`) &&
      (!w.when.includes('.problem ==') || w.when.includes(`.problem == ${shown.problem ?? ''}`)),
  );
}

/** The buttons of a welcome content, by their labels. */
export const buttons = (w: Welcome | undefined): string[] =>
  [...(w?.contents ?? '').matchAll(/\[([^\]]+)\]\(command:/g)].map((m) => m[1]!);
