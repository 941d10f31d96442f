/**
 * The one door of a run's model calls: the cassette (replay, record, live), the count of calls, tokens and cost,
 * and the caps. Every judge and simulated-caller call of a run goes through one `RunModelCalls`; a case takes a
 * `scope()` of it to count its own share while the caps hold for the run. Safe with calls running at once: the
 * counts are taken and the cap is checked in one step before a call starts, so four calls at once cannot all
 * slip under a cap of one more call.
 */
import { Cassettes, cassetteKey } from './cassette';
import { nodeTextFiles, type TextFiles } from './textFiles';
import {
  type CassetteMode,
  CassetteMissError,
  type LanguageModel,
  type ModelCallReply,
  type ModelCalls,
  ModelCapError,
  type ModelMessage,
  type ModelPurpose,
  type ModelSpend,
  type TokenUsage,
} from './types';

/** Price per million tokens, in one currency throughout the table. */
export interface Price {
  readonly input: number;
  readonly output: number;
}

/**
 * Prices by model: a key is the model's whole id (`openai:api.openai.com/gpt-4o-mini`), its name alone
 * (`gpt-4o-mini`), or a pattern of either with `*` (`gpt-4o*`, `vscode-lm:copilot/*`). The most specific wins.
 */
export type PriceTable = Readonly<Record<string, Price>>;

export interface ModelCaps {
  /** The most model calls of the run (calls answered from the cassette are free and not counted). */
  readonly maxCalls?: number;
  /** The most the run may spend, in the price table's currency. */
  readonly maxCost?: number;
}

export interface ModelCallsOptions {
  readonly model: LanguageModel;
  readonly mode: CassetteMode;
  readonly prices?: PriceTable;
  readonly caps?: ModelCaps;
  /** Where cassettes are read and written. Default: the real file system. */
  readonly files?: TextFiles;
}

export interface RunModelCalls extends ModelCalls {
  /** A view that counts its own calls (a case's share), sharing the run's cassettes, counts and caps. */
  scope(): ModelCalls;
}

/** The price of a model, or undefined when the table has none. */
export function priceOf(prices: PriceTable | undefined, modelId: string): Price | undefined {
  if (!prices) return undefined;
  const name = modelName(modelId);
  const exact = prices[modelId] ?? prices[name];
  if (exact) return exact;
  let best: { price: Price; specificity: number } | undefined;
  for (const [pattern, price] of Object.entries(prices)) {
    if (!pattern.includes('*')) continue;
    const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    if (!re.test(modelId) && !re.test(name)) continue;
    const specificity = pattern.replace(/\*/g, '').length;
    if (!best || specificity > best.specificity) best = { price, specificity };
  }
  return best?.price;
}

/** What the tokens cost at a price per million. */
export function costOf(price: Price, usage: TokenUsage): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** About a token per four characters: for answers that report no usage, and for estimates. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

class Tally {
  calls = 0;
  replayed = 0;
  inputTokens = 0;
  outputTokens = 0;
  cost = 0;

  add(usage: TokenUsage, cost: number | undefined): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cost += cost ?? 0;
  }

  spend(priced: boolean): ModelSpend {
    return {
      calls: this.calls,
      replayed: this.replayed,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      ...(priced ? { cost: this.cost } : {}),
    };
  }
}

/** The door for one run. */
export function createModelCalls(options: ModelCallsOptions): RunModelCalls {
  const { model, mode } = options;
  const price = priceOf(options.prices, model.id);
  const caps = options.caps ?? {};
  const cassettes = new Cassettes(options.files ?? nodeTextFiles, { fresh: mode === 'record' });
  const run = new Tally();
  /** Calls started and not yet answered, and what their input is thought to cost. */
  let open = 0;
  let openCost = 0;

  function refuseOverCap(messages: readonly ModelMessage[]): number {
    if (caps.maxCalls !== undefined && run.calls + open >= caps.maxCalls) {
      throw new ModelCapError(
        `the cap of ${caps.maxCalls} model call${caps.maxCalls === 1 ? '' : 's'} was reached: raise --max-model-calls (or the setting) to judge the rest`,
      );
    }
    if (caps.maxCost === undefined) return 0;
    if (!price) {
      throw new ModelCapError(
        `a cost cap is set but ${model.id} has no price: add it to the price table (--prices or the setting), 0 for a local model`,
      );
    }
    // What the call will cost is known only once it answers: take its input, or the run's average call if more,
    // so the cap stops before a call that would most likely cross it rather than after.
    const inputCost = costOf(price, { inputTokens: approximateTokens(text(messages)), outputTokens: 0 });
    const expected = Math.max(inputCost, run.calls > 0 ? run.cost / run.calls : 0);
    if (run.cost + openCost + expected > caps.maxCost) {
      throw new ModelCapError(
        `the cost cap of ${caps.maxCost} was reached (${round(run.cost)} spent in ${run.calls} calls): raise --max-model-cost (or the setting) to judge the rest`,
      );
    }
    return expected;
  }

  async function call(
    tallies: readonly Tally[],
    purpose: ModelPurpose,
    file: string,
    messages: readonly ModelMessage[],
    signal?: AbortSignal,
  ): Promise<ModelCallReply> {
    const key = cassetteKey(model.id, purpose, messages);
    if (mode === 'replay') {
      const entry = await cassettes.find(file, key);
      if (!entry) throw new CassetteMissError(file);
      for (const t of tallies) t.replayed++;
      return { text: entry.answer, ...(entry.usage ? { usage: entry.usage } : {}), replayed: true };
    }
    // Checked and counted in one step: no await between them.
    const reserved = refuseOverCap(messages);
    open++;
    openCost += reserved;
    let reply;
    try {
      reply = await model.complete(messages, signal);
    } finally {
      open--;
      openCost -= reserved;
    }
    const usage = reply.usage ?? {
      inputTokens: approximateTokens(text(messages)),
      outputTokens: approximateTokens(reply.text),
    };
    const cost = price ? costOf(price, usage) : undefined;
    for (const t of tallies) {
      t.calls++;
      t.add(usage, cost);
    }
    if (mode === 'record') {
      await cassettes.keep(file, key, {
        model: model.id,
        purpose,
        asked: messages[messages.length - 1]?.content ?? '',
        answer: reply.text,
        ...(reply.usage ? { usage: reply.usage } : {}),
      });
    }
    return { text: reply.text, ...(reply.usage ? { usage: reply.usage } : {}), replayed: false };
  }

  const flush = (): Promise<void> => (mode === 'record' ? cassettes.flush() : Promise.resolve());
  return {
    modelId: model.id,
    mode,
    call: (purpose, file, messages, signal) => call([run], purpose, file, messages, signal),
    spent: () => run.spend(price !== undefined),
    flush,
    scope() {
      const own = new Tally();
      return {
        modelId: model.id,
        mode,
        call: (purpose, file, messages, signal) => call([run, own], purpose, file, messages, signal),
        spent: () => own.spend(price !== undefined),
        flush,
      };
    },
  };
}

function modelName(modelId: string): string {
  const slash = modelId.indexOf('/');
  return slash < 0 ? modelId : modelId.slice(slash + 1);
}

function text(messages: readonly ModelMessage[]): string {
  return messages.map((m) => m.content).join('\n');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function round(n: number): string {
  return n.toFixed(n < 1 ? 4 : 2);
}
