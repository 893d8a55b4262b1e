import type { Attributes } from '@opentelemetry/api';
import { redactSecrets } from '../llm/errors';
import type { ChatMessage } from '../llm/types';

/** What is known of an LLM call before it is made. */
export interface ChatCallRequest {
  /** gen_ai.provider.name: "openai" or the OpenAI-compatible endpoint's provider. */
  provider: string;
  model: string;
  promptVersion: string;
  temperature: number;
  seed: number;
  topP?: number;
  maxTokens?: number;
  messages: readonly ChatMessage[];
}

/** What the call answered (from the endpoint or the request cache). */
export interface ChatCallResponse {
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  cacheHit: boolean;
  /** The endpoint's finish_reason (unknown for cached answers). */
  finishReason?: string;
  /** The answer's text, for gen_ai.output.messages. */
  content?: string | null;
}

export interface ChatAttributeOptions {
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: prompts and answers go into the span. */
  captureContent: boolean;
  /** Removed from every text that goes into the span (the API key), besides redactSecrets' patterns. */
  secrets: readonly (string | undefined)[];
}

export const CHAT_OPERATION = 'chat';

/** The GenAI conventions' span name: "{operation} {model}". */
export function chatSpanName(model: string): string {
  return `${CHAT_OPERATION} ${model}`;
}

/** Attributes of the call's span when it starts (OpenTelemetry GenAI semantic conventions, plus verity.*). */
export function chatRequestAttributes(request: ChatCallRequest, options: ChatAttributeOptions): Attributes {
  return {
    'gen_ai.operation.name': CHAT_OPERATION,
    'gen_ai.provider.name': request.provider,
    'gen_ai.request.model': request.model,
    'gen_ai.request.temperature': request.temperature,
    'gen_ai.request.seed': request.seed,
    ...(request.topP !== undefined ? { 'gen_ai.request.top_p': request.topP } : {}),
    ...(request.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': request.maxTokens } : {}),
    'verity.prompt_version': request.promptVersion,
    ...(options.captureContent ? { 'gen_ai.input.messages': safeText(JSON.stringify(request.messages.map(inputMessage)), options) } : {}),
  };
}

/** Attributes of the call's span once it answered. */
export function chatResponseAttributes(response: ChatCallResponse, options: ChatAttributeOptions): Attributes {
  const captured = options.captureContent && response.content != null;
  return {
    'gen_ai.response.model': response.model,
    'gen_ai.usage.input_tokens': response.inputTokens,
    'gen_ai.usage.output_tokens': response.outputTokens,
    ...(response.finishReason ? { 'gen_ai.response.finish_reasons': [response.finishReason] } : {}),
    'verity.cost_usd': response.costUsd,
    'verity.cache_hit': response.cacheHit,
    ...(captured ? { 'gen_ai.output.messages': safeText(JSON.stringify([outputMessage(response)]), options) } : {}),
  };
}

/** An error's message as a span may carry it: secrets redacted, one bounded line. */
export function safeErrorMessage(err: unknown, options: Pick<ChatAttributeOptions, 'secrets'>): string {
  const message = err instanceof Error ? err.message : String(err);
  return safeText(message.replace(/\s+/g, ' ').slice(0, 500), options);
}

function safeText(text: string, options: Pick<ChatAttributeOptions, 'secrets'>): string {
  return redactSecrets(text, ...options.secrets);
}

function inputMessage(message: ChatMessage) {
  return { role: message.role, parts: [{ type: 'text', content: message.content }] };
}

function outputMessage(response: ChatCallResponse) {
  return { role: 'assistant', parts: [{ type: 'text', content: response.content }], ...(response.finishReason ? { finish_reason: response.finishReason } : {}) };
}
