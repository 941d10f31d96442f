import * as path from 'node:path';

const loaded = new Map<string, unknown>();

/**
 * A bundle of dist/ beside this one (client.js, workspace.js, lint.js ...), `require`d the first time it is asked for
 * and kept: the code it holds stays out of activation and of dist/extension.js. `T` is the type of its entry module.
 */
export function lazyBundle<T>(file: string): () => T {
  return () => {
    if (!loaded.has(file)) {
      // A bundle is read when first used: it is not a static import, so esbuild leaves it out of this one.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded.set(file, require(path.join(__dirname, file)));
    }
    return loaded.get(file) as T;
  };
}
