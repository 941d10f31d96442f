import type * as Diff3 from 'node-diff3' with { 'resolution-mode': 'import' };

// node-diff3 ships CommonJS for require() but only ES module typings: take the types from those.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { diff3Merge } = require('node-diff3') as typeof Diff3;

/** The lines that open, divide and close a conflicting region, as git writes them (VS Code's merge editor reads them). */
export const MARKER = { yours: '<<<<<<< Yours', divider: '=======', platform: '>>>>>>> Platform' } as const;

/** Whether a text holds a line that opens a conflicting region. */
export function hasConflictMarkers(text: string): boolean {
  return /^<{7}( |$)/m.test(text);
}

/**
 * The three-way line merge of a file with each region both sides changed differently written between markers
 * (yours, then the platform's); undefined when no region conflicts. The merge editor, opened on a file with
 * markers, starts its result from the base with those regions counted as conflicts.
 */
export function withConflictMarkers(yours: string, base: string, platform: string): string | undefined {
  const regions = diff3Merge(yours.split('\n'), base.split('\n'), platform.split('\n')) as Array<{
    ok?: string[];
    conflict?: { a: string[]; b: string[] };
  }>;
  if (!regions.some((r) => r.conflict)) return undefined;
  const out: string[] = [];
  for (const r of regions) {
    if (r.ok) out.push(...r.ok);
    else if (r.conflict) out.push(MARKER.yours, ...r.conflict.a, MARKER.divider, ...r.conflict.b, MARKER.platform);
  }
  return out.join('\n');
}
