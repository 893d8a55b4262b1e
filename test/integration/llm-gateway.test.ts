import { randomBytes } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import type { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmActivities } from '../../activities/llm.activities';
import { AGENT_ROLES } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { LlmCache } from '../../src/llm/cache';
import { LlmCacheMissError, LlmOutputInvalidError, toTemporalFailure, TRANSIENT_FAILURE_TYPES } from '../../src/llm/errors';
import { LlmGateway } from '../../src/llm/gateway';
import { DEFAULT_PRICES } from '../../src/llm/prices';
import { renderClaim, renderEvidence } from '../../src/llm/prompt-conventions';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import type { ChatMessage } from '../../src/llm/types';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/server';
import { FAILURE_TYPES } from '../../src/shared/constants';

const verdictSchema = z.object({
  label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']),
  evidence_ids: z.array(z.string()),
  rationale: z.string(),
});

const EVIDENCE = [
  { id: 'Paris#0', text: 'Paris is the capital and most populous city of France.' },
  { id: 'Lyon#0', text: 'Lyon is the third-largest city of France.' },
];

function verdictPrompt(claim: string): ChatMessage[] {
  return [
    { role: 'system', content: 'Decide whether the evidence supports the claim.' },
    { role: 'user', content: `${renderClaim(claim)}\n\n${renderEvidence(EVIDENCE)}` },
  ];
}

const request = (claim: string) => ({
  role: 'judge' as const,
  messages: verdictPrompt(claim),
  schema: verdictSchema,
  schemaName: 'verdict',
  promptVersion: 'test@1',
});

const simulators: RunningSimulator[] = [];

async function simulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator(options);
  simulators.push(sim);
  return sim;
}

