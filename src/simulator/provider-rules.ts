/**
 * How the providers' profiles (profiles.ts) answer requests they refuse, with their documented
 * errors verbatim (src/llm/capabilities.ts and docs/providers.md name the sources), and how much
 * their models reason before answering.
 */
import { capabilitiesOf } from '../llm/capabilities';
import type { ChatRequestBody, SimResponse } from './chat-completions';
import type { ServerProfile } from './profiles';

type ErrorCode = 'unsupported_parameter' | 'unsupported_value' | 'unknown_parameter';

/** The request arguments of OpenAI's Chat Completions API (the openai package's ChatCompletionCreateParams). */
const OPENAI_CHAT_ARGUMENTS = new Set([
  'messages', 'model', 'audio', 'frequency_penalty', 'function_call', 'functions', 'logit_bias', 'logprobs', 'max_completion_tokens',
  'max_tokens', 'metadata', 'modalities', 'moderation', 'n', 'parallel_tool_calls', 'prediction', 'presence_penalty', 'prompt_cache_key',
  'prompt_cache_options', 'prompt_cache_retention', 'reasoning_effort', 'response_format', 'safety_identifier', 'seed', 'service_tier',
  'stop', 'store', 'stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p', 'user', 'verbosity',
  'web_search_options',
]);
const OPENAI_JSON_SCHEMA_FIELDS = new Set(['name', 'description', 'schema', 'strict']);

function openAiRefusal(message: string, param: string, code: ErrorCode): SimResponse {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

/** OpenAI's reasoning models (GPT-5 family, o-series): max_tokens, temperature ≠ 1 and top_p are refused. */
function openAiReasoningRefusal(body: ChatRequestBody): SimResponse | undefined {
  if (body.max_tokens !== undefined) {
    return openAiRefusal("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return openAiRefusal(
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      'temperature',
      'unsupported_value',
    );
  }
  if (body.top_p !== undefined) return openAiRefusal("Unsupported parameter: 'top_p' is not supported with this model.", 'top_p', 'unsupported_parameter');
  return undefined;
}

/** OpenAI's answer to an argument its API does not have (top level) or a field json_schema does not have. */
function openAiUnknownArgument(body: ChatRequestBody): SimResponse | undefined {
  const unknown = Object.keys(body).find((key) => !OPENAI_CHAT_ARGUMENTS.has(key));
  if (unknown !== undefined) {
    return { status: 400, body: { error: { message: `Unrecognized request argument supplied: ${unknown}`, type: 'invalid_request_error', param: null, code: null } } };
  }
  const jsonSchema = body.response_format?.json_schema;
  const field = jsonSchema && typeof jsonSchema === 'object' ? Object.keys(jsonSchema).find((key) => !OPENAI_JSON_SCHEMA_FIELDS.has(key)) : undefined;
  if (field === undefined) return undefined;
  const param = `response_format.json_schema.${field}`;
  return openAiRefusal(`Unknown parameter: '${param}'.`, param, 'unknown_parameter');
}

/**
 * The profile's refusal of the request's parameters, if any. OpenAI's profiles refuse arguments
 * its API does not have, and the `openai` profile answers a reasoning model (GPT-5, o-series) as
 * OpenAI does, whatever profile the server was started with.
 */
export function parameterRefusal(body: ChatRequestBody, profile: ServerProfile): SimResponse | undefined {
  if (profile === 'openai' || profile === 'openai-reasoning') {
    const unknown = openAiUnknownArgument(body);
    if (unknown) return unknown;
  }
  if (profile === 'openai-reasoning' || (profile === 'openai' && typeof body.model === 'string' && capabilitiesOf(body.model).family === 'openai-reasoning')) {
    return openAiReasoningRefusal(body);
  }
  // A server refusing a parameter verity's capability table does not foresee for any model.
  if (profile === 'no-seed' && body.seed !== undefined) return openAiRefusal("Unsupported parameter: 'seed' is not supported with this model.", 'seed', 'unsupported_parameter');
  return undefined;
}

/** Profiles whose models reason before answering; the reasoning counts against the cap. */
export function reasoningTokensFor(profile: ServerProfile, promptTokens: number): number {
  if (profile === 'openai-reasoning' || profile === 'gpt-oss-vllm' || profile === 'gemini-compat') return 192 + (promptTokens % 64);
  if (profile === 'ollama') return 128 + (promptTokens % 32);
  return 0;
}

/** Where the profile's server puts the reasoning text in a message (none: hidden, as OpenAI's API does). */
export function reasoningFieldOf(profile: ServerProfile): 'reasoning_content' | 'reasoning' | undefined {
  if (profile === 'gpt-oss-vllm') return 'reasoning_content';
  if (profile === 'ollama') return 'reasoning';
  return undefined;
}

/** Servers that report usage.completion_tokens_details.reasoning_tokens. */
export function reportsReasoningTokens(profile: ServerProfile): boolean {
  return profile === 'openai-reasoning' || profile === 'gemini-compat';
}

/** Servers that ignore response_format (Anthropic's compatibility layer: "response_format: Ignored"). */
export function ignoresResponseFormat(profile: ServerProfile): boolean {
  return profile === 'anthropic-compat';
}
