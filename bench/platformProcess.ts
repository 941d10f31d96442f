// The local platform in a child process of a benchmark, as it runs apart from its clients in the product, so
// the clients' work does not share the server's event loop.
import { type ChildProcess, fork } from 'node:child_process';
import { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from '../src/localPlatform/server';

/** Prints one BENCH line for bench/run.mjs, the value rounded to a tenth. */
export function bench(name: string, value: number, unit: string, target?: string): void {
  console.log(
    `BENCH ${JSON.stringify({ name, value: Math.round(value * 10) / 10, unit, ...(target ? { target } : {}) })}`,
  );
}

export interface PlatformProcess {
  readonly urls: LocalPlatform['urls'];
  /** Starts counting the server's CPU time from now. */
  mark(): Promise<void>;
  /** The server's CPU time since the last mark (or its start), in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs the benchmark file twice over: with `--serve` it is the child that runs the local platform with
 * `options`; otherwise it forks that child and runs `main` against it, then stops it.
 * BENCH_CPU_PROF=<dir> writes a CPU profile of the server process there.
 */
export function withPlatformProcess(
  options: LocalPlatformOptions,
  main: (platform: PlatformProcess) => Promise<void>,
): void {
  if (process.argv.includes('--serve')) {
    void serve(options);
    return;
  }
  start()
    .then(async (platform) => {
      try {
        await main(platform);
      } finally {
        await platform.stop();
      }
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}

async function serve(options: LocalPlatformOptions): Promise<void> {
  const lp = await startLocalPlatform(options);
  process.send!({ urls: lp.urls });
  let mark = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'mark') {
      mark = process.cpuUsage();
      process.send!({ marked: true });
    } else if (m === 'cpu') {
      const used = process.cpuUsage(mark);
      process.send!({ cpuMs: (used.user + used.system) / 1000 });
    } else {
      void lp.close().then(() => process.exit(0));
    }
  });
}

async function start(): Promise<PlatformProcess> {
  const server = fork(process.argv[1]!, ['--serve'], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
  });
  const { urls } = await new Promise<{ urls: LocalPlatform['urls'] }>((resolve, reject) => {
    server.once('message', (m) => resolve(m as { urls: LocalPlatform['urls'] }));
    server.once('error', reject);
  });
  return {
    urls,
    mark: () => ask(server, 'mark').then(() => undefined),
    cpuMs: () => ask<{ cpuMs: number }>(server, 'cpu').then((r) => r.cpuMs),
    stop: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.send('stop');
      await exited;
    },
  };
}

function ask<T>(server: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    server.once('message', (m) => resolve(m as T));
    server.send(message);
  });
}
