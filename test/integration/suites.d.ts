/** The suites of this folder, listed by the bundler (see esbuild.mjs). */
declare module 'integration-suites' {
  export const suites: Record<string, () => Promise<unknown>>;
  export const benchSuites: Record<string, () => Promise<unknown>>;
}
