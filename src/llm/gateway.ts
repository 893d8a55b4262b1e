import { reasoningTokensOf } from './reasoning-tokens';
import type OpenAI from 'openai';
import { type APIError, APIConnectionTimeoutError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { type AgentRole, ConfigError } from '../config/config';
import type { Logger } from '../logging/logger';
import { isTransientEsError } from '../es/client';
import { type CachedLlmAnswer, type CanonicalLlmRequest, type LlmCache, llmRequestHash, type PaidSpend } from './cache';
import { fitToContext, type FittedPrompt } from './context-budget';
import { ContextWindows } from './context-window';
import { capabilitiesOf, type ModelCapabilities, sentTokenCap } from './capabilities';
import {
  contextTokensOf,
  isContextOverflow,
  LlmCacheMissError,
  LlmContextExceededError,
  LlmInvalidInputError,
  LlmOutputInvalidError,
  LlmParameterRefusedError,
  redactSecrets,
  refusedParameterOf,
} from './errors';
import { type LlmEndpoint, openAiClient } from './openai-client';
import { costOf, type PriceTable } from './prices';
import type { RequestGate } from './request-pacer';
import { bodyFor, messagesFor, rejectsResponseFormat } from './response-format';
import { jsonSchemaOf, parseStructuredOutput, RAW_EXCERPT_CHARS } from './structured-output';
import type { SamplingSettings } from '../shared/sampling';
import type { ChatMessage, LlmTaskResult, LlmUsage, ResponseFormat } from './types';
import { type ChatCallRecorder, traceCachedChat, traceChatCall } from '../telemetry/chat-span';
import type { ChatCallRequest, ChatCallResponse } from '../telemetry/gen-ai-attributes';
import type { BatchCompletion } from './batch/batch-lines';
import { BatchClient } from './batch/batch-client';

export type { LlmEndpoint } from './openai-client';
export type { BatchCompletion } from './batch/batch-lines';

export interface LlmGatewayOptions {
  endpoint: LlmEndpoint;
  /** The endpoint's identity in cache keys (config-identity.ts); default: an OpenAI-compatible endpoint at `endpoint.baseUrl`. */
  endpointIdentity?: { provider: string; baseUrl?: string };
  models: Record<AgentRole, string>;
  temperature: number;
  seed: number;
  timeoutMs: number;
  prices: PriceTable;
  cache?: LlmCache;
  logger?: Logger;
  /** Model of `embed` for passages (VERITY_EMBEDDING_MODEL). */
  embeddingModel?: string;
  /** Model of `embed` for queries (VERITY_EMBEDDING_QUERY_MODEL); defaults to `embeddingModel`. */
  embeddingQueryModel?: string;
  /** Vector length requested from models that can shorten theirs (VERITY_EMBEDDING_DIMS); else the model's own. */
  embeddingDimensions?: number;
  /** A separate embeddings server (VERITY_EMBEDDING_BASE_URL); defaults to `endpoint`. */
  embeddingEndpoint?: LlmEndpoint;
  /** Spaces chat requests to VERITY_LLM_RPS for all machines together (cache hits are not paced). */
  pacer?: RequestGate;
  /** The models' context window in tokens (VERITY_LLM_CONTEXT_TOKENS); unset: asked from the server (context-window.ts). */
  contextTokens?: number;
  /** Per model id, the reasoning allowance (task cap × this) over the capability table's (capabilities.ts). */
  reasoningMultipliers?: Record<string, number>;
}

/** Asymmetric embedding models (e5, bge) embed search queries and the passages they find differently. */
export type EmbedInput = 'query' | 'passage';

export interface EmbedOptions {
  /** Vector length to request and check (the index's dense_vector dims). */
  dimensions?: number;
  /** Default 'passage'. */
  input?: EmbedInput;
  /** Another embedding model than the configured one (e.g. Tool-MAD's relevanceEmbeddingModel). */
  model?: string;
  signal?: AbortSignal;
}

/** Texts per embeddings request; OpenAI accepts up to 2,048 inputs, smaller batches keep requests light. */
export const EMBED_BATCH_SIZE = 128;
const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface CompletionRequest<T> {
  role: AgentRole;
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  /** The schema sent (json_schema, or in the prompt) when narrower than `schema`, which validates the answer. */
  sentSchema?: z.ZodType;
  schemaName: string;
  promptVersion: string;
  /** Overrides the model configured for the role (e.g. a sweep over models). */
  model?: string;
  /**
   * Aborts waiting (for the request pacer, a context-window probe), e.g. the activity's cancellation
   * signal. A request already sent is paid for: it finishes (within the client's timeout) and is cached.
   */
  signal?: AbortSignal;
  /** The workflow making the call, recorded with its cached answer (see LlmCache.paidSpendOf). */
  paidBy?: string;
  /** The method's sampling for this call; unset values are the worker's (temperature, seed) or the provider's. */
  sampling?: SamplingSettings;
  /** Ask without response_format and read the answer as `{ text }` (task `answer: 'text'`). */
  plainText?: boolean;
}

/** Counts since the gateway was created, for callers that report health or cost. */
export interface LlmGatewayCounters {
  requests: number;
  cacheHits: number;
  /** Answers that were not JSON, did not match the schema, or were cut off. */
  invalidOutputs: number;
  /** Answers cut off at max_tokens (finish_reason length); also counted in invalidOutputs. */
  cutOffAnswers: number;
  /** Per model, requests moved on to a fallback form (json_object, prompt) after the server rejected the one before. */
  responseFormatFallbacks: Record<string, Partial<Record<ResponseFormat, number>>>;
  /** Answered prompts whose evidence was trimmed to fit the model's context window. */
  promptsTrimmed: number;
  embeddingRequests: number;
  embeddingTokens: number;
}

interface RawAnswer {
  content: string | null;
  /** 'length' when the answer was cut off at max_tokens. */
  finishReason?: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** Of completionTokens, the reasoning (usage.completion_tokens_details.reasoning_tokens), when the server says. */
  reasoningTokens?: number;
  /** Of promptTokens, those served from the provider's prompt cache (usage.prompt_tokens_details.cached_tokens). */
  cachedPromptTokens?: number;
  /** The cost the endpoint reported itself (e.g. OpenRouter's `usage.cost`), if any. */
  reportedCostUsd?: number;
}

/** Endpoints that price their calls say so in the usage; it wins over the price table. */
const reportedCostSchema = z.object({ cost: z.number().nonnegative() });

/**
 * Structured chat completions against any OpenAI-compatible endpoint: per-role model,
 * zod-validated JSON output, usage and cost, and the Elasticsearch request cache.
 * Never retries; Temporal does (see errors.ts).
 */
export class LlmGateway {
  readonly counters: LlmGatewayCounters = {
    requests: 0,
    cacheHits: 0,
    invalidOutputs: 0,
    cutOffAnswers: 0,
    responseFormatFallbacks: {},
    promptsTrimmed: 0,
    embeddingRequests: 0,
    embeddingTokens: 0,
  };
  private readonly client: OpenAI;
  private readonly embeddingClient: OpenAI;
  private readonly contextWindows: ContextWindows;
  private readonly unpricedModelsWarned = new Set<string>();
  /** Per model, what a server's 400 taught beyond the capability table (adapted once, then kept). */
  private readonly learned = new Map<string, Partial<ModelCapabilities>>();

  constructor(private readonly options: LlmGatewayOptions) {
    this.client = openAiClient(options.endpoint, options.timeoutMs);
    this.contextWindows = new ContextWindows({ ...options.endpoint, timeoutMs: options.timeoutMs, configured: options.contextTokens, logger: options.logger });
    this.embeddingClient = options.embeddingEndpoint ? openAiClient(options.embeddingEndpoint, options.timeoutMs) : this.client;
  }

  /** The endpoint's files + batches API (the batch lane). */
  batchClient(): BatchClient {
    return new BatchClient(this.client);
  }

  get baseUrl(): string {
    return this.options.endpoint.baseUrl;
  }

  /** Creates the request-cache index up front, so concurrent first calls do not race to create it. */
  async prepare(): Promise<void> {
    await this.options.cache?.ensureIndex();
  }

  modelFor(role: AgentRole): string {
    return this.options.models[role];
  }

  /** One structured answer, from the request cache or the endpoint, traced as a "chat <model>" span (telemetry/chat-span.ts). */
  async complete<T>(request: CompletionRequest<T>): Promise<LlmTaskResult<T>> {
    const prepared = this.prepared(request);
    return traceChatCall(chatCallOf(prepared), [this.options.endpoint.apiKey], (recorder) => this.completePrepared(request, prepared, recorder));
  }

  private async completePrepared<T>(request: CompletionRequest<T>, prepared: ReturnType<LlmGateway['prepared']>, recorder: ChatCallRecorder): Promise<LlmTaskResult<T>> {
    const started = Date.now();
    const { cache } = this.options;
    const hit = await this.fromCache(prepared, request.schema, started);
    if (hit) {
      recorder.answered(cachedChatResponse(hit));
      return hit;
    }
    if (cache?.mode === 'replay') throw new LlmCacheMissError(prepared.requestHash);

    const answer = await this.requestAnswer(prepared.canonical, request.signal);
    return this.settled(request, prepared, answer, started, {}, recorder);
  }

  /**
   * A request for the batch lane: its cached answer, or its hash and the chat-completions body to
   * put in a batch (json_schema, fitted to the context window: a batch cannot fall back per request).
   */
  async batchRequest<T>(request: CompletionRequest<T>): Promise<{ cached: LlmTaskResult<T> } | { requestHash: string; body: ChatCompletionCreateParamsNonStreaming }> {
    const started = Date.now();
    const prepared = this.prepared(request);
    const hit = await this.fromCache(prepared, request.schema, started);
    if (hit) return { cached: hit };
    if (this.options.cache?.mode === 'replay') throw new LlmCacheMissError(prepared.requestHash);
    const format: ResponseFormat = prepared.canonical.plainText ? 'text' : 'json_schema';
    const prompt = this.fitted(prepared.canonical, format, await this.contextWindows.of(prepared.canonical.model, request.signal));
    return { requestHash: prepared.requestHash, body: bodyFor(prepared.canonical, format, prompt.messages, this.capabilitiesOf(prepared.canonical.model)) };
  }

  /** A batch's answer to `request` (a chat completion), validated, priced at the batch price and cached as a direct answer is. */
  async batchAnswer<T>(request: CompletionRequest<T>, completion: BatchCompletion, submittedAt: number): Promise<LlmTaskResult<T>> {
    const answer: RawAnswer & { responseFormat: ResponseFormat } = {
      content: completion.choices[0]?.message.content ?? null,
      finishReason: completion.choices[0]?.finish_reason ?? undefined,
      model: completion.model,
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
      ...reasoningTokensOf(completion.usage, completion.choices[0]?.message, completion.usage?.completion_tokens ?? 0),
      ...reportedCostOf(completion.usage),
      responseFormat: request.plainText ? 'text' : 'json_schema',
    };
    return this.settled(request, this.prepared(request), answer, submittedAt, { batch: true });
  }

  /** A paid answer validated, counted and cached. */
  private async settled<T>(
    request: CompletionRequest<T>,
    prepared: ReturnType<LlmGateway['prepared']>,
    answer: RawAnswer & { responseFormat: ResponseFormat; promptNote?: string },
    started: number,
    options: { batch?: boolean } = {},
    recorder?: ChatCallRecorder,
  ): Promise<LlmTaskResult<T>> {
    const { canonical, requestHash, base } = prepared;
    const usage = this.usageOf(answer, options);
    recorder?.answered({
      model: answer.model,
      inputTokens: usage.promptTokens,
      outputTokens: usage.completionTokens,
      costUsd: usage.costUsd,
      cacheHit: false,
      ...(answer.finishReason ? { finishReason: answer.finishReason } : {}),
      content: answer.content,
    });
    if (answer.finishReason === 'length') this.counters.cutOffAnswers++;
    if (answer.finishReason === 'length' && !canonical.plainText) {
      throw withPaidCall(this.invalid(cutOffError(answer, canonical, this.capabilitiesOf(canonical.model))), answer, usage, base);
    }
    const output = this.paidValidated(canonical.plainText ? { ...answer, content: JSON.stringify({ text: answer.content ?? '' }) } : answer, usage, request.schema, base);
    await this.record(requestHash, {
      output,
      usage,
      model: answer.model,
      schemaName: request.schemaName,
      promptVersion: request.promptVersion,
      createdAt: new Date().toISOString(),
      messages: canonical.messages,
      rawResponse: answer.content ?? '',
      ...(request.paidBy ? { paidBy: request.paidBy } : {}),
    });
    const { responseFormat, promptNote } = answer;
    const first = this.capabilitiesOf(canonical.model).responseFormats[0];
    const planned = first !== undefined && first !== 'json_schema' ? { firstResponseFormat: first } : {};
    return { ...base, output, usage, cached: false, latencyMs: Date.now() - started, responseFormat, ...planned, ...(promptNote ? { promptNote } : {}) };
  }

  /**
   * The answer `complete` would serve from the request cache, without asking the endpoint or waiting
   * for the request pacer; undefined when there is none (or the cached output no longer validates,
   * which `complete` then reports).
   */
  async cachedAnswer<T>(request: CompletionRequest<T>): Promise<LlmTaskResult<T> | undefined> {
    const started = Date.now();
    try {
      const prepared = this.prepared(request);
      const hit = await this.fromCache(prepared, request.schema, started);
      if (hit) traceCachedChat(chatCallOf(prepared), cachedChatResponse(hit), started, [this.options.endpoint.apiKey]);
      return hit;
    } catch (err) {
      if (err instanceof LlmOutputInvalidError) return undefined;
      throw err;
    }
  }

  /** The canonical request (everything that determines the answer), its hash and the result fields that follow from it. */
  private prepared<T>(request: CompletionRequest<T>) {
    const temperature = request.sampling?.temperature ?? this.options.temperature;
    const { topP, maxTokens, repeat } = request.sampling ?? {};
    // A sweep's repeat r ≥ 1 samples with seed + r and names itself in the request: never the cached answer of another repeat.
    const seed = (request.sampling?.seed ?? this.options.seed) + (repeat ?? 0);
    const optional = { ...(topP !== undefined ? { topP } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
    const model = request.model ?? this.modelFor(request.role);
    const canonical: CanonicalLlmRequest = {
      endpoint: this.options.endpointIdentity ?? { provider: 'openai-compatible', baseUrl: this.options.endpoint.baseUrl },
      model,
      messages: request.messages,
      schemaName: request.schemaName,
      jsonSchema: jsonSchemaOf(request.sentSchema ?? request.schema),
      temperature,
      seed,
      ...optional,
      ...(repeat ? { repeat } : {}),
      ...(request.plainText ? { plainText: true as const } : {}),
      promptVersion: request.promptVersion,
    };
    const requestHash = llmRequestHash(canonical);
    return { canonical, requestHash, base: { model, temperature, seed, ...optional, promptVersion: request.promptVersion, requestHash } };
  }

  private async fromCache<T>(prepared: ReturnType<LlmGateway['prepared']>, schema: z.ZodType<T>, started: number): Promise<LlmTaskResult<T> | undefined> {
    const hit = await this.options.cache?.get(prepared.requestHash);
    if (!hit) return undefined;
    const parsed = schema.safeParse(hit.output);
    if (!parsed.success) {
      // A damaged or hand-edited entry is the cache's fault, not the model's: a miss, paid again and overwritten.
      this.options.logger?.warn({ requestHash: prepared.requestHash }, 'cached LLM answer does not match the task schema; treating it as a miss');
      return undefined;
    }
    this.counters.cacheHits++;
    const output = parsed.data;
    // Nothing was paid for this answer: the tokens are reported, the cost is not.
    return { ...prepared.base, output, usage: { ...hit.usage, costUsd: 0 }, cached: true, latencyMs: Date.now() - started };
  }

  /** What the calls paid by these workflows (and their children) cost, from the request cache; zeros without one. */
  async paidSpendOf(workflowIds: readonly string[]): Promise<Record<string, PaidSpend>> {
    const none = Object.fromEntries(workflowIds.map((id) => [id, { calls: 0, tokens: 0, costUsd: 0 }]));
    return this.options.cache ? await this.options.cache.paidSpendOf(workflowIds) : none;
  }

  /**
   * Caches a paid answer. With Elasticsearch unavailable the answer is still returned (Temporal
   * records it): failing here would pay for the same call again on the retry.
   */
  private async record(requestHash: string, answer: CachedLlmAnswer): Promise<void> {
    try {
      await this.options.cache?.put(requestHash, answer);
    } catch (err) {
      if (!isTransientEsError(err)) throw err;
      this.options.logger?.warn({ requestHash, err: (err as Error).message }, 'could not cache a paid LLM answer (Elasticsearch unavailable); returning it anyway');
    }
  }

  /**
   * Embeddings of `texts`, in order, batched by EMBED_BATCH_SIZE. Not cached (cheap and
   * deterministic per model); tokens are counted in `counters.embeddingTokens`.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.some((text) => text.trim() === '')) throw new LlmInvalidInputError('cannot embed an empty text');
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += EMBED_BATCH_SIZE) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + EMBED_BATCH_SIZE), options)));
    }
    return vectors;
  }

  /** The embedding model for queries or passages. */
  embeddingModelFor(input: EmbedInput = 'passage'): string {
    const passageModel = this.options.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
    return input === 'query' ? (this.options.embeddingQueryModel ?? passageModel) : passageModel;
  }

  private async embedBatch(input: string[], { signal, input: kind, model: requestedModel, ...options }: EmbedOptions): Promise<number[][]> {
    const model = requestedModel ?? this.embeddingModelFor(kind);
    // The configured dimensions are the index's; another model's vectors (only compared with each other) keep their own.
    const dimensions = options.dimensions ?? (requestedModel ? undefined : this.options.embeddingDimensions);
    this.counters.embeddingRequests++;
    try {
      const response = await this.embeddingClient.embeddings.create({ model, input, ...(dimensions ? { dimensions } : {}) }, { signal });
      this.counters.embeddingTokens += response.usage?.total_tokens ?? 0;
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      if (vectors.length !== input.length) throw new LlmOutputInvalidError(`embeddings endpoint returned ${vectors.length} vectors for ${input.length} texts`, model, '');
      const wrong = dimensions === undefined ? undefined : vectors.find((vector) => vector.length !== dimensions);
      if (wrong) throw new ConfigError(`embedding model ${model} returned ${wrong.length} dimensions, the index expects ${dimensions}`);
      return vectors;
    } catch (err) {
      if (err instanceof Error) err.message = redactSecrets(err.message, (this.options.embeddingEndpoint ?? this.options.endpoint).apiKey);
      throw err;
    }
  }

  /** Validates a paid answer; an invalid one carries the call's usage and identity, so the workflow still counts it. */
  private paidValidated<T>(answer: RawAnswer, usage: LlmUsage, schema: z.ZodType<T>, base: ReturnType<LlmGateway['prepared']>['base']): T {
    try {
      return this.validated(answer.content, schema, base.model);
    } catch (err) {
      throw err instanceof LlmOutputInvalidError ? withPaidCall(err, answer, usage, base) : err;
    }
  }

  private validated<T>(content: string | null, schema: z.ZodType<T>, model: string): T {
    try {
      return parseStructuredOutput(content, schema, model);
    } catch (err) {
      throw err instanceof LlmOutputInvalidError ? this.invalid(err) : err;
    }
  }

  /** Counts and logs an invalid answer. */
  private invalid(err: LlmOutputInvalidError): LlmOutputInvalidError {
    this.counters.invalidOutputs++;
    this.options.logger?.warn({ model: err.model, excerpt: err.rawExcerpt }, err.message);
    return err;
  }

  /**
   * Asks in the best form the server takes (response-format.ts): a form it rejects is followed by
   * the next at once, for this request only, and counted per model. Each form's prompt is fitted
   * to the model's context window first (context-budget.ts).
   */
  private async requestAnswer(request: CanonicalLlmRequest, signal?: AbortSignal): Promise<RawAnswer & { responseFormat: ResponseFormat; promptNote?: string }> {
    const contextTokens = await this.contextWindows.of(request.model, signal);
    const formats: readonly ResponseFormat[] = request.plainText ? ['text'] : this.capabilitiesOf(request.model).responseFormats;
    for (const [index, format] of formats.entries()) {
      const prompt = this.fitted(request, format, contextTokens);
      try {
        const answer = await this.sendAdapted(request, format, prompt.messages, signal);
        if (prompt.note) this.counters.promptsTrimmed++;
        return { ...answer, responseFormat: format, ...(prompt.note ? { promptNote: prompt.note } : {}) };
      } catch (err) {
        const next = formats[index + 1];
        if (isContextOverflow(err)) throw contextOverflowError(err, request.model, contextTokens);
        if (!next || !rejectsResponseFormat(err)) throw err;
        this.countFallback(request.model, next);
        this.options.logger?.warn({ model: request.model, rejected: format, next, err: (err as Error).message }, `server rejected response_format ${format}; asking this request with ${next}`);
      }
    }
    throw new Error('unreachable: the last response format is never skipped');
  }

  /** The model's row of the capability table, with what its server taught (`learned`) and the configured reasoning allowance. */
  capabilitiesOf(model: string): ModelCapabilities {
    return { ...capabilitiesOf(model, this.options.reasoningMultipliers), ...this.learned.get(model) };
  }

  /**
   * Sends the request built from the capability table. A 400 naming a parameter the table did not
   * foresee is adapted once when a safe rule exists (max_tokens → max_completion_tokens: the same cap,
   * under the name the server asks for), and is otherwise a configuration error naming the parameter
   * and the model (LlmParameterRefusedError): the same request would be refused for every claim.
   */
  private async sendAdapted(request: CanonicalLlmRequest, format: ResponseFormat, messages: ChatMessage[], signal?: AbortSignal): Promise<RawAnswer> {
    try {
      return await this.send(bodyFor(request, format, messages, this.capabilitiesOf(request.model)), signal);
    } catch (err) {
      const parameter = refusedParameterOf(err);
      if (parameter === undefined || rejectsResponseFormat(err)) throw err;
      const message = redactSecrets((err as Error).message.replace(/^LLM endpoint \S+: /, ''), this.options.endpoint.apiKey);
      const adapted = this.adapt(request.model, parameter, message);
      if (!adapted) throw new LlmParameterRefusedError(request.model, parameter, message);
      this.options.logger?.warn({ model: request.model, parameter }, `server refused '${parameter}'; asking with ${adapted} from now on`);
      try {
        return await this.send(bodyFor(request, format, messages, this.capabilitiesOf(request.model)), signal);
      } catch (again) {
        const refused = refusedParameterOf(again);
        if (refused === undefined || rejectsResponseFormat(again)) throw again;
        throw new LlmParameterRefusedError(request.model, refused, redactSecrets((again as Error).message.replace(/^LLM endpoint \S+: /, ''), this.options.endpoint.apiKey));
      }
    }
  }

  /** The safe rules: what changed, or undefined when `parameter` has none (or it was applied already). */
  private adapt(model: string, parameter: string, message: string): string | undefined {
    const current = this.capabilitiesOf(model);
    if (parameter === 'max_tokens' && current.tokenParameter === 'max_tokens' && /max_completion_tokens/.test(message)) {
      this.learned.set(model, { ...this.learned.get(model), tokenParameter: 'max_completion_tokens' });
      return 'max_completion_tokens';
    }
    if (parameter === 'max_completion_tokens' && current.tokenParameter === 'max_completion_tokens' && /max_tokens/.test(message)) {
      this.learned.set(model, { ...this.learned.get(model), tokenParameter: 'max_tokens' });
      return 'max_tokens';
    }
    return undefined;
  }

  private fitted(request: CanonicalLlmRequest, format: ResponseFormat, contextTokens: number | undefined): FittedPrompt {
    const messages = messagesFor(request, format);
    if (contextTokens === undefined) return { messages };
    const prompt = fitToContext(messages, { model: request.model, contextTokens, maxTokens: request.maxTokens });
    if (prompt.note) this.options.logger?.info({ model: request.model, format }, prompt.note);
    return prompt;
  }

  private countFallback(model: string, format: ResponseFormat): void {
    const perModel = (this.counters.responseFormatFallbacks[model] ??= {});
    perModel[format] = (perModel[format] ?? 0) + 1;
  }

  private async send(body: ChatCompletionCreateParamsNonStreaming, signal?: AbortSignal): Promise<RawAnswer> {
    await this.options.pacer?.acquire(signal);
    // Cancelled before it was sent: nothing is paid, so nothing is sent.
    signal?.throwIfAborted();
    this.counters.requests++;
    this.options.logger?.debug({ model: body.model, baseUrl: this.baseUrl }, 'llm request');
    try {
      // Not aborted by `signal`: once sent, the call is paid whether or not its answer is awaited.
      const completion = await this.client.chat.completions.create(body);
      return {
        content: completion.choices[0]?.message.content ?? null,
        finishReason: completion.choices[0]?.finish_reason ?? undefined,
        model: completion.model || body.model,
        promptTokens: completion.usage?.prompt_tokens ?? 0,
        completionTokens: completion.usage?.completion_tokens ?? 0,
        ...reasoningTokensOf(completion.usage, completion.choices[0]?.message, completion.usage?.completion_tokens ?? 0),
        ...cachedPromptTokensOf(completion.usage),
        ...reportedCostOf(completion.usage),
      };
    } catch (err) {
      if (err instanceof Error) err.message = `LLM endpoint ${this.baseUrl}: ${redactSecrets(describeRequestError(err, this.options.timeoutMs), this.options.endpoint.apiKey)}`;
      throw err;
    }
  }

  private usageOf(answer: RawAnswer, options: { batch?: boolean } = {}): LlmUsage {
    if (answer.reportedCostUsd !== undefined) {
      const { promptTokens, completionTokens, reportedCostUsd } = answer;
      return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, ...reasoningOf(answer), costUsd: reportedCostUsd, priced: true };
    }
    const cachedPromptTokens = answer.cachedPromptTokens ?? 0;
    const { costUsd, priced } = costOf(answer.model, answer.promptTokens, answer.completionTokens, this.options.prices, { ...options, cachedPromptTokens });
    // An empty table (the simulator's) prices nothing on purpose: nothing to warn about.
    const expectsPrice = Object.keys(this.options.prices).length > 0;
    if (!priced && expectsPrice && !this.unpricedModelsWarned.has(answer.model)) {
      this.unpricedModelsWarned.add(answer.model);
      this.options.logger?.warn({ model: answer.model }, 'model has no price in the price table; its cost is reported as 0');
    }
    // Reasoning tokens are part of completion_tokens: priced as output, never twice.
    const { promptTokens, completionTokens } = answer;
    return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, ...reasoningOf(answer), costUsd, priced };
  }
}

/** What a "chat <model>" span records of the request. */
function chatCallOf(prepared: ReturnType<LlmGateway['prepared']>): ChatCallRequest {
  const { canonical, base } = prepared;
  return { provider: canonical.endpoint.provider, messages: canonical.messages, ...base };
}

function cachedChatResponse(hit: LlmTaskResult): ChatCallResponse {
  return { model: hit.model, inputTokens: hit.usage.promptTokens, outputTokens: hit.usage.completionTokens, costUsd: 0, cacheHit: true, content: JSON.stringify(hit.output) };
}


const cachedUsageSchema = z.object({ prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative() }) });

