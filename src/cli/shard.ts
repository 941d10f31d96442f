import { createHash } from 'node:crypto';
import { UsageError } from '../core/commandLine';

/** One share of a suite split across machines: shard `index` of `total`, counted from 1 (`--shard 2/4`). */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** Reads `--shard i/n`: whole numbers with 1 <= i <= n. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(index) || !Number.isSafeInteger(total) || total < 1 || index < 1 || index > total)
    throw new UsageError(
      `--shard must be i/n with 1 <= i <= n (for example 2/4), got "${text}"${match && total >= 1 && index > total ? `: there is no shard ${index} of ${total}` : ''}`,
    );
  return { index, total };
}

/**
 * What names a case whatever machine runs it: its file's path relative to the folder the run starts in (with `/`),
 * and its name. A case keeps its shard while other cases come and go.
 */
export function caseIdentity(testCase: { readonly file: string; readonly name: string }): string {
  return `${testCase.file.split('\\').join('/')}\n${testCase.name}`;
}

/** The shard (1 to total) a case lands in: its identity hashed, so each case runs in exactly one shard. */
export function shardOf(identity: string, total: number): number {
  const hash = createHash('sha256').update(identity).digest();
  return (hash.readUInt32BE(0) % total) + 1;
}

/** The cases of one shard, in their order. */
export function casesOfShard<T extends { readonly file: string; readonly name: string }>(
  cases: readonly T[],
  shard: Shard | undefined,
): T[] {
  if (!shard) return [...cases];
  return cases.filter((c) => shardOf(caseIdentity(c), shard.total) === shard.index);
}
