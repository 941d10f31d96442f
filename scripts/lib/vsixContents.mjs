// What a .vsix holds, read from its zip directory without an unzip tool: for the packaged extension's
// end-to-end test and the bundle size benchmark, which check the same facts.
import { readFileSync, statSync } from 'node:fs';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

/** Every entry name of the archive at `file`, in the order the archive lists them. */
export function zipEntries(file) {
  const zip = readFileSync(file);
  // The end record is the last 22 bytes, unless an archive comment (at most 64 KB) follows it.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  const names = [];
  for (let p = zip.readUInt32LE(end + 16), i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== DIRECTORY_ENTRY) throw new Error(`${file}: the zip directory is damaged`);
    const nameLength = zip.readUInt16LE(p + 28);
    names.push(zip.toString('utf8', p + 46, p + 46 + nameLength));
    p += 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return names;
}

/**
 * The facts a package is checked on: its size, the source maps in it (there should be none) and the
 * local platform bundles (there should be one, serving the command line and the editor). dist/cli.js
 * only dispatches: it requires dist/localPlatform.js for the commands that start the platform.
 */
export function vsixFacts(file) {
  const names = zipEntries(file);
  return {
    bytes: statSync(file).size,
    maps: names.filter((n) => n.endsWith('.map')),
    localPlatformBundles: names.filter((n) => /^extension\/dist\/localPlatform[^/]*\.js$/.test(n)),
  };
}