function gatewayFor(sim: RunningSimulator, extra: { cache?: LlmCache; timeoutMs?: number; endpointIdentity?: { provider: string; baseUrl?: string } } = {}): LlmGateway {
  return new LlmGateway({
    endpoint: { baseUrl: sim.url, apiKey: 'sim' },
    // The simulator is one identity wherever it listens (each test starts its own on a random port).
    endpointIdentity: extra.endpointIdentity ?? { provider: 'simulator' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as Record<(typeof AGENT_ROLES)[number], string>,
    temperature: 0,
    seed: 7,
    timeoutMs: extra.timeoutMs ?? 5_000,
    prices: DEFAULT_PRICES,
    cache: extra.cache,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the call to fail').toBeDefined();
  return toTemporalFailure(err);
}

const chatRequests = (sim: RunningSimulator) => sim.requests().filter((r) => r.path === '/v1/chat/completions');

afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});

describe('gateway against the simulator over HTTP', () => {
  it('round-trips structured output with usage and cost', async () => {
    const sim = await simulator();
    const result = await gatewayFor(sim).complete(request('Paris is the capital of France.'));
    expect(result.output).toMatchObject({ label: 'SUPPORTED', evidence_ids: ['Paris#0'] });
    expect(result.output.rationale).toContain('Paris#0');
    expect(result).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, seed: 7, promptVersion: 'test@1', cached: false });
    expect(result.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.usage.promptTokens).toBeGreaterThan(10);
    expect(result.usage.costUsd).toBeGreaterThan(0);
    expect(result.usage.priced).toBe(true);
  });

  it('accounts the cost an endpoint reports itself (usage.cost) over the price table', async () => {
    const sim = await simulator({ reportedCostUsd: 0.0123 });
    const result = await gatewayFor(sim).complete(request('Lyon is a city of France.'));
    expect(result.usage).toMatchObject({ costUsd: 0.0123, priced: true });
    expect(result.usage.promptTokens).toBeGreaterThan(10);
  });

  it('is deterministic and reads negation as REFUTED', async () => {
    const sim = await simulator();
    const gateway = gatewayFor(sim);
    const first = await gateway.complete(request('Paris is not the capital of France.'));
    const second = await gateway.complete(request('Paris is not the capital of France.'));
    expect(first.output.label).toBe('REFUTED');
    expect(second.output).toEqual(first.output);
  });

  it('extracts JSON from prose when the server ignores json_schema', async () => {
    const sim = await simulator({ profile: 'prose' });
    const result = await gatewayFor(sim).complete(request('Paris is the capital of France.'));
    expect(result.output.label).toBe('SUPPORTED');
  });

  it('asks each request in the next form when the server rejects json_schema, never switching it off for the model', async () => {
    const sim = await simulator({ profile: 'no-response-format' });
    const gateway = gatewayFor(sim);
    expect(await gateway.complete(request('Paris is the capital of France.'))).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'prompt' });
    expect(await gateway.complete(request('Lyon is a city of France.'))).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'prompt' });
    expect(chatRequests(sim).map((r) => r.status)).toEqual([400, 400, 200, 400, 400, 200]);
    expect(gateway.counters.responseFormatFallbacks).toEqual({ 'gpt-4o-mini': { json_object: 2, prompt: 2 } });
  });

  it.each([
    ['429', TRANSIENT_FAILURE_TYPES.rateLimited],
    ['500', TRANSIENT_FAILURE_TYPES.serverError],
  ] as const)('turns an injected %s into a retryable failure', async (kind, type) => {
    const sim = await simulator({ faults: [{ kind, everyNth: 1 }] });
    const failure = await failureOf(gatewayFor(sim).complete(request('Paris is the capital of France.')));
    expect(failure).toMatchObject({ nonRetryable: false, type });
    expect(chatRequests(sim)).toHaveLength(1); // maxRetries 0: Temporal is the only retry layer
  });

  it('turns a hanging server into a retryable timeout', async () => {
    const sim = await simulator({ faults: [{ kind: 'timeout', everyNth: 1 }] });
    const failure = await failureOf(gatewayFor(sim, { timeoutMs: 300 }).complete(request('Paris is the capital of France.')));
    expect(failure).toMatchObject({ nonRetryable: false, type: TRANSIENT_FAILURE_TYPES.timeout });
  });

  it('finishes a request already sent when the caller signal aborts (it is paid), and sends none after', async () => {
    const sim = await simulator({ latencyMs: 600 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const gateway = gatewayFor(sim);
    const answered = await gateway.complete({ ...request('Paris is the capital of France.'), signal: controller.signal });
    expect(answered.cached).toBe(false);
    expect(answered.usage.totalTokens).toBeGreaterThan(0);
    const chats = () => sim.requests().filter((r) => r.path.includes('chat/completions'));
    expect(chats().map((r) => r.status)).toEqual([200]);
    await expect(gateway.complete({ ...request('Berlin is the capital of Germany.'), signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(chats()).toHaveLength(1);
  });

  it('counts malformed JSON as LlmOutputInvalid, not retryable', async () => {
    const sim = await simulator({ faults: [{ kind: 'malformed', everyNth: 1 }] });
    const gateway = gatewayFor(sim);
    const pending = gateway.complete(request('Paris is the capital of France.'));
    await expect(pending).rejects.toBeInstanceOf(LlmOutputInvalidError);
    expect(gateway.counters.invalidOutputs).toBe(1);
    const failure = await failureOf(gateway.complete(request('Paris is the capital of France.')));
    expect(failure).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.llmOutputInvalid });
    expect(gateway.counters.invalidOutputs).toBe(2);
  });

  it('serves the openai SDK: tool calls, embeddings and models', async () => {
    const sim = await simulator();
    const client = new OpenAI({ apiKey: 'sim', baseURL: sim.url, maxRetries: 0 });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'wiki_search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
      },
    ];
    const messages = [{ role: 'user' as const, content: renderClaim('The Eiffel Tower is in Paris.') }];
    const call = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    const toolCall = call.choices[0]!.message.tool_calls![0]!;
    expect(call.choices[0]!.finish_reason).toBe('tool_calls');
    expect(toolCall.type === 'function' && JSON.parse(toolCall.function.arguments)).toEqual({ query: 'eiffel tower paris' });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools,
      messages: [
        ...messages,
        call.choices[0]!.message,
        { role: 'tool', tool_call_id: toolCall.id, content: 'The Eiffel Tower is a tower in Paris.' },
      ],
    });
    expect(answer.choices[0]!.message.content).toMatch(/^Verdict: SUPPORTED/);

    const embeddings = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['Paris', 'Paris'] });
    expect(embeddings.data[0]!.embedding).toHaveLength(256);
    expect(embeddings.data[0]!.embedding[0]).toBeCloseTo(embeddings.data[1]!.embedding[0]!, 6);
    expect((await client.models.list()).data.map((m) => m.id)).toContain('gpt-4o-mini');
  });
});

