/**
 * `verity doctor`: probes an OpenAI-compatible endpoint with tiny requests, built as the gateway
 * builds them (capabilities.ts), and says what works, what verity will use, and one line per problem
 * with its fix.
 */
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { CanonicalLlmRequest } from './cache';
import { capabilitiesOf, type ModelCapabilities } from './capabilities';
import { redactSecrets, refusedParameterOf } from './errors';
import { openAiClient, type LlmEndpoint } from './openai-client';
import { findPrice, type PriceTable, UNPRICED_ON_PURPOSE } from './prices';
import { bodyFor, messagesFor } from './response-format';
import type { ResponseFormat } from './types';

export type CheckName = 'models' | 'chat' | 'json_schema' | 'json_object' | 'tools' | 'seed' | 'reasoning tokens' | 'embeddings' | 'price';

export interface DoctorCheck {
  name: CheckName;
  /** null: not applicable (not probed, or the provider ignores it). */
  ok: boolean | null;
  detail: string;
  /** For a problem: what to do about it. */
  fix?: string;
}

export interface DoctorReport {
  baseUrl: string;
  model: string;
  family: string;
  /** What verity's requests to this model will be like. */
  uses: { tokenParameter: string; reasoningMultiplier: number; responseFormat: ResponseFormat | 'none'; omitted: string[] };
  checks: DoctorCheck[];
  problems: number;
}

export interface DoctorOptions {
  endpoint: LlmEndpoint;
  model: string;
  embeddingModel?: string;
  prices: PriceTable;
  /** The endpoint is verity's simulator (prices nothing on purpose). */
  simulated?: boolean;
  timeoutMs?: number;
  reasoningMultipliers?: Record<string, number>;
}

const PROBE_SCHEMA = { type: 'object', properties: { label: { type: 'string', enum: ['SUPPORTED', 'REFUTED', 'NEI'] }, rationale: { type: 'string' } }, required: ['label', 'rationale'], additionalProperties: false };

function probeRequest(model: string): CanonicalLlmRequest {
  return {
    endpoint: { provider: 'doctor' },
    model,
    messages: [
      { role: 'system', content: 'Decide whether the evidence supports the claim. Answer with a JSON object with the fields label and rationale.' },
      { role: 'user', content: 'Claim: Paris is the capital of France.\n\nEvidence:\n[Paris#0] Paris is the capital and most populous city of France.' },
    ],
    schemaName: 'verdict',
    jsonSchema: PROBE_SCHEMA,
    temperature: 0,
    seed: 7,
    maxTokens: 200,
    promptVersion: 'doctor@1',
  };
}

function firstLine(err: unknown, apiKey: string): string {
  return redactSecrets(String((err as Error).message ?? err).split('\n')[0] ?? '', apiKey);
}

export async function diagnoseEndpoint(options: DoctorOptions): Promise<DoctorReport> {
  const { endpoint, model } = options;
  const client = openAiClient(endpoint, options.timeoutMs ?? 30_000);
  const capabilities = capabilitiesOf(model, options.reasoningMultipliers);
  const checks: DoctorCheck[] = [];
  const request = probeRequest(model);

  checks.push(await probeModels(client, model, endpoint.apiKey));

  const formats: Partial<Record<ResponseFormat, boolean>> = {};
  const refused = new Set<string>();
  let usage: { completion_tokens_details?: { reasoning_tokens?: number } } | undefined;
  for (const format of ['json_schema', 'json_object', 'prompt'] as const) {
    const documented = capabilities.responseFormats.includes(format);
    const body = bodyFor(request, format, messagesFor(request, format), capabilities);
    try {
      const completion = await client.chat.completions.create(body);
      formats[format] = true;
      usage ??= completion.usage as typeof usage;
      if (format !== 'prompt') checks.push({ name: format, ok: documented ? true : null, detail: documented ? 'accepted' : `accepted, but ${capabilities.family} documents it as ignored: the schema goes in the prompt` });
    } catch (err) {
      formats[format] = false;
      const parameter = refusedParameterOf(err);
      const line = firstLine(err, endpoint.apiKey);
      if (parameter !== undefined) {
        if (refused.has(parameter)) continue;
        refused.add(parameter);
        checks.push({
          name: parameter === 'seed' ? 'seed' : 'chat',
          ok: false,
          detail: `the server refuses '${parameter}': ${line}`,
          fix: `add ${model}'s row to src/llm/capabilities.ts (or leave '${parameter}' out for it); verity stops a sweep on this refusal`,
        });
      } else if (format !== 'prompt') {
        checks.push({ name: format, ok: false, detail: line, fix: `verity falls back per request to the next form (json_object, then the schema in the prompt)` });
      }
    }
  }
  const responseFormat = capabilities.responseFormats.find((format) => formats[format]) ?? 'none';
  checks.splice(1, 0, {
    name: 'chat',
    ok: responseFormat !== 'none',
    detail: responseFormat !== 'none' ? `answers (${capabilities.tokenParameter}, structured output by ${responseFormat})` : 'no form of the request was answered',
    ...(responseFormat === 'none' ? { fix: 'check the model id, the key and the problems below' } : {}),
  });
  if (!checks.some((check) => check.name === 'seed')) {
    checks.push(
      capabilities.omittedParameters.includes('seed')
        ? { name: 'seed', ok: null, detail: `not sent: ${capabilities.family} documents it as ignored (answers are not reproducible by seed)` }
        : { name: 'seed', ok: responseFormat !== 'none', detail: responseFormat !== 'none' ? 'accepted' : 'not probed (no answer)' },
    );
  }
  const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens;
  checks.push(
    capabilities.reasoning
      ? { name: 'reasoning tokens', ok: true, detail: `${reasoningTokens !== undefined ? `${reasoningTokens} reported` : 'not reported (counted in completion tokens)'}; cap × ${capabilities.reasoningMultiplier} (VERITY_REASONING_MULTIPLIERS)` }
      : { name: 'reasoning tokens', ok: null, detail: reasoningTokens ? `${reasoningTokens} reported` : 'not a reasoning model' },
  );
  checks.push(await probeTools(client, request, capabilities, endpoint.apiKey));
  checks.push(await probeEmbeddings(client, options.embeddingModel ?? 'text-embedding-3-small', endpoint.apiKey));
  checks.push(priceCheck(model, options));

  const omitted = [...capabilities.omittedParameters];
  const problems = checks.filter((check) => check.ok === false).length;
  return { baseUrl: endpoint.baseUrl, model, family: capabilities.family, uses: { tokenParameter: capabilities.tokenParameter, reasoningMultiplier: capabilities.reasoningMultiplier, responseFormat, omitted }, checks, problems };
}

