import { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { CanonicalLlmRequest } from './cache';
import { capabilitiesOf, type ModelCapabilities, sentTokenCap } from './capabilities';
import { isContextOverflow } from './errors';
import { renderJsonSchemaInstruction } from './prompt-conventions';
import type { ChatMessage, ResponseFormat } from './types';

/**
 * The forms of asking for structured output, best first: `json_schema` (constrained decoding),
 * `json_object` (any JSON, the schema in the prompt), `prompt` (the schema in the prompt only).
 * A request starts at the first; a server that rejects a form gets the next one at once.
 */
export const RESPONSE_FORMATS: readonly ResponseFormat[] = ['json_schema', 'json_object', 'prompt'];

/** The messages sent with `format`: the request's, plus the schema instruction where the form needs it. */
export function messagesFor(request: CanonicalLlmRequest, format: ResponseFormat): ChatMessage[] {
  if (format === 'json_schema' || format === 'text') return request.messages;
  const instruction: ChatMessage = { role: 'system', content: renderJsonSchemaInstruction(request.jsonSchema, request.schemaName) };
  return [...request.messages, instruction];
}

/**
 * The chat-completions body of `request` asked in `format`, with `messages` (messagesFor's, possibly
 * fitted to the window), built from the model's row of the capability table (capabilities.ts): its
 * token parameter and reasoning allowance, without the parameters it refuses.
 */
export function bodyFor(
  request: CanonicalLlmRequest,
  format: ResponseFormat,
  messages: ChatMessage[],
  capabilities: ModelCapabilities = capabilitiesOf(request.model),
): ChatCompletionCreateParamsNonStreaming {
  const omitted = new Set(capabilities.omittedParameters);
  const cap = request.maxTokens !== undefined ? sentTokenCap(request.maxTokens, capabilities) : undefined;
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: request.model,
    messages: toOpenAiMessages(messages),
    ...(omitted.has('temperature') ? {} : { temperature: request.temperature }),
    ...(omitted.has('seed') ? {} : { seed: request.seed }),
    ...(request.topP !== undefined && !omitted.has('top_p') ? { top_p: request.topP } : {}),
    ...(cap !== undefined ? { [capabilities.tokenParameter]: cap } : {}),
  };
  if (format === 'json_object') return { ...body, response_format: { type: 'json_object' } };
  if (format === 'prompt' || format === 'text') return body;
  return {
    ...body,
    response_format: {
      type: 'json_schema',
      json_schema: { name: request.schemaName, schema: request.jsonSchema as Record<string, unknown>, strict: true },
    },
  };
}

/**
 * A server's refusal of the form asked (a 4xx or 5xx naming response_format, json_schema or
 * json_object: OpenAI's 400 on a schema breaking its strict rules, llama-cpp-python's 500 on
 * json_schema, a server without structured outputs), as opposed to an outage or a context overflow
 * (whose OpenAI message may mention "response_format schemas" too).
 */
export function rejectsResponseFormat(err: unknown): boolean {
  if (!(err instanceof APIError) || err.status === undefined || err.status < 400 || err.status === 429) return false;
  return !isContextOverflow(err) && /response_format|json_schema|json_object/i.test(err.message);
}

function toOpenAiMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', content: m.content, tool_call_id: m.tool_call_id ?? '' }
      : ({ role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}) } as ChatCompletionMessageParam),
  );
}
