import { readFileSync } from 'node:fs';
import type { RunModel } from '../agentTests/judging';
import { createModelCalls, type PriceTable } from '../agentTests/model/modelCalls';
import { createOpenAiModel } from '../agentTests/model/openaiModel';
import { type CassetteMode, ModelCallError, type ModelCalls } from '../agentTests/model/types';

/** The only place the command line reads the model endpoint's key from: never a flag, a file or a log. */
export const MODEL_KEY_VARIABLE = 'AGENT_WORKBENCH_MODEL_KEY';
export const CASSETTE_MODES: readonly CassetteMode[] = ['replay', 'record', 'live'];

/** The `--model-*`, `--cassette`, `--max-model-*` and `--prices` flags of `test`. */
export interface ModelFlags {
  readonly baseUrl?: string;
  readonly name?: string;
  readonly cassette: CassetteMode;
  readonly maxCalls?: number;
  readonly maxCost?: number;
  readonly pricesFile?: string;
}

/** A flag that cannot be used as given: the command line says so and exits 2. */
export class ModelFlagError extends Error {}

/** Said in every skipped result of a run given no model. */
export const NO_MODEL_FLAGS = `no model is set: give --model-base-url and --model (the key, if the endpoint needs one, in ${MODEL_KEY_VARIABLE})`;

/** The run's model from the flags: its calls (to flush and count), or why there is none. */
export function modelOfRun(flags: ModelFlags, env: NodeJS.ProcessEnv): { run: RunModel; calls?: ModelCalls } {
  if (flags.baseUrl === undefined || flags.name === undefined) return { run: { none: NO_MODEL_FLAGS } };
  const prices = flags.pricesFile !== undefined ? readPrices(flags.pricesFile) : undefined;
  const key = env[MODEL_KEY_VARIABLE];
  let model;
  try {
    model = createOpenAiModel({ baseUrl: flags.baseUrl, model: flags.name, ...(key ? { key } : {}) });
  } catch (err) {
    if (err instanceof ModelCallError) throw new ModelFlagError(`--model-base-url: ${err.message}`);
    throw err;
  }
  const calls = createModelCalls({
    model,
    mode: flags.cassette,
    ...(prices ? { prices } : {}),
    caps: {
      ...(flags.maxCalls !== undefined ? { maxCalls: flags.maxCalls } : {}),
      ...(flags.maxCost !== undefined ? { maxCost: flags.maxCost } : {}),
    },
  });
  return { run: { calls }, calls };
}

/** A price table: model (id, name or pattern) to the price of a million input and output tokens. */
function readPrices(path: string): PriceTable {
  let table: unknown;
  try {
    table = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw new ModelFlagError(`--prices ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const price = (p: unknown) =>
    typeof p === 'object' &&
    p !== null &&
    typeof (p as { input?: unknown }).input === 'number' &&
    typeof (p as { output?: unknown }).output === 'number';
  if (typeof table !== 'object' || table === null || Array.isArray(table) || !Object.values(table).every(price))
    throw new ModelFlagError(
      `--prices ${path}: a price table is {"<model>": {"input": <per million tokens>, "output": <per million tokens>}}`,
    );
  return table as PriceTable;
}
