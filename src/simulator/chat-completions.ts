import { canonicalJson, sha256Hex } from '../llm/canonical-json';
import { strictSchemaViolations } from '../llm/strict-schema';
import { contextOverflow, cutToTokens, loopingAnswer, maxTokensOf } from './answer-limits';
import { responderFor } from './method-responders';
import type { ChatSettings } from './profiles';
import { ignoresResponseFormat, parameterRefusal, reasoningFieldOf, reasoningTokensFor, reportsReasoningTokens } from './provider-rules';
import { generateFromSchema } from './schema-generator';
import { readPrompt, type PromptReading, type SimMessage } from './prompt-reader';
import { countTokens } from './text';

export interface ChatRequestBody {
  model?: unknown;
  messages?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
  temperature?: unknown;
  top_p?: unknown;
  seed?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  tools?: { type?: string; function?: { name?: string; parameters?: unknown } }[];
}

export interface SimResponse {
  status: number;
  body: unknown;
}

interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  refusal: null;
  tool_calls?: unknown[];
  reasoning_content?: string;
  reasoning?: string;
}

/** The reasoning a profile's model did before answering (tokens, counted against the cap). */
interface Reasoning {
  tokens: number;
  reported: boolean;
  field?: 'reasoning_content' | 'reasoning';
}

/** A fixed `created` timestamp: the same request always gets byte-identical answers. */
const SIMULATOR_CREATED = 1_700_000_000;

export function invalidRequest(message: string, param?: string): SimResponse {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: param ?? null, code: null } } };
}

