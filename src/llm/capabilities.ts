/**
 * What each provider and model family accepts on /v1/chat/completions, from the providers' own
 * documentation (each row names its sources; docs/providers.md has the prose). The gateway builds
 * every request from the row of its model (bodyFor in response-format.ts): the token parameter,
 * the sampling parameters the model refuses, the cap sized for reasoning, the structured-output
 * forms the server honours. Nothing here is part of a request's identity (llmRequestHash): the
 * canonical request stays what the method asked; only the wire body follows the table.
 * Rows last checked against the providers' pages on 2026-11-29 (which could be verified and which
 * not, with the URLs read: docs/providers.md, "Rows checked against the providers' pages").
 */
import type { ResponseFormat } from './types';

/** The parameter that caps an answer's length. */
export type TokenParameter = 'max_tokens' | 'max_completion_tokens';

/** Sampling parameters a model family may refuse (a 400 "Unsupported parameter/value"). */
export type SamplingParameter = 'temperature' | 'top_p' | 'seed';

export interface ModelCapabilities {
  /** The table row, e.g. 'openai-reasoning'. */
  family: string;
  tokenParameter: TokenParameter;
  /** Left out of the body: the provider refuses them (400) or documents them as ignored. */
  omittedParameters: readonly SamplingParameter[];
  /** Reasoning tokens count against the cap (and are billed as output). */
  reasoning: boolean;
  /**
   * The cap sent is the task's cap times this (its reasoning allowance); 1 for non-reasoning models.
   * Settable per model (VERITY_REASONING_MULTIPLIER, gateway option `reasoningMultipliers`).
   */
  reasoningMultiplier: number;
  /** Structured-output forms the server honours, best first (the gateway starts at the first). */
  responseFormats: readonly ResponseFormat[];
  /** Where the server puts the reasoning text in a message, if it returns it. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Notes that the request builder does not act on (batch API, embeddings, tools). */
  notes: string;
  /** The providers' documentation this row follows. */
  sources: readonly string[];
}

export interface CapabilityRow extends ModelCapabilities {
  /** Matches the model id (with or without an `org/` prefix). */
  match: RegExp;
}

/** Default allowance of reasoning models: a 500-token task cap becomes 4,000 tokens. */
export const DEFAULT_REASONING_MULTIPLIER = 8;

const ALL_FORMATS: readonly ResponseFormat[] = ['json_schema', 'json_object', 'prompt'];

