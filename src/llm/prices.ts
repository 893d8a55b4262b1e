import { z } from 'zod';
import { ConfigError } from '../config/config';
import { MAX_SETTINGS_FILE_BYTES, readInputText } from '../config/input-file';

/** USD per 1M tokens; `batchInput`/`batchOutput` through a provider's batch API (absent: the list price). */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input tokens served from the provider's prompt cache (`usage.prompt_tokens_details.cached_tokens`). */
  cachedInput?: number;
  batchInput?: number;
  batchOutput?: number;
}
export type PriceTable = Record<string, ModelPrice>;

/** OpenAI's Batch API costs half the list price. */
export const OPENAI_BATCH_DISCOUNT = 0.5;

/** List prices of common OpenAI models (USD per 1M tokens) and their batch prices; override with VERITY_PRICES_FILE. */
export const DEFAULT_PRICES: PriceTable = withOpenAiBatchPrices({
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  // Reasoning models: reasoning tokens are part of completion_tokens and billed at the output price.
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
});

/** Where and when the built-in prices were read. */
export interface PriceSource {
  date: string;
  source: string;
}

const OPENAI_PRICING: PriceSource = { date: '2026-11-28', source: 'https://platform.openai.com/docs/pricing' };

/** The source of every DEFAULT_PRICES entry (a unit test keeps the two in step). */
export const PRICE_SOURCES: Record<string, PriceSource> = Object.fromEntries(
  [
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'gpt-4-turbo',
    'gpt-3.5-turbo',
    'gpt-5',
    'gpt-5-mini',
    'gpt-5-nano',
    'o3-mini',
    'o4-mini',
    'text-embedding-3-small',
    'text-embedding-3-large',
  ].map((model) => [model, OPENAI_PRICING]),
);

/**
 * Models the committed sweeps name that have no built-in price, on purpose: open-weight models whose
 * price is their host's (Together, a vLLM or Ollama server of one's own); price them with
 * VERITY_PRICES_FILE. Their cost is reported as unknown (priced: false), never as 0.
 */
export const UNPRICED_ON_PURPOSE: Record<string, string> = {
  'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo': 'open weights; priced by the host (Together)',
  'meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo': 'open weights; priced by the host (Together)',
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': 'open weights; priced by the host (Together)',
  'Qwen/Qwen2.5-7B-Instruct-Turbo': 'open weights; priced by the host (Together)',
  'Qwen/Qwen2.5-72B-Instruct-Turbo': 'open weights; priced by the host (Together)',
  'openai/gpt-oss-20b': 'open weights; priced by the host (vLLM, Ollama, Together)',
  'openai/gpt-oss-120b': 'open weights; priced by the host (vLLM, Ollama, Together)',
  'deepseek-ai/DeepSeek-V3.2': 'open weights; priced by the host',
};

function withOpenAiBatchPrices(table: PriceTable): PriceTable {
  return Object.fromEntries(
    Object.entries(table).map(([model, price]) => [model, { ...price, batchInput: price.input * OPENAI_BATCH_DISCOUNT, batchOutput: price.output * OPENAI_BATCH_DISCOUNT }]),
  );
}

const priceFileSchema = z.record(
  z.string(),
  z.object({
    input: z.number().min(0),
    output: z.number().min(0),
    cachedInput: z.number().min(0).optional(),
    batchInput: z.number().min(0).optional(),
    batchOutput: z.number().min(0).optional(),
  }),
);

/** A table key that prices every model the table does not name. */
export const ANY_MODEL = '*';

/** The local model verity runs itself costs nothing, whatever name it answers under. */
export const LOCAL_PRICES: PriceTable = { [ANY_MODEL]: { input: 0, output: 0 } };

/** True for a URL on this machine (127.0.0.0/8, ::1, localhost, 0.0.0.0). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * The default table, with entries from the JSON file (`{"model": {"input": 1, "output": 2}}`) layered on top.
 * `builtIn: false` leaves out the built-in OpenAI list prices: a server on this machine that serves
 * a model under an OpenAI name is not OpenAI, so only the user's own file prices it.
 */
export function loadPriceTable(file?: string, options: { builtIn?: boolean } = {}): PriceTable {
  const base = options.builtIn === false ? {} : DEFAULT_PRICES;
  if (!file) return { ...base };
  let parsed: unknown;
  try {
    // A UTF-8 byte-order mark (as some editors write) is not JSON.
    parsed = JSON.parse(readInputText(file, MAX_SETTINGS_FILE_BYTES).replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ConfigError(`cannot read prices file ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const result = priceFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')}: ${issue.message})` : '';
    throw new ConfigError(`prices file ${file} must map model ids to {input, output} USD per 1M tokens${where}`);
  }
  return { ...base, ...result.data };
}

export interface Cost {
  costUsd: number;
  /** False when the model is not in the table (cost reported as 0). */
  priced: boolean;
}

/**
 * Exact match first, then the longest table key that prefixes the model id (e.g. dated snapshots).
 * Only the table's own entries count (a model named `constructor` is not Object's), and the id is
 * trimmed (an endpoint's `"gpt-4o-mini\n"` is gpt-4o-mini, not a gpt-4o snapshot).
 */
export function findPrice(model: string, table: PriceTable): ModelPrice | undefined {
  const id = model.trim();
  const own = (key: string) => (Object.hasOwn(table, key) ? table[key] : undefined);
  const exact = own(id);
  if (exact) return exact;
  const prefix = Object.keys(table)
    .filter((key) => id.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? own(prefix) : own(ANY_MODEL);
}

/** The price per 1M tokens of a direct call, or of a call through the batch API (the list price where no batch price is set). */
export function effectivePrice(price: ModelPrice, options: { batch?: boolean } = {}): { input: number; output: number } {
  if (!options.batch) return { input: price.input, output: price.output };
  return { input: price.batchInput ?? price.input, output: price.batchOutput ?? price.output };
}

/**
 * The cost of a call. Completion tokens include any reasoning tokens (billed as output); input tokens
 * the provider served from its prompt cache (`cachedPromptTokens`) cost the cached-input price where
 * the table has one (direct calls only: a batch is priced at its batch price).
 */
export function costOf(
  model: string,
  promptTokens: number,
  completionTokens: number,
  table: PriceTable,
  options: { batch?: boolean; cachedPromptTokens?: number } = {},
): Cost {
  const found = findPrice(model, table);
  if (!found) return { costUsd: 0, priced: false };
  const price = effectivePrice(found, options);
  const cached = !options.batch && found.cachedInput !== undefined ? Math.min(promptTokens, options.cachedPromptTokens ?? 0) : 0;
  const input = (promptTokens - cached) * price.input + cached * (found.cachedInput ?? price.input);
  return { costUsd: (input + completionTokens * price.output) / 1_000_000, priced: true };
}