/** usage.prompt_tokens_details.cached_tokens (OpenAI's prompt caching), when the server says. */
function cachedPromptTokensOf(usage: unknown): { cachedPromptTokens?: number } {
  const parsed = cachedUsageSchema.safeParse(usage);
  return parsed.success && parsed.data.prompt_tokens_details.cached_tokens > 0 ? { cachedPromptTokens: parsed.data.prompt_tokens_details.cached_tokens } : {};
}

function reasoningOf(answer: RawAnswer): { reasoningTokens?: number } {
  return answer.reasoningTokens !== undefined ? { reasoningTokens: answer.reasoningTokens } : {};
}

function reportedCostOf(usage: unknown): { reportedCostUsd?: number } {
  const parsed = reportedCostSchema.safeParse(usage);
  return parsed.success ? { reportedCostUsd: parsed.data.cost } : {};
}

/** The SDK's "Request timed out." says neither how long nor which setting: say both. */
function describeRequestError(err: Error, timeoutMs: number): string {
  if (err instanceof APIConnectionTimeoutError) return `no answer within ${timeoutMs} ms (VERITY_LLM_TIMEOUT_MS)`;
  return err.message;
}


/** A server's own "prompt too long" answer, as one line naming the window (never retried). */
function contextOverflowError(err: APIError, model: string, knownWindow: number | undefined): LlmContextExceededError {
  const window = contextTokensOf(err) ?? knownWindow;
  const named = window !== undefined ? ` (${window} tokens)` : '';
  return new LlmContextExceededError(`the prompt is longer than ${model}'s context window${named}, the server says: ${err.message}`, model, window);
}