/** The rows, most specific first; the last one matches every model. */
export const CAPABILITY_TABLE: readonly CapabilityRow[] = [
  {
    family: 'openai-reasoning',
    match: /^(?:openai\/)?(?:o1|o3|o4)(?:-|$)|^(?:openai\/)?gpt-5(?:[.-]|$)/,
    tokenParameter: 'max_completion_tokens',
    // "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
    omittedParameters: ['temperature', 'top_p'],
    reasoning: true,
    reasoningMultiplier: DEFAULT_REASONING_MULTIPLIER,
    responseFormats: ALL_FORMATS,
    notes:
      'max_tokens is refused ("Use \'max_completion_tokens\' instead"); reasoning_effort accepted; usage.completion_tokens_details.reasoning_tokens is part of completion_tokens and billed as output; Batch API and embeddings as for OpenAI chat models.',
    sources: [
      'https://platform.openai.com/docs/guides/reasoning',
      'https://platform.openai.com/docs/api-reference/chat/create',
      'https://community.openai.com/t/inconsistent-token-limits-with-o3-mini-2025-01-31-model-empty-response-despite-supposed-large-context/1134663/2',
    ],
  },
  {
    family: 'gpt-oss',
    match: /(?:^|\/)gpt-oss(?:[-:]|$)/,
    tokenParameter: 'max_tokens',
    omittedParameters: [],
    reasoning: true,
    reasoningMultiplier: DEFAULT_REASONING_MULTIPLIER,
    responseFormats: ALL_FORMATS,
    reasoningField: 'reasoning_content',
    notes:
      'Served by vLLM (`vllm serve openai/gpt-oss-20b`, reasoning parser openai_gptoss: reasoning in message.reasoning_content) or Ollama (`gpt-oss:20b`, reasoning in message.reasoning); its reasoning counts in completion_tokens and against max_tokens; neither server reports usage reasoning_tokens, so the gateway estimates them from the reasoning text (reasoning-tokens.ts).',
    sources: [
      'https://cookbook.openai.com/articles/gpt-oss/run-vllm',
      'https://docs.vllm.ai/en/latest/features/reasoning_outputs.html',
      'https://docs.ollama.com/api/openai-compatibility',
      'https://github.com/openai/codex/issues/3721',
    ],
  },
  {
    family: 'anthropic-compat',
    match: /^(?:anthropic\/)?claude-/,
    tokenParameter: 'max_tokens',
    // seed is documented as ignored: sending it would suggest a reproducibility the server does not give.
    omittedParameters: ['seed'],
    reasoning: false,
    reasoningMultiplier: 1,
    // response_format is ignored by the compatibility layer: only the schema in the prompt works.
    responseFormats: ['prompt'],
    notes:
      'OpenAI SDK compatibility layer (https://api.anthropic.com/v1/): max_tokens and max_completion_tokens supported; temperature 0–1 (above 1 capped); response_format, seed, reasoning_effort ignored; tools supported, `strict` ignored; no embeddings, batches only through the native API.',
    sources: ['https://docs.anthropic.com/en/api/openai-sdk', 'https://platform.claude.com/docs/en/api/openai-sdk'],
  },
  {
    family: 'gemini-compat',
    match: /^(?:google\/)?gemini-/,
    tokenParameter: 'max_tokens',
    omittedParameters: [],
    // Gemini 2.5+ think by default; thinking tokens count against the output cap.
    reasoning: true,
    reasoningMultiplier: 4,
    responseFormats: ALL_FORMATS,
    notes:
      'OpenAI compatibility (https://generativelanguage.googleapis.com/v1beta/openai/): chat, structured output via response_format, tools, reasoning_effort, embeddings and a batch API documented.',
    sources: ['https://ai.google.dev/gemini-api/docs/openai'],
  },
  {
    family: 'openai-chat',
    match: /.*/,
    tokenParameter: 'max_tokens',
    omittedParameters: [],
    reasoning: false,
    reasoningMultiplier: 1,
    responseFormats: ALL_FORMATS,
    notes:
      'OpenAI chat models (gpt-4o, gpt-4.1 …) and OpenAI-compatible servers (vLLM, Ollama, llama.cpp, Together) serving instruct models: max_tokens, temperature, top_p, seed, response_format json_schema (vLLM/Ollama/llama.cpp honour it; others fall back per request).',
    sources: ['https://platform.openai.com/docs/api-reference/chat/create', 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html', 'https://docs.ollama.com/api/openai-compatibility'],
  },
];

/** The row of `model`, with per-model multipliers (model id → multiplier) applied. */
export function capabilitiesOf(model: string, reasoningMultipliers: Readonly<Record<string, number>> = {}): ModelCapabilities {
  const id = model.trim();
  const row = CAPABILITY_TABLE.find((candidate) => candidate.match.test(id)) ?? CAPABILITY_TABLE[CAPABILITY_TABLE.length - 1]!;
  const { match: _match, ...capabilities } = row;
  const override = Object.hasOwn(reasoningMultipliers, id) ? reasoningMultipliers[id] : undefined;
  return override !== undefined ? { ...capabilities, reasoningMultiplier: override } : capabilities;
}

/** The cap sent for a task cap of `maxTokens` (its reasoning allowance included). */
export function sentTokenCap(maxTokens: number, capabilities: ModelCapabilities): number {
  return Math.ceil(maxTokens * Math.max(1, capabilities.reasoningMultiplier));
}
