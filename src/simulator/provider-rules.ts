/**
 * How the providers' profiles (profiles.ts) answer requests they refuse, with their documented
 * errors verbatim (src/llm/capabilities.ts and docs/providers.md name the sources), and how much
 * their models reason before answering.
 */
import type { ChatRequestBody, SimResponse } from './chat-completions';
import type { ServerProfile } from './profiles';

type ErrorCode = 'unsupported_parameter' | 'unsupported_value';

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

/** The profile's refusal of the request's parameters, if any. */
export function parameterRefusal(body: ChatRequestBody, profile: ServerProfile): SimResponse | undefined {
  if (profile === 'openai-reasoning') return openAiReasoningRefusal(body);
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
