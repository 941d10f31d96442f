import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The extension host's memory, in MB: the JavaScript heap in use after a full collection, and the resident set. */
export interface HostMemory {
  heapMB: number;
  rssMB: number;
}

let collect: (() => void) | undefined;

/**
 * The memory of the process the suites run in (the extension host, which every extension shares), after a full
 * garbage collection, so two readings compare what is kept rather than when the collector last ran. The collector
 * is reached through V8's `--expose-gc`, set at run time for a fresh context.
 */
export async function hostMemory(): Promise<HostMemory> {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  // Twice, with a turn of the event loop between: what the first frees may let a second free more.
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const m = process.memoryUsage();
  return { heapMB: m.heapUsed / 2 ** 20, rssMB: m.rss / 2 ** 20 };
}