describe('llmTask activity (outside an activity context)', () => {
  registerTask(
    defineTask({
      id: 'test.verdict',
      version: '1',
      role: 'judge',
      schemaName: 'verdict',
      maxTokens: 400,
      variables: z.object({ claim: z.string().min(1) }),
      output: verdictSchema,
      render: ({ claim }) => verdictPrompt(claim),
    }),
  );

  it('renders, calls the gateway and returns a validated result', async () => {
    const { llmTask } = createLlmActivities({ gateway: gatewayFor(await simulator()) });
    const result = await llmTask({ task: 'test.verdict', variables: { claim: 'Paris is the capital of France.' } });
    expect(result).toMatchObject({ output: { label: 'SUPPORTED' }, promptVersion: 'test.verdict@1', cached: false });
  });

  it('fails non-retryably on an unknown task or bad variables', async () => {
    const { llmTask } = createLlmActivities({ gateway: gatewayFor(await simulator()) });
    expect(await failureOf(llmTask({ task: 'test.unknown', variables: {} }))).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.invalidInput });
    expect(await failureOf(llmTask({ task: 'test.verdict', variables: { claim: '' } }))).toMatchObject({
      nonRetryable: true,
      type: FAILURE_TYPES.invalidInput,
    });
  });
});

describe('request cache in Elasticsearch', () => {
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  let es: Client;

  beforeAll(() => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  });

  afterAll(async () => {
    await es.indices.delete({ index: indexName(prefix, 'llm-cache'), ignore_unavailable: true });
    await es.close();
  });

  it('readwrite: the second identical call is served from the cache without a request', async () => {
    const sim = await simulator();
    const gateway = gatewayFor(sim, { cache: new LlmCache(es, prefix, 'readwrite') });
    const first = await gateway.complete(request('Paris is the capital of France.'));
    const second = await gateway.complete(request('Paris is the capital of France.'));
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({ cached: true, output: first.output, requestHash: first.requestHash });
    expect(second.usage).toMatchObject({ promptTokens: first.usage.promptTokens, costUsd: 0 });
    expect(chatRequests(sim)).toHaveLength(1);
    expect(gateway.counters.cacheHits).toBe(1);
  });

  it('readwrite: a cached entry that no longer matches the schema is a miss, paid again and overwritten, never the model\'s invalid answer', async () => {
    const sim = await simulator();
    const cache = new LlmCache(es, prefix, 'readwrite');
    const gateway = gatewayFor(sim, { cache });
    const claim = 'Lyon is the third-largest city of France.';
    const first = await gateway.complete(request(claim));
    // Hand-edited: well-formed, but not this task's answer any more.
    await es.update({ index: cache.index, id: first.requestHash, doc: { output: { label: 'MAYBE' } }, refresh: 'wait_for' });
    const again = await gateway.complete(request(claim));
    expect(again).toMatchObject({ cached: false, output: first.output });
    expect(chatRequests(sim)).toHaveLength(2);
    expect(await gateway.complete(request(claim))).toMatchObject({ cached: true, output: first.output });
  });

  it('replay: a recorded request is served, a miss fails non-retryably without calling the model', async () => {
    const sim = await simulator();
    const gateway = gatewayFor(sim, { cache: new LlmCache(es, prefix, 'replay') });
    expect((await gateway.complete(request('Paris is the capital of France.'))).cached).toBe(true);
    const miss = gateway.complete(request('Lyon is the capital of France.'));
    await expect(miss).rejects.toBeInstanceOf(LlmCacheMissError);
    expect(await failureOf(gateway.complete(request('Lyon is the capital of France.')))).toMatchObject({
      nonRetryable: true,
      type: FAILURE_TYPES.llmCacheMiss,
    });
    expect(chatRequests(sim)).toHaveLength(0);
  });

  it('cachedAnswer: serves what complete() would serve from the cache, misses without a request, and never serves another endpoint\'s answer', async () => {
    const sim = await simulator();
    const gateway = gatewayFor(sim, { cache: new LlmCache(es, prefix, 'readwrite') });
    const paid = await gateway.complete(request('Berlin is the capital of Germany.'));
    expect(await gateway.cachedAnswer(request('Berlin is the capital of Germany.'))).toMatchObject({ cached: true, output: paid.output, requestHash: paid.requestHash });
    expect(await gateway.cachedAnswer(request('Bonn is the capital of Germany.'))).toBeUndefined();
    const other = gatewayFor(sim, { cache: new LlmCache(es, prefix, 'readwrite'), endpointIdentity: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1' } });
    expect(await other.cachedAnswer(request('Berlin is the capital of Germany.'))).toBeUndefined();
    expect(chatRequests(sim)).toHaveLength(1);
  });

  it("never serves one endpoint's recorded answers to another (the simulator's to a real endpoint, or back)", async () => {
    const sim = await simulator();
    const real = gatewayFor(sim, { cache: new LlmCache(es, prefix, 'replay'), endpointIdentity: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1' } });
    await expect(real.complete(request('Paris is the capital of France.'))).rejects.toBeInstanceOf(LlmCacheMissError);
    expect(chatRequests(sim)).toHaveLength(0);
  });
});

afterAll(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});
