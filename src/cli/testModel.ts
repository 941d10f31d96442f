import { readFileSync } from 'node:fs';
import type { TestCase } from '../agentTests/format';
import { estimateRun } from '../agentTests/model/estimate';
import { UsageError } from '../core/commandLine';
import type { RunModel } from '../agentTests/judging';
import { createModelCalls, type PriceTable } from '../agentTests/model/modelCalls';
import { createOpenAiModel } from '../agentTests/model/openaiModel';
import { nodeTextFilesIn } from '../agentTests/model/textFiles';
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

/** The model flags, as `test` and `mcp` take them (node:util parseArgs options). */
export const MODEL_OPTIONS = {
  'model-base-url': { type: 'string' },
  model: { type: 'string' },
  cassette: { type: 'string', default: 'replay' },
  'max-model-calls': { type: 'string' },
  'max-model-cost': { type: 'string' },
  prices: { type: 'string' },
} as const;

/** What those flags say, in a command's help. */
export const MODEL_HELP = `  --model-base-url URL  an OpenAI-compatible endpoint (a hosted service, Ollama, llama.cpp, vLLM, LM Studio);
                     its key, if it needs one, is read only from ${MODEL_KEY_VARIABLE}
  --model NAME       the model's name at that endpoint
  --cassette MODE    replay (default): answer from the cassettes beside the test files, call no model;
                     record: call the model and keep its answers; live: call without keeping
  --max-model-calls N, --max-model-cost X
                     the cap: the run stops asking the model there and keeps every result so far
  --prices F         a JSON price table that turns tokens into cost`;

/** The values of those flags, checked: a wrong one is a usage error that says what to give. */
export function modelFlagsOf(values: {
  readonly 'model-base-url'?: string | undefined;
  readonly model?: string | undefined;
  readonly cassette?: string | undefined;
  readonly 'max-model-calls'?: string | undefined;
  readonly 'max-model-cost'?: string | undefined;
  readonly prices?: string | undefined;
}): ModelFlags {
  if ((values['model-base-url'] === undefined) !== (values.model === undefined))
    throw new UsageError('Give both --model-base-url and --model (the endpoint and the model name at it).');
  const cassette = values.cassette ?? 'replay';
  if (!CASSETTE_MODES.includes(cassette as CassetteMode))
    throw new UsageError(`--cassette must be one of ${CASSETTE_MODES.join(', ')}, got "${cassette}"`);
  const calls = values['max-model-calls'];
  if (calls !== undefined && !(Number.isInteger(Number(calls)) && Number(calls) >= 1))
    throw new UsageError(`--max-model-calls must be a whole number of 1 or more, got "${calls}"`);
  const cost = values['max-model-cost'];
  if (cost !== undefined && !(Number(cost) >= 0))
    throw new UsageError(`--max-model-cost must be a number of 0 or more, got "${cost}"`);
  return {
    ...(values['model-base-url'] !== undefined ? { baseUrl: values['model-base-url'] } : {}),
    ...(values.model !== undefined ? { name: values.model } : {}),
    cassette: cassette as CassetteMode,
    ...(calls !== undefined ? { maxCalls: Number(calls) } : {}),
    ...(cost !== undefined ? { maxCost: Number(cost) } : {}),
    ...(values.prices !== undefined ? { pricesFile: values.prices } : {}),
  };
}

/** A flag that cannot be used as given: the command line says so and exits 2. */
export class ModelFlagError extends Error {}

/**
 * The exit code of a run stopped by a wrong command line or model flag (2, with its message on standard error); any
 * other error is thrown on.
 */
export function usageExitCode(err: unknown): number {
  if (!(err instanceof UsageError || err instanceof ModelFlagError)) throw err;
  process.stderr.write(`${err.message}\n`);
  return 2;
}

/** Said in every skipped result of a run given no model. */
export const NO_MODEL_FLAGS = `no model is set: give --model-base-url and --model (the key, if the endpoint needs one, in ${MODEL_KEY_VARIABLE})`;

/** The run's model from the flags: its calls (to flush and count), or why there is none. */
export function modelOfRun(
  flags: ModelFlags,
  env: NodeJS.ProcessEnv,
  root?: string,
): { run: RunModel; calls?: ModelCalls } {
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
    // The cases' files are named relative to the folder the command reads them in: their cassettes too.
    ...(root !== undefined ? { files: nodeTextFilesIn(root) } : {}),
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

/** What an assistant's run through `mcp` is told of its model before it runs: where the answers come from. */
export function modelWords(flags: ModelFlags, cases: readonly TestCase[], modelId: string): string {
  if (flags.cassette === 'replay')
    return 'Judged criteria are answered from the cassettes beside the test files (replay): no model is called.';
  const prices = flags.pricesFile !== undefined ? readPrices(flags.pricesFile) : undefined;
  const e = estimateRun(cases, { modelId, ...(prices ? { prices } : {}) });
  const cost = e.cost !== undefined ? `, about ${e.cost.toFixed(4)} in the price table's currency` : ', no price set';
  const caps = [
    ...(flags.maxCalls !== undefined ? [`${flags.maxCalls} model calls`] : []),
    ...(flags.maxCost !== undefined ? [`a cost of ${flags.maxCost}`] : []),
  ];
  return `This run calls ${modelId} for ${cases.length} judged case(s): about ${e.calls} model calls, ${e.inputTokens} tokens in and ${e.outputTokens} out${cost}. ${caps.length ? `It stops at ${caps.join(' or ')}.` : 'No cap is set (--max-model-calls, --max-model-cost).'}`;
}