async function probeModels(client: OpenAI, model: string, apiKey: string): Promise<DoctorCheck> {
  try {
    const ids: string[] = [];
    for await (const entry of client.models.list()) ids.push(entry.id);
    if (ids.includes(model)) return { name: 'models', ok: true, detail: `${ids.length} listed, ${model} among them` };
    return { name: 'models', ok: null, detail: `${ids.length} listed, ${model} not among them (some servers list only their own names)` };
  } catch (err) {
    return { name: 'models', ok: null, detail: `GET /models failed: ${firstLine(err, apiKey)}` };
  }
}

async function probeTools(client: OpenAI, request: CanonicalLlmRequest, capabilities: ModelCapabilities, apiKey: string): Promise<DoctorCheck> {
  const body: ChatCompletionCreateParamsNonStreaming = {
    ...bodyFor(request, 'prompt', request.messages, capabilities),
    tools: [{ type: 'function', function: { name: 'search', description: 'Search for evidence.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } }],
  };
  try {
    const completion = await client.chat.completions.create(body);
    const called = (completion.choices[0]?.message.tool_calls?.length ?? 0) > 0;
    return { name: 'tools', ok: true, detail: called ? 'accepted, a tool was called' : 'accepted, no tool called' };
  } catch (err) {
    return { name: 'tools', ok: false, detail: firstLine(err, apiKey), fix: 'methods with tool calls (Tool-MAD, FIRE) need a model and server with function calling' };
  }
}

async function probeEmbeddings(client: OpenAI, model: string, apiKey: string): Promise<DoctorCheck> {
  try {
    const response = await client.embeddings.create({ model, input: ['probe'] });
    return { name: 'embeddings', ok: true, detail: `${model}: ${response.data[0]?.embedding.length ?? 0} dimensions` };
  } catch (err) {
    return { name: 'embeddings', ok: false, detail: `${model}: ${firstLine(err, apiKey)}`, fix: 'set VERITY_EMBEDDING_MODEL (and VERITY_EMBEDDING_BASE_URL) to a server with embeddings, or use BM25 retrieval' };
  }
}

function priceCheck(model: string, options: DoctorOptions): DoctorCheck {
  if (options.simulated) return { name: 'price', ok: null, detail: 'the simulator prices nothing' };
  const price = findPrice(model, options.prices);
  if (price) return { name: 'price', ok: true, detail: `$${price.input} input, $${price.output} output (reasoning billed as output) per 1M tokens` };
  const reason = Object.hasOwn(UNPRICED_ON_PURPOSE, model) ? UNPRICED_ON_PURPOSE[model] : undefined;
  return { name: 'price', ok: false, detail: `no price for ${model}${reason ? ` (${reason})` : ''}: its cost is reported as unknown and budgets cannot stop it`, fix: 'add {"<model>": {"input": …, "output": …}} to VERITY_PRICES_FILE' };
}

/** The report as text: what verity will use, one line per check, problems with their fix. */
export function renderDoctorReport(report: DoctorReport): string {
  const mark = (ok: boolean | null) => (ok === true ? 'ok  ' : ok === false ? 'FAIL' : '--  ');
  const { uses } = report;
  const lines = [
    `endpoint ${report.baseUrl}, model ${report.model} (${report.family})`,
    `verity will send: ${uses.tokenParameter} (task cap × ${uses.reasoningMultiplier}), structured output by ${uses.responseFormat}${uses.omitted.length > 0 ? `, without ${uses.omitted.join(', ')}` : ''}`,
    ...report.checks.map((check) => `${mark(check.ok)} ${check.name.padEnd(16)} ${check.detail}${check.fix ? `\n     fix: ${check.fix}` : ''}`),
    report.problems === 0 ? 'no problems' : `${report.problems} problem${report.problems === 1 ? '' : 's'}`,
  ];
  return lines.join('\n');
}
