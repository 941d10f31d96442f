/**
 * Cassettes: the model's answers of a test file, kept beside it (`tests/returns.cassette.json`) and keyed by a
 * hash of the model's id, what the call was for and every message sent, so a replay answers exactly what was
 * asked before and anything changed is a miss. The file is stable and diff-friendly: entries sorted by key, one
 * field order, two-space indent, and an unchanged answer keeps its recording time. It holds no key or header.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { besideTestFile, type TextFiles } from './textFiles';
import type { ModelMessage, ModelPurpose, TokenUsage } from './types';

export const CASSETTE_VERSION = 1;

export interface CassetteEntry {
  readonly model: string;
  readonly purpose: ModelPurpose;
  /** The last message sent (the judge's or the caller's question, with the conversation): for review. */
  readonly asked: string;
  readonly answer: string;
  readonly usage?: TokenUsage;
  /** ISO time of the recording. */
  readonly recorded: string;
}

/** The cassette's path for a test file. */
export function cassettePath(testFile: string): string {
  return besideTestFile(testFile, '.cassette.json');
}

/** The key of a call: the same model, purpose and messages give the same key, and anything else another. */
export function cassetteKey(modelId: string, purpose: ModelPurpose, messages: readonly ModelMessage[]): string {
  const canonical = JSON.stringify([modelId, purpose, messages.map((m) => [m.role, m.content])]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** A cassette that could not be read (a merge conflict left in it, an edit by hand); re-recording rewrites it. */
export class CassetteFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`the cassette ${file} cannot be read (${detail}): re-record it (--cassette record) or restore it from git`);
    this.name = 'CassetteFileError';
  }
}

const entrySchema = z.object({
  model: z.string(),
  purpose: z.enum(['judge', 'caller']),
  asked: z.string(),
  answer: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  recorded: z.string(),
});
const fileSchema = z.object({
  version: z.literal(CASSETTE_VERSION),
  entries: z.record(z.string(), entrySchema),
});

const NOTE =
  'Model answers recorded by Agent Workbench for the judged criteria and simulated callers of the test file beside it. Replayed by default; re-record with --cassette record.';

/** Parses a cassette's text; throws `CassetteFileError` when it is not one. */
export function parseCassette(file: string, text: string): Map<string, CassetteEntry> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CassetteFileError(file, err instanceof Error ? err.message : 'not JSON');
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CassetteFileError(file, `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not a cassette'}`);
  }
  return new Map(Object.entries(parsed.data.entries));
}

/** A cassette's text: sorted keys, fixed field order, a newline at the end. */
export function formatCassette(entries: ReadonlyMap<string, CassetteEntry>): string {
  const sorted: Record<string, CassetteEntry> = {};
  for (const key of [...entries.keys()].sort()) {
    const e = entries.get(key);
    if (!e) continue;
    sorted[key] = {
      model: e.model,
      purpose: e.purpose,
      asked: e.asked,
      answer: e.answer,
      ...(e.usage ? { usage: { inputTokens: e.usage.inputTokens, outputTokens: e.usage.outputTokens } } : {}),
      recorded: e.recorded,
    };
  }
  return `${JSON.stringify({ version: CASSETTE_VERSION, note: NOTE, entries: sorted }, null, 2)}\n`;
}

/**
 * The cassettes of a run: each read once on first use (calls running at once share the read), recorded answers
 * held until `flush` writes the changed ones.
 */
export class Cassettes {
  private readonly loaded = new Map<string, Promise<Map<string, CassetteEntry>>>();
  private readonly changed = new Set<string>();
  private writing: Promise<void> = Promise.resolve();

  /** `fresh`: a cassette that cannot be read starts empty (recording rewrites it) instead of failing. */
  constructor(
    private readonly files: TextFiles,
    private readonly options: { readonly fresh?: boolean; readonly now?: () => Date } = {},
  ) {}

  /** The recorded answer, or undefined when there is none. Throws `CassetteFileError`. */
  async find(testFile: string, key: string): Promise<CassetteEntry | undefined> {
    return (await this.load(cassettePath(testFile))).get(key);
  }

  /** Keeps an answer, to be written by `flush`; an answer already recorded keeps its recording time. */
  async keep(testFile: string, key: string, entry: Omit<CassetteEntry, 'recorded'>): Promise<void> {
    const file = cassettePath(testFile);
    const entries = await this.load(file);
    const old = entries.get(key);
    const same = old !== undefined && old.answer === entry.answer && old.asked === entry.asked;
    if (same && sameUsage(old.usage, entry.usage)) return;
    entries.set(key, { ...entry, recorded: same ? old.recorded : (this.options.now?.() ?? new Date()).toISOString() });
    this.changed.add(file);
  }

  /** Writes every cassette that changed, one write at a time, each atomically. */
  flush(): Promise<void> {
    const run = this.writing.then(async () => {
      for (const file of [...this.changed]) {
        this.changed.delete(file);
        try {
          await this.files.write(file, formatCassette(await this.load(file)));
        } catch (err) {
          this.changed.add(file);
          throw err;
        }
      }
    });
    // A failed write is reported to this flush; the next one tries again.
    this.writing = run.catch(() => undefined);
    return run;
  }

  private load(file: string): Promise<Map<string, CassetteEntry>> {
    let entries = this.loaded.get(file);
    if (!entries) {
      entries = this.files.read(file).then((text) => {
        if (text === undefined) return new Map<string, CassetteEntry>();
        try {
          return parseCassette(file, text);
        } catch (err) {
          if (this.options.fresh) return new Map<string, CassetteEntry>();
          throw err;
        }
      });
      // A failed read is not kept: the next call reads again.
      entries.catch(() => this.loaded.delete(file));
      this.loaded.set(file, entries);
    }
    return entries;
  }
}

function sameUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): boolean {
  return a?.inputTokens === b?.inputTokens && a?.outputTokens === b?.outputTokens;
}