export function answerChat(body: ChatRequestBody, settings: ChatSettings): SimResponse {
  if (typeof body.model !== 'string' || !Array.isArray(body.messages)) return invalidRequest("'model' and 'messages' are required");
  const refused = parameterRefusal(body, settings.profile);
  if (refused) return refused;
  const messages = body.messages as SimMessage[];
  const promptTokens = messages.reduce((sum, m) => sum + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')), 0);
  const maxTokens = maxTokensOf(body);
  const rejection = contextOverflow(settings, promptTokens, maxTokens) ?? responseFormatRejection(body, settings);
  if (rejection) return rejection;
  const reading = readPrompt(messages);
  const firstTool = body.tools?.[0]?.function;
  if (firstTool?.name && !reading.hasToolResults) {
    return { status: 200, body: completion(body.model, messages, promptTokens, toolCallMessage(firstTool.name, firstTool.parameters, reading)) };
  }
  const reasoning = reasoningOf(settings, promptTokens, maxTokens);
  const { content, finishReason } = limitedContent(body, messages, reading, settings, promptTokens, maxTokens, reasoning.tokens);
  const message: AssistantMessage = { role: 'assistant', content, refusal: null };
  if (reasoning.field && reasoning.tokens > 0) message[reasoning.field] = reasoningText(reading.rationale, reasoning.tokens);
  return { status: 200, body: completion(body.model, messages, promptTokens, message, finishReason, reasoning) };
}

/** What the profile's server says to the response_format asked, when it refuses it. */
function reasoningOf(settings: ChatSettings, promptTokens: number, maxTokens: number | undefined): Reasoning {
  const wanted = reasoningTokensFor(settings.profile, promptTokens);
  // The reasoning stops at the cap too: what is left of it after reasoning is the answer's.
  const tokens = maxTokens === undefined ? wanted : Math.min(wanted, maxTokens);
  const field = reasoningFieldOf(settings.profile);
  return { tokens, reported: reportsReasoningTokens(settings.profile), ...(field ? { field } : {}) };
}

function reasoningText(rationale: string, tokens: number): string {
  return cutToTokens(Array.from({ length: tokens }, (_, i) => rationale.split(/\s+/)[i % Math.max(1, rationale.split(/\s+/).length)] ?? 'think').join(' '), tokens).text;
}

function responseFormatRejection(body: ChatRequestBody, settings: ChatSettings): SimResponse | undefined {
  if (ignoresResponseFormat(settings.profile)) return undefined;
  const format = body.response_format;
  if (format?.type && settings.profile === 'no-response-format') {
    return invalidRequest(`Invalid parameter: 'response_format' of type '${format.type}' is not supported with this model.`, 'response_format');
  }
  if (format?.type !== 'json_schema' || settings.profile === 'prose' || settings.profile === 'loop') return undefined;
  if (settings.profile === 'llama-cpp-python') {
    const message = "response_format of type 'json_schema' failed: could not build a grammar from the schema (simulated llama-cpp-python)";
    return { status: 500, body: { error: { message, type: 'internal_server_error' } } };
  }
  if (!settings.strictSchemas || format.json_schema?.strict !== true) return undefined;
  const violations = strictSchemaViolations(format.json_schema.schema);
  if (violations.length === 0) return undefined;
  return invalidRequest(`Invalid schema for response_format '${format.json_schema.name ?? ''}': ${violations.join('; ')}`, 'response_format');
}

/** The answer's text within max_tokens (or what is left of the window): longer ones are cut, finish_reason length. */
function limitedContent(
  body: ChatRequestBody,
  messages: SimMessage[],
  reading: PromptReading,
  settings: ChatSettings,
  promptTokens: number,
  maxTokens: number | undefined,
  reasoningTokens = 0,
) {
  const limit = Math.max(0, (maxTokens ?? Math.max(0, settings.contextTokens - promptTokens)) - reasoningTokens);
  if (settings.profile === 'loop') return { content: loopingAnswer(reading.rationale, limit), finishReason: 'length' };
  const { text, cut } = cutToTokens(contentFor(body, messages, reading, settings), limit);
  return { content: text, finishReason: cut ? 'length' : 'stop' };
}

function contentFor(body: ChatRequestBody, messages: SimMessage[], reading: PromptReading, settings: ChatSettings): string {
  const ignored = ignoresResponseFormat(settings.profile);
  const format = settings.profile === 'prose' || ignored ? undefined : body.response_format;
  const schema = (ignored ? undefined : body.response_format?.json_schema?.schema) ?? reading.schemaInPrompt;
  if (schema === undefined) {
    if (format?.type === 'json_object') return JSON.stringify(defaultJsonAnswer(reading));
    return `Verdict: ${reading.decision.label}. ${reading.rationale}`;
  }
  // Methods teach the simulator their protocols (ReAct steps, debates …) by schema name (in the prompt: its title).
  const name = (ignored ? undefined : body.response_format?.json_schema?.name) ?? titleOf(reading.schemaInPrompt);
  const constrained = format?.type === 'json_schema';
  const json = JSON.stringify(responderFor(name)?.(reading, schema, messages, constrained) ?? generateFromSchema(schema, reading));
  const asJson = constrained || format?.type === 'json_object';
  return asJson ? json : `Here is my assessment.\n\`\`\`json\n${json}\n\`\`\`\nI hope this helps.`;
}

function titleOf(schema: unknown): string | undefined {
  const title = (schema as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : undefined;
}

function defaultJsonAnswer(reading: PromptReading) {
  return { label: reading.decision.label, rationale: reading.rationale, evidence_ids: reading.decision.citedIds };
}

function toolCallMessage(name: string, parameters: unknown, reading: PromptReading): AssistantMessage {
  const args = JSON.stringify(generateFromSchema(parameters ?? { type: 'object', properties: {} }, reading));
  const id = `call_${sha256Hex(`${name}\n${args}`).slice(0, 24)}`;
  return { role: 'assistant', content: null, refusal: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] };
}

function completion(model: string, messages: SimMessage[], promptTokens: number, message: AssistantMessage, finishReason = 'stop', reasoning?: Reasoning) {
  const reasoningTokens = reasoning?.tokens ?? 0;
  const completionTokens = countTokens(message.content ?? JSON.stringify(message.tool_calls)) + reasoningTokens;
  const details = reasoning?.reported ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {};
  return {
    id: `chatcmpl-${sha256Hex(canonicalJson({ model, messages, message })).slice(0, 24)}`,
    object: 'chat.completion',
    created: SIMULATOR_CREATED,
    model,
    system_fingerprint: 'verity-simulator',
    choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : finishReason }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens, ...details },
  };
}

/** A JSON answer cut in half, as a faulty model or proxy might send. */
export function malformedContent(response: SimResponse): SimResponse {
  const body = response.body as { choices?: { message: { content: string | null } }[] };
  const message = body.choices?.[0]?.message;
  if (message) message.content = (message.content ?? '{"label": "SUPPORTED", "rationale": "').slice(0, 20).replace(/}+$/, '') + ' <<truncated';
  return response;
}
