import path from 'node:path';
import { MAX_SETTINGS_FILE_BYTES, readInputText } from './input-file';
import YAML from 'yaml';
import { z } from 'zod';
import { modelNameSchema } from '../llm/model-name';
import { type EsConnection, esConnectionFromVariables } from './es-connection';
import { type TemporalConnection, temporalConnectionFromEnv, temporalUiUrl } from './temporal-connection';
import { derivedTaskQueue } from './config-identity';
import { DEFAULT_LOCAL_MODEL, LOCAL_MODEL_NAMES, LOCAL_MODELS, type LocalModelName, localTimeoutMs } from './local-llm';
import { parseWorkerTuning, type WorkerTuning } from '../worker/worker-tuning';
import { DEFAULT_RETRIEVAL_MODE, RETRIEVAL_MODES, type RetrievalMode } from '../shared/retrieval';
import { FACT_CHECK_DOMAINS } from '../search/domain-filter';
import {
  MEMORY_DEDUP_KEYS,
  MEMORY_RECALL_MODES,
  MEMORY_RECALL_TOP_K,
  MEMORY_UPDATE_MODES,
  type MemoryRecallOptions,
  type MemoryUpdateOptions,
} from '../shared/memory';

/**
 * The one configuration of verity: environment variables, optionally layered over a
 * YAML/JSON file named by VERITY_CONFIG_FILE (environment wins). Every variable is listed
 * in .env.example. Read once per process (worker, CLI, tests), never inside workflows.
 */

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalModelName = z.preprocess(emptyToUndefined, modelNameSchema.optional());
const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));
const booleanFlag = z.preprocess(
  (value) => (typeof value === 'string' ? emptyToUndefined(value.trim().toLowerCase()) : value),
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).default('false').transform((flag) => ['true', '1', 'yes'].includes(flag)),
);

