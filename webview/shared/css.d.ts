// esbuild bundles style sheets as text (loader '.css': 'text' in esbuild.mjs).
declare module '*.css' {
  const text: string;
  // eslint-disable-next-line no-restricted-syntax -- the shape of a module esbuild makes from a .css file
  export default text;
}
