/**
 * Servers the simulator can play, as met with real models:
 * - `openai` (default): enforces OpenAI's strict structured-output rules, honours json_schema.
 * - `llama.cpp`: llama.cpp's own server (xllamacpp): honours json_schema without OpenAI's strict
 *   rules, says its context window at /props and /v1/models (meta.n_ctx), reports an overflow
 *   as `exceed_context_size_error`.
 * - `llama-cpp-python`: answers json_schema with HTTP 500 naming response_format (json_object works).
 * - `no-response-format`: answers any response_format (json_schema, json_object) with a 400 naming it
 *   (servers without structured outputs: only the schema in the prompt works).
 * - `prose`: ignores response_format, answers in prose around a ```json fence.
 * - `loop`: repeats itself until max_tokens (or the window) ends the answer: finish_reason length.
 * Providers' profiles (provider-rules.ts; sources in src/llm/capabilities.ts):
 * - `openai-reasoning`: OpenAI's GPT-5 family and o-series: refuses max_tokens, temperature ≠ 1 and
 *   top_p with OpenAI's 400s verbatim; reasons (hidden) within max_completion_tokens and reports
 *   usage.completion_tokens_details.reasoning_tokens; strict schemas.
 * - `gpt-oss-vllm`: gpt-oss behind vLLM: reasoning in message.reasoning_content, counted against max_tokens.
 * - `ollama`: Ollama's OpenAI-compatible API (gpt-oss:20b): reasoning in message.reasoning, counted against max_tokens.
 * - `anthropic-compat`: Anthropic's OpenAI SDK compatibility: response_format and seed ignored.
 * - `gemini-compat`: Gemini's OpenAI compatibility: thinking tokens within max_tokens, reported as reasoning_tokens.
 * - `no-seed`: refuses `seed` (a parameter the capability table does not foresee being refused).
 */
export const SERVER_PROFILES = [
  'openai',
  'llama.cpp',
  'llama-cpp-python',
  'no-response-format',
  'prose',
  'loop',
  'openai-reasoning',
  'gpt-oss-vllm',
  'ollama',
  'anthropic-compat',
  'gemini-compat',
  'no-seed',
] as const;
export type ServerProfile = (typeof SERVER_PROFILES)[number];

/** The simulator's default context window, in its (whitespace) tokens. */
export const DEFAULT_SIM_CONTEXT_TOKENS = 16_384;

/** How the simulator answers chat requests. */
export interface ChatSettings {
  profile: ServerProfile;
  /** Prompt plus max_tokens beyond this is a context overflow. */
  contextTokens: number;
  /** Reject json_schema schemas that break OpenAI's strict rules (with `strict: true`) with OpenAI's 400. */
  strictSchemas: boolean;
}

export function chatSettingsOf(options: { profile?: ServerProfile; contextTokens?: number; strictSchemas?: boolean }): ChatSettings {
  const profile = options.profile ?? 'openai';
  return { profile, contextTokens: options.contextTokens ?? DEFAULT_SIM_CONTEXT_TOKENS, strictSchemas: options.strictSchemas ?? (profile === 'openai' || profile === 'openai-reasoning') };
}

/** llama.cpp's servers say their window; OpenAI's API does not. */
export function exposesContextWindow(profile: ServerProfile): boolean {
  return profile === 'llama.cpp';
}