/** An answer that ended at max_tokens (finish_reason length): invalid, whatever it contains. */
/** An invalid answer that was paid for carries the call's usage and identity, so the workflow counts it. */
function withPaidCall(err: LlmOutputInvalidError, answer: RawAnswer, usage: LlmUsage, base: ReturnType<LlmGateway['prepared']>['base']): LlmOutputInvalidError {
  const { promptTokens, completionTokens, totalTokens, costUsd } = usage;
  const { temperature, seed, promptVersion, requestHash } = base;
  err.paidCall = { model: answer.model, temperature, seed, promptVersion, requestHash, promptTokens, completionTokens, totalTokens, costUsd };
  return err;
}

function cutOffError(answer: RawAnswer, request: CanonicalLlmRequest, capabilities: ModelCapabilities): LlmOutputInvalidError {
  const sent = request.maxTokens !== undefined ? sentTokenCap(request.maxTokens, capabilities) : undefined;
  const allowance = sent !== undefined && sent !== request.maxTokens ? ` (the task's ${request.maxTokens} × reasoning allowance ${capabilities.reasoningMultiplier})` : '';
  const limit = sent !== undefined ? `${capabilities.tokenParameter} ${sent}${allowance}` : "the server's length limit (no max_tokens was sent)";
  const reasoning = answer.reasoningTokens ? `, ${answer.reasoningTokens} of them reasoning` : '';
  const excerpt = (answer.content ?? '').slice(0, RAW_EXCERPT_CHARS);
  const after = answer.completionTokens > 0 ? ` after ${answer.completionTokens} tokens${reasoning}` : '';
  return new LlmOutputInvalidError(`${answer.model}'s answer was cut off at ${limit}${after} (finish_reason length)`, answer.model, excerpt);
}
