import { canonicalJson, sha256Hex } from '../llm/canonical-json';
import { responderFor } from './method-responders';
import { generateFromSchema } from './schema-generator';
import { readPrompt, type PromptReading, type SimMessage } from './prompt-reader';
import { countTokens } from './text';

/** How the simulator treats `response_format: json_schema` (to exercise the gateway's fallbacks). */
export type JsonSchemaMode = 'honor' | 'ignore' | 'reject';

export interface ChatRequestBody {
  model?: unknown;
  messages?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown } };
  tools?: { type?: string; function?: { name?: string; parameters?: unknown } }[];
}

export interface SimResponse {
  status: number;
  body: unknown;
}

/** A fixed `created` timestamp: the same request always gets byte-identical answers. */
const SIMULATOR_CREATED = 1_700_000_000;

export function invalidRequest(message: string, param?: string): SimResponse {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: param ?? null, code: null } } };
}

export function answerChat(body: ChatRequestBody, jsonSchemaMode: JsonSchemaMode): SimResponse {
  if (typeof body.model !== 'string' || !Array.isArray(body.messages)) return invalidRequest("'model' and 'messages' are required");
  const wantsJsonSchema = body.response_format?.type === 'json_schema';
  if (wantsJsonSchema && jsonSchemaMode === 'reject') {
    return invalidRequest("Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", 'response_format');
  }
  const messages = body.messages as SimMessage[];
  const reading = readPrompt(messages);
  const firstTool = body.tools?.[0]?.function;
  const message =
    firstTool?.name && !reading.hasToolResults
      ? toolCallMessage(firstTool.name, firstTool.parameters, reading)
      : { role: 'assistant', content: contentFor(body, messages, reading, jsonSchemaMode), refusal: null };
  return { status: 200, body: completion(body.model, messages, message) };
}

function contentFor(body: ChatRequestBody, messages: SimMessage[], reading: PromptReading, jsonSchemaMode: JsonSchemaMode): string {
  const schema = body.response_format?.json_schema?.schema ?? reading.schemaInPrompt;
  if (schema === undefined) {
    if (body.response_format?.type === 'json_object') return JSON.stringify(defaultJsonAnswer(reading));
    return `Verdict: ${reading.decision.label}. ${reading.rationale}`;
  }
  // Methods teach the simulator their protocols (ReAct steps, debates …) by schema name.
  const methodAnswer = responderFor(body.response_format?.json_schema?.name)?.(reading, schema, messages);
  const json = JSON.stringify(methodAnswer ?? generateFromSchema(schema, reading));
  const inProse = jsonSchemaMode !== 'honor' || body.response_format?.type !== 'json_schema';
  return inProse ? `Here is my assessment.\n\`\`\`json\n${json}\n\`\`\`\nI hope this helps.` : json;
}

function defaultJsonAnswer(reading: PromptReading) {
  return { label: reading.decision.label, rationale: reading.rationale, evidence_ids: reading.decision.citedIds };
}

function toolCallMessage(name: string, parameters: unknown, reading: PromptReading) {
  const args = JSON.stringify(generateFromSchema(parameters ?? { type: 'object', properties: {} }, reading));
  const id = `call_${sha256Hex(`${name}\n${args}`).slice(0, 24)}`;
  return { role: 'assistant', content: null, refusal: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] };
}

function completion(model: string, messages: SimMessage[], message: { content: string | null; tool_calls?: unknown[] }) {
  const promptTokens = messages.reduce((sum, m) => sum + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')), 0);
  const completionTokens = countTokens(message.content ?? JSON.stringify(message.tool_calls));
  return {
    id: `chatcmpl-${sha256Hex(canonicalJson({ model, messages, message })).slice(0, 24)}`,
    object: 'chat.completion',
    created: SIMULATOR_CREATED,
    model,
    system_fingerprint: 'verity-simulator',
    choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** A JSON answer cut in half, as a faulty model or proxy might send. */
export function malformedContent(response: SimResponse): SimResponse {
  const body = response.body as { choices?: { message: { content: string | null } }[] };
  const message = body.choices?.[0]?.message;
  if (message) message.content = (message.content ?? '{"label": "SUPPORTED", "rationale": "').slice(0, 20).replace(/}+$/, '') + ' <<truncated';
  return response;
}