export const AGENT_ROLES = ['default', 'judge', 'decomposer', 'executor', 'debater', 'evaluator'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/** Who answers LLM calls (VERITY_LLM): the built-in simulator, the local model verity provisions, or OPENAI_BASE_URL. */
export const LLM_CHOICES = ['simulator', 'local', 'endpoint'] as const;
export type LlmChoice = (typeof LLM_CHOICES)[number];

export const LLM_CACHE_MODES = ['off', 'readwrite', 'replay'] as const;
export type LlmCacheMode = (typeof LLM_CACHE_MODES)[number];

export const WIKI_PROVIDERS = ['index', 'mediawiki'] as const;
export type WikiProviderName = (typeof WIKI_PROVIDERS)[number];

export const WEB_SEARCH_PROVIDERS = ['recorded', 'serper', 'tavily', 'brave', 'searxng', 'searchapi'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

export const PAGE_READERS = ['auto', 'recorded', 'live'] as const;
export type PageReaderName = (typeof PAGE_READERS)[number];

export const WEB_CACHE_MODES = LLM_CACHE_MODES;
export type WebCacheMode = LlmCacheMode;

const nonNegativeInt = (fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(fallback));

/** Comma-separated domains; unset gives `fallback`, `none` gives an empty list. */
function domainList(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  if (value.trim().toLowerCase() === 'none') return [];
  return value.split(',').map((domain) => domain.trim().toLowerCase()).filter((domain) => domain !== '');
}

export const envSchema = z.object({
  VERITY_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.verity')),
  VERITY_LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),

  // Address, namespace, TLS and API key come from temporal-connection.ts (the Temporal CLI's variables and profiles).
  TEMPORAL_TASK_QUEUE: z.preprocess(emptyToUndefined, z.string().default('verity')),
  // Shown as a link: only http(s), never javascript: or data:.
  TEMPORAL_UI_URL: z.preprocess(emptyToUndefined, z.string().url().regex(/^https?:\/\//i, 'an http(s) URL').optional()),
  TEMPORAL_CLI_PATH: optionalString,

  ES_URL: z.preprocess(emptyToUndefined, z.string().url().default('http://127.0.0.1:9200')),
  ES_CLOUD_ID: optionalString,
  ES_API_KEY: optionalString,
  ES_USERNAME: optionalString,
  ES_PASSWORD: optionalString,
  ES_CA_CERT: optionalString,
  ES_CA_FINGERPRINT: optionalString,
  ES_INDEX_PREFIX: z.preprocess(emptyToUndefined, z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).default('verity')),
  ES_JAVA_HOME: optionalString,
  VERITY_ES_HEAP_MB: positiveInt(1024),

  VERITY_LLM: z.preprocess(emptyToUndefined, z.enum(LLM_CHOICES).optional()),
  VERITY_LOCAL_MODEL: z.preprocess(emptyToUndefined, z.enum(LOCAL_MODEL_NAMES).default(DEFAULT_LOCAL_MODEL)),
  VERITY_LOCAL_LLM_SLOTS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** Default: the local model's name with VERITY_LLM=local, else gpt-4o-mini. */
  VERITY_MODEL: optionalModelName,
  VERITY_MODEL_JUDGE: optionalModelName,
  VERITY_MODEL_DECOMPOSER: optionalModelName,
  VERITY_MODEL_EXECUTOR: optionalModelName,
  VERITY_MODEL_DEBATER: optionalModelName,
  VERITY_MODEL_EVALUATOR: optionalModelName,
  VERITY_EMBEDDING_MODEL: optionalString,
  VERITY_EMBEDDING_QUERY_MODEL: optionalString,
  VERITY_EMBEDDING_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  VERITY_EMBEDDING_API_KEY: optionalString,
  VERITY_EMBEDDING_DIMS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  VERITY_RAG_MODE: z.preprocess(emptyToUndefined, z.enum(RETRIEVAL_MODES).default(DEFAULT_RETRIEVAL_MODE)),
  VERITY_TEMPERATURE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(2).default(0)),
  VERITY_SEED: z.preprocess(emptyToUndefined, z.coerce.number().int().default(7)),
  VERITY_LLM_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  VERITY_LLM_CONTEXT_TOKENS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  /** `model=multiplier,…`: the reasoning allowance of those models (task cap × multiplier), over src/llm/capabilities.ts. */
  VERITY_REASONING_MULTIPLIERS: z.preprocess(emptyToUndefined, z.string().optional()).transform((text, context) => parseReasoningMultipliers(text, context)),
  VERITY_RETRY_BUDGET_S: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  VERITY_PROGRESS_INTERVAL_S: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(86_400).default(15)),
  VERITY_LLM_CACHE: z.preprocess(emptyToUndefined, z.enum(LLM_CACHE_MODES).default('readwrite')),
  VERITY_PRICES_FILE: optionalString,
  VERITY_LLM_RPS: z.preprocess(emptyToUndefined, z.coerce.number().positive().default(10)),
  VERITY_LLM_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  VERITY_LLM_AIMD_INTERVAL_MS: positiveInt(5_000),
  VERITY_WORKER_TUNING: z.preprocess(emptyToUndefined, z.string().optional()).transform((text, ctx) => {
    try {
      return parseWorkerTuning(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),

  VERITY_MEMORY_RECALL_MODE: z.preprocess(emptyToUndefined, z.enum(MEMORY_RECALL_MODES).default('substring')),
  VERITY_MEMORY_TOP_K: positiveInt(MEMORY_RECALL_TOP_K),
  VERITY_MEMORY_SIMILARITY_THRESHOLD: z.preprocess(emptyToUndefined, z.coerce.number().min(-1).max(1).default(0.5)),
  VERITY_MEMORY_UPDATE_MODE: z.preprocess(emptyToUndefined, z.enum(MEMORY_UPDATE_MODES).default('endOfClaim')),
  VERITY_MEMORY_DEDUP: z.preprocess(emptyToUndefined, z.enum(MEMORY_DEDUP_KEYS).default('toolArgs')),
  VERITY_MEMORY_STORE_INVALID: booleanFlag,
  VERITY_MEMORY_FROZEN: booleanFlag,

  VERITY_WIKI_PROVIDER: z.preprocess(emptyToUndefined, z.enum(WIKI_PROVIDERS).default('index')),
  VERITY_MEDIAWIKI_URL: z.preprocess(emptyToUndefined, z.string().url().default('https://en.wikipedia.org/w/api.php')),
  VERITY_MEDIAWIKI_USER_AGENT: z.preprocess(emptyToUndefined, z.string().default('verity/0.1 (claim verification research)')),

  VERITY_WEB_SEARCH_PROVIDER: z.preprocess(emptyToUndefined, z.enum(WEB_SEARCH_PROVIDERS).default('recorded')),
  SERPER_API_KEY: optionalString,
  TAVILY_API_KEY: optionalString,
  BRAVE_API_KEY: optionalString,
  SEARXNG_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  SEARCHAPI_API_KEY: optionalString,
  VERITY_WEB_INCLUDE_DOMAINS: optionalString,
  VERITY_WEB_EXCLUDE_DOMAINS: optionalString,
  VERITY_PAGE_READER: z.preprocess(emptyToUndefined, z.enum(PAGE_READERS).default('auto')),
  PUBMED_API_KEY: optionalString,
  OPENALEX_API_KEY: optionalString,
  VERITY_CONTACT_EMAIL: optionalString,
  VERITY_WEB_CACHE: z.preprocess(emptyToUndefined, z.enum(WEB_CACHE_MODES).default('readwrite')),
  VERITY_SEARCH_CACHE_TTL_S: nonNegativeInt(7 * 24 * 3600),
  VERITY_PAGE_CACHE_TTL_S: nonNegativeInt(30 * 24 * 3600),

  VERITY_SIM_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(0)),
  VERITY_SIM_LATENCY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(0)),
});

export type RawEnv = z.infer<typeof envSchema>;

export interface VerityConfig {
  dataDir: string;
  logLevel: RawEnv['VERITY_LOG_LEVEL'];
  /** Temporal worker options (VERITY_WORKER_TUNING); not part of any identity. */
  workerTuning: WorkerTuning;
  /** VERITY_RETRY_BUDGET_S in ms: how long infrastructure errors are retried (src/shared/retry-budget.ts); absent, each preset's own. */
  retryBudgetMs?: number;
  /** VERITY_PROGRESS_INTERVAL_S in ms: how often long commands write a progress line when stderr is not a terminal. */
  progressIntervalMs: number;
  temporal: TemporalConnection & {
    /** TEMPORAL_TASK_QUEUE as configured. */
    baseTaskQueue: string;
    /** `<baseTaskQueue>-<config hash>`: the queue this configuration's work runs on (see config-identity.ts). */
    taskQueue: string;
    /** Unknown for a self-hosted server unless TEMPORAL_UI_URL says where its UI is. */
    uiUrl?: string;
    cliPath?: string;
  };
  /** An EsConnection: pass it to createEsClient as it is. */
  elasticsearch: EsConnection & {
    indexPrefix: string;
    javaHome?: string;
    heapMb: number;
  };
  llm: {
    /** VERITY_LLM; unset: 'openai-compatible' when an API key or a base URL is configured, else 'simulator'. */
    provider: 'openai-compatible' | 'simulator' | 'local';
    /** The model verity provisions and serves itself (provider 'local'); its base URL is known once it runs. */
    local?: { model: LocalModelName; slots: number };
    apiKey?: string;
    baseUrl?: string;
    models: Record<AgentRole, string>;
    temperature: number;
    seed: number;
    timeoutMs: number;
    /** The models' context window in tokens; unset: asked from the server (llama.cpp, vLLM), else unbudgeted. */
    contextTokens?: number;
    /** Per model, the reasoning allowance over the capability table's (VERITY_REASONING_MULTIPLIERS). */
    reasoningMultipliers?: Record<string, number>;
    cacheMode: LlmCacheMode;
    pricesFile?: string;
    /** LLM activities dispatched per second on `<taskQueue>-llm`, across all workers (server-side). */
    requestsPerSecond: number;
    /** LLM activities running at once in one worker. */
    concurrency: number;
    /** Adaptive rate on 429s: an interval without one adds a step; cuts are at least this far apart. */
    adaptiveRateIntervalMs: number;
  };
  /**
   * Embeddings for dense/hybrid retrieval and semantic memory recall: their own endpoint when
   * `baseUrl` is set, else the LLM endpoint (or the simulator).
   */
  embedding: {
    baseUrl?: string;
    apiKey?: string;
    /** Embeds passages (and memory entries). */
    model: string;
    /** Embeds queries; asymmetric models (e5, bge) embed them differently. Defaults to `model`. */
    queryModel: string;
    /** Requested vector length for models that can shorten theirs (text-embedding-3-*); else the model's own. */
    dimensions?: number;
  };
  /** Default mode of the rag_search tool (VERITY_RAG_MODE). */
  rag: { mode: RetrievalMode };
  /** Defaults of the evidence memory (MERMAID §3); workflow inputs may override them per run. */
  memory: { recall: MemoryRecallOptions; update: MemoryUpdateOptions };
  simulator: { port: number; latencyMs: number };
  web: {
    provider: WebSearchProviderName;
    serperApiKey?: string;
    tavilyApiKey?: string;
    braveApiKey?: string;
    searxngUrl?: string;
    searchApiKey?: string;
    /** Only these domains (and subdomains) when non-empty. */
    includeDomains: string[];
    /** Default: FACT_CHECK_DOMAINS (their verdicts would leak benchmark labels). */
    excludeDomains: string[];
    /** 'auto': recorded pages when the provider is 'recorded', else the live SSRF-safe reader. */
    pageReader: PageReaderName;
  };
  scholar: { pubmedApiKey?: string; openAlexApiKey?: string; contactEmail?: string };
  /** Search and page caches in Elasticsearch; TTLs in seconds, 0 = never expire. */
  webCache: { mode: WebCacheMode; searchTtlS: number; pageTtlS: number };
  wikipedia: {
    /** 'index': the offline `<prefix>-wiki` passage index; 'mediawiki': a live MediaWiki API. */
    provider: WikiProviderName;
    mediawikiUrl: string;
    userAgent: string;
  };
}

/** `gpt-5-mini=4,openai/gpt-oss-20b=6` → { 'gpt-5-mini': 4, … }; each multiplier ≥ 1. */
export function parseReasoningMultipliers(text: string | undefined, context?: z.RefinementCtx): Record<string, number> | undefined {
  if (text === undefined) return undefined;
  const table: Record<string, number> = {};
  for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const at = entry.lastIndexOf('=');
    const model = entry.slice(0, at).trim();
    const value = Number(entry.slice(at + 1));
    if (at <= 0 || !Number.isFinite(value) || value < 1) {
      context?.addIssue({ code: 'custom', message: `VERITY_REASONING_MULTIPLIERS: '${entry}' is not model=multiplier (a number ≥ 1)` });
      return undefined;
    }
    table[model] = value;
  }
  return table;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readInputText(file, MAX_SETTINGS_FILE_BYTES);
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a mapping of VARIABLE: value`);
  }
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).map(([key, value]) => [key, value === null ? undefined : String(value)]),
  );
}

const DEFAULT_MODEL = 'gpt-4o-mini';
const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
const DEFAULT_LLM_TIMEOUT_MS = 120_000;
const DEFAULT_LLM_CONCURRENCY = 16;

function llmProviderOf(e: RawEnv): VerityConfig['llm']['provider'] {
  const configured = Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL);
  switch (e.VERITY_LLM) {
    case 'local':
      return 'local';
    case 'simulator':
      return 'simulator';
    case 'endpoint':
      if (!configured) throw new ConfigError('VERITY_LLM=endpoint needs OPENAI_BASE_URL and/or OPENAI_API_KEY');
      return 'openai-compatible';
    default:
      return configured ? 'openai-compatible' : 'simulator';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): VerityConfig {
  const fromFile = env.VERITY_CONFIG_FILE ? readConfigFile(env.VERITY_CONFIG_FILE) : {};
  const merged = { ...fromFile, ...env } as Record<string, string | undefined>;
  const result = envSchema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = result.data;
  const esConnection = esConnectionFromVariables(e);
  if ('problems' in esConnection) throw new ConfigError(`invalid configuration: ${esConnection.problems.join('; ')}`);
  let temporalConnection: TemporalConnection;
  try {
    temporalConnection = temporalConnectionFromEnv(merged);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const provider = llmProviderOf(e);
  const localSpec = provider === 'local' ? LOCAL_MODELS[e.VERITY_LOCAL_MODEL] : undefined;
  const localSlots = e.VERITY_LOCAL_LLM_SLOTS ?? localSpec?.measured.slots ?? 1;
  const model = e.VERITY_MODEL ?? localSpec?.name ?? DEFAULT_MODEL;
  // Embeddings of the local server unless another embedding endpoint is configured.
  const embeddingModel = e.VERITY_EMBEDDING_MODEL ?? (localSpec && !e.VERITY_EMBEDDING_BASE_URL ? localSpec.name : DEFAULT_EMBEDDING_MODEL);
  const config: VerityConfig = {
    dataDir: path.resolve(e.VERITY_DATA_DIR),
    logLevel: e.VERITY_LOG_LEVEL,
    workerTuning: e.VERITY_WORKER_TUNING,
    ...(e.VERITY_RETRY_BUDGET_S !== undefined ? { retryBudgetMs: e.VERITY_RETRY_BUDGET_S * 1000 } : {}),
    progressIntervalMs: e.VERITY_PROGRESS_INTERVAL_S * 1000,
    temporal: {
      ...temporalConnection,
      baseTaskQueue: e.TEMPORAL_TASK_QUEUE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      uiUrl: temporalUiUrl(e.TEMPORAL_UI_URL, temporalConnection),
      cliPath: e.TEMPORAL_CLI_PATH,
    },
    elasticsearch: {
      ...esConnection,
      indexPrefix: e.ES_INDEX_PREFIX,
      javaHome: e.ES_JAVA_HOME,
      heapMb: e.VERITY_ES_HEAP_MB,
    },
    llm: {
      provider,
      ...(localSpec ? { local: { model: e.VERITY_LOCAL_MODEL, slots: localSlots } } : {}),
      apiKey: provider === 'local' ? undefined : e.OPENAI_API_KEY,
      baseUrl: provider === 'local' ? undefined : e.OPENAI_BASE_URL,
      models: {
        default: model,
        judge: e.VERITY_MODEL_JUDGE ?? model,
        decomposer: e.VERITY_MODEL_DECOMPOSER ?? model,
        executor: e.VERITY_MODEL_EXECUTOR ?? model,
        debater: e.VERITY_MODEL_DEBATER ?? model,
        evaluator: e.VERITY_MODEL_EVALUATOR ?? model,
      },
      temperature: e.VERITY_TEMPERATURE,
      seed: e.VERITY_SEED,
      // A local CPU server: as many calls at once as it has slots, each given time for its measured speed.
      timeoutMs: e.VERITY_LLM_TIMEOUT_MS ?? (localSpec ? localTimeoutMs(localSpec, localSlots) : DEFAULT_LLM_TIMEOUT_MS),
      contextTokens: e.VERITY_LLM_CONTEXT_TOKENS,
      ...(e.VERITY_REASONING_MULTIPLIERS ? { reasoningMultipliers: e.VERITY_REASONING_MULTIPLIERS } : {}),
      cacheMode: e.VERITY_LLM_CACHE,
      pricesFile: e.VERITY_PRICES_FILE,
      requestsPerSecond: e.VERITY_LLM_RPS,
      concurrency: e.VERITY_LLM_CONCURRENCY ?? (localSpec ? localSlots : DEFAULT_LLM_CONCURRENCY),
      adaptiveRateIntervalMs: e.VERITY_LLM_AIMD_INTERVAL_MS,
    },
    embedding: {
      baseUrl: e.VERITY_EMBEDDING_BASE_URL?.replace(/\/$/, ''),
      apiKey: e.VERITY_EMBEDDING_API_KEY,
      model: embeddingModel,
      queryModel: e.VERITY_EMBEDDING_QUERY_MODEL ?? embeddingModel,
      dimensions: e.VERITY_EMBEDDING_DIMS,
    },
    rag: { mode: e.VERITY_RAG_MODE },
    memory: {
      recall: { mode: e.VERITY_MEMORY_RECALL_MODE, topK: e.VERITY_MEMORY_TOP_K, similarityThreshold: e.VERITY_MEMORY_SIMILARITY_THRESHOLD },
      update: {
        mode: e.VERITY_MEMORY_UPDATE_MODE,
        dedup: e.VERITY_MEMORY_DEDUP,
        storeInvalid: e.VERITY_MEMORY_STORE_INVALID,
        frozen: e.VERITY_MEMORY_FROZEN,
      },
    },
    simulator: { port: e.VERITY_SIM_PORT, latencyMs: e.VERITY_SIM_LATENCY_MS },
    web: {
      provider: e.VERITY_WEB_SEARCH_PROVIDER,
      serperApiKey: e.SERPER_API_KEY,
      tavilyApiKey: e.TAVILY_API_KEY,
      braveApiKey: e.BRAVE_API_KEY,
      searxngUrl: e.SEARXNG_URL,
      searchApiKey: e.SEARCHAPI_API_KEY,
      includeDomains: domainList(e.VERITY_WEB_INCLUDE_DOMAINS, []),
      excludeDomains: domainList(e.VERITY_WEB_EXCLUDE_DOMAINS, FACT_CHECK_DOMAINS),
      pageReader: e.VERITY_PAGE_READER,
    },
    scholar: { pubmedApiKey: e.PUBMED_API_KEY, openAlexApiKey: e.OPENALEX_API_KEY, contactEmail: e.VERITY_CONTACT_EMAIL },
    webCache: { mode: e.VERITY_WEB_CACHE, searchTtlS: e.VERITY_SEARCH_CACHE_TTL_S, pageTtlS: e.VERITY_PAGE_CACHE_TTL_S },
    wikipedia: { provider: e.VERITY_WIKI_PROVIDER, mediawikiUrl: e.VERITY_MEDIAWIKI_URL, userAgent: e.VERITY_MEDIAWIKI_USER_AGENT },
  };
  config.temporal.taskQueue = derivedTaskQueue(e.TEMPORAL_TASK_QUEUE, config);
  return config;
}

/** Names of configuration values that must never be logged or sent into workflow inputs. */
export const SECRET_KEYS = [
  'apiKey',
  'OPENAI_API_KEY',
  'VERITY_EMBEDDING_API_KEY',
  'ES_API_KEY',
  'ES_PASSWORD',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'password',
  'authorization',
  'Authorization',
  'api_key',
  'x-api-key',
  'serperApiKey',
  'tavilyApiKey',
  'braveApiKey',
  'searchApiKey',
  'pubmedApiKey',
  'openAlexApiKey',
  'SERPER_API_KEY',
  'TAVILY_API_KEY',
  'BRAVE_API_KEY',
  'SEARCHAPI_API_KEY',
  'PUBMED_API_KEY',
  'OPENALEX_API_KEY',
] as const;
