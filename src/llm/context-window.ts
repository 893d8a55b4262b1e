import { z } from 'zod';
import type { Logger } from '../logging/logger';

/** The window fields OpenAI-compatible servers put on /v1/models entries (llama.cpp, vLLM, OpenRouter). */
const modelEntrySchema = z.object({
  id: z.string(),
  meta: z.object({ n_ctx: z.number().int().positive().optional() }).nullish(),
  max_model_len: z.number().int().positive().optional(),
  context_length: z.number().int().positive().optional(),
});
const modelsSchema = z.object({ data: z.array(z.unknown()) });
const propsSchema = z.object({ default_generation_settings: z.object({ n_ctx: z.number().int().positive() }) });

export interface ContextWindowOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** VERITY_LLM_CONTEXT_TOKENS: wins over what the server says. */
  configured?: number;
  logger?: Logger;
  /** A server that could not be asked is asked again after this long (default 60 s); meanwhile the window is unknown. */
  retryAfterMs?: number;
}

/** Discovery never holds a request up for long: a server that does not answer it is taken as not saying. */
const MAX_DISCOVERY_MS = 10_000;
const DEFAULT_RETRY_AFTER_MS = 60_000;

/**
 * The context window of each model, in tokens: the configured one, else what the server says
 * (GET /v1/models: `meta.n_ctx` (llama.cpp, per slot), `max_model_len` (vLLM), `context_length`
 * (OpenRouter); else llama.cpp's GET /props `default_generation_settings.n_ctx`), asked once per
 * model and kept for the gateway's life (a server that could not be asked: again after retryAfterMs).
 * Undefined when the server does not say (OpenAI).
 */
export class ContextWindows {
  private readonly known = new Map<string, { tokens: Promise<number | undefined>; until?: number }>();

  constructor(private readonly options: ContextWindowOptions) {}

  of(model: string, signal?: AbortSignal): Promise<number | undefined> {
    if (this.options.configured !== undefined) return Promise.resolve(this.options.configured);
    const known = this.known.get(model);
    if (known && (known.until === undefined || Date.now() < known.until)) return known.tokens;
    const entry: { tokens: Promise<number | undefined>; until?: number } = { tokens: Promise.resolve(undefined) };
    entry.tokens = this.ask(model, signal).catch((err: unknown) => {
      // The caller gave up (its call is cancelled): the next call asks again.
      if (signal?.aborted) this.known.delete(model);
      // Unknown for a while (not on every call): the chat request itself reports an outage.
      entry.until = Date.now() + (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
      this.options.logger?.warn({ model, err: (err as Error).message }, 'could not ask the server for the context window; prompts are not budgeted until it answers');
      return undefined;
    });
    this.known.set(model, entry);
    return entry.tokens;
  }

  private async ask(model: string, signal?: AbortSignal): Promise<number | undefined> {
    const fromModels = windowOfModel(await this.getJson(`${this.options.baseUrl.replace(/\/+$/, '')}/models`, signal), model);
    const tokens = fromModels ?? propsSchema.safeParse(await this.getJson(`${serverRoot(this.options.baseUrl)}/props`, signal)).data?.default_generation_settings.n_ctx;
    this.options.logger?.info({ model, contextTokens: tokens ?? 'unknown' }, 'context window of the model, from the server');
    return tokens;
  }

  /** The JSON answer, or undefined for a non-2xx or non-JSON one; throws when the server cannot be reached. */
  private async getJson(url: string, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(Math.min(this.options.timeoutMs, MAX_DISCOVERY_MS));
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) return undefined;
    return response.json().catch(() => undefined);
  }
}

/** The entry named `model`, else the only entry (llama.cpp serves its one model under any name). */
function windowOfModel(answer: unknown, model: string): number | undefined {
  const entries = (modelsSchema.safeParse(answer).data?.data ?? []).flatMap((entry) => {
    const parsed = modelEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  const entry = entries.find((e) => e.id === model) ?? (entries.length === 1 ? entries[0] : undefined);
  return entry?.meta?.n_ctx ?? entry?.max_model_len ?? entry?.context_length;
}

/** llama.cpp serves /props next to /v1, at the server's root. */
function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}
