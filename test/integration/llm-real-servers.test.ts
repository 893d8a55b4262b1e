import type { ApplicationFailure } from '@temporalio/common';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AGENT_ROLES } from '../../src/config/config';
import { LlmContextExceededError, LlmOutputInvalidError, toTemporalFailure } from '../../src/llm/errors';
import { type CompletionRequest, LlmGateway } from '../../src/llm/gateway';
import { parseEvidence, renderClaim, renderEvidence } from '../../src/llm/prompt-conventions';
import type { ChatMessage } from '../../src/llm/types';
import { FAILURE_TYPES } from '../../src/shared/constants';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/server';

/** The gateway against the simulator playing the servers real models run on, over HTTP. */

const strictVerdict = z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), evidence_ids: z.array(z.string()), rationale: z.string() });
/** Breaks OpenAI's strict rules (an optional property), as MERMAID's schemas did. */
const looseVerdict = z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), rationale: z.string().optional() });

const PARIS = { id: 'Paris#0', text: 'Paris is the capital and most populous city of France.' };
const filler = (i: number) => ({ id: `Filler${i}#0`, text: `Filler passage ${i} about French cities, rivers, bridges and museums. `.repeat(5).trim() });

function messages(passages: { id: string; text: string }[], system = 'Decide whether the evidence supports the claim.'): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: `${renderClaim('Paris is the capital of France.')}\n\n${renderEvidence(passages)}` },
  ];
}

function request<T>(schema: z.ZodType<T>, extra: Partial<CompletionRequest<T>> = {}): CompletionRequest<T> {
  return { role: 'judge', messages: messages([PARIS]), schema, schemaName: 'verdict', promptVersion: 'test@1', ...extra };
}

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});

async function simulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ keepBodies: true, ...options });
  simulators.push(sim);
  return sim;
}

function gatewayFor(sim: RunningSimulator, contextTokens?: number): LlmGateway {
  return new LlmGateway({
    endpoint: { baseUrl: sim.url, apiKey: 'sim' },
    endpointIdentity: { provider: 'simulator' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as Record<(typeof AGENT_ROLES)[number], string>,
    temperature: 0,
    seed: 7,
    timeoutMs: 5_000,
    prices: {},
    ...(contextTokens !== undefined ? { contextTokens } : {}),
  });
}

const chatRequests = (sim: RunningSimulator) => sim.requests().filter((r) => r.path === '/v1/chat/completions');
const sentBodies = (sim: RunningSimulator) => sim.arrivals().flatMap((a) => (a.body ? [JSON.parse(a.body) as { response_format?: { type: string }; messages: ChatMessage[] }] : []));

async function failureOf(promise: Promise<unknown>): Promise<{ error: unknown; failure: ApplicationFailure }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeDefined();
  return { error, failure: toTemporalFailure(error) };
}

describe('response_format fallback, per request', () => {
  it('llama-cpp-python (500 on json_schema): the same request goes on with json_object at once, one request per form, counted per model', async () => {
    const sim = await simulator({ profile: 'llama-cpp-python' });
    const gateway = gatewayFor(sim);
    const first = await gateway.complete(request(strictVerdict));
    const second = await gateway.complete({ ...request(strictVerdict), model: 'gpt-4o' });
    const third = await gateway.complete(request(strictVerdict, { messages: messages([PARIS, filler(1)]) }));
    for (const result of [first, second, third]) expect(result).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'json_object' });
    expect(chatRequests(sim).map((r) => r.status)).toEqual([500, 200, 500, 200, 500, 200]);
    expect(sentBodies(sim).map((b) => b.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_schema', 'json_object', 'json_schema', 'json_object']);
    expect(gateway.counters.responseFormatFallbacks).toEqual({ 'gpt-4o-mini': { json_object: 2 }, 'gpt-4o': { json_object: 1 } });
  });

  it("OpenAI (400 on a schema breaking the strict rules): json_object with the schema in the prompt; a strict schema stays on json_schema", async () => {
    const sim = await simulator();
    const gateway = gatewayFor(sim);
    expect(await gateway.complete(request(looseVerdict))).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'json_object' });
    expect(await gateway.complete(request(strictVerdict))).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'json_schema' });
    expect(chatRequests(sim).map((r) => r.status)).toEqual([400, 200, 200]);
    const [, withSchemaInPrompt] = sentBodies(sim);
    expect(withSchemaInPrompt!.messages.at(-1)!.content).toMatch(/^Answer with a single JSON object that matches this JSON schema:\n```json\n\{"title":"verdict"/);
  });

  it('a server that ignores response_format (prose and a ```json fence) is answered on json_schema without a fallback', async () => {
    const sim = await simulator({ profile: 'prose' });
    const gateway = gatewayFor(sim);
    expect(await gateway.complete(request(strictVerdict))).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'json_schema' });
    expect(gateway.counters.responseFormatFallbacks).toEqual({});
  });

  it('the form used is not part of the answer identity: the request hash is the same on every server', async () => {
    const strict = await gatewayFor(await simulator()).complete(request(strictVerdict));
    const fallback = await gatewayFor(await simulator({ profile: 'no-response-format' })).complete(request(strictVerdict));
    expect(fallback.responseFormat).toBe('prompt');
    expect(fallback.requestHash).toBe(strict.requestHash);
  });
});

describe('cut-off answers', () => {
  it('a looping model ended by max_tokens is LlmOutputInvalid saying it was cut off, with the raw excerpt, never retried', async () => {
    const sim = await simulator({ profile: 'loop' });
    const gateway = gatewayFor(sim);
    const { error, failure } = await failureOf(gateway.complete(request(strictVerdict, { sampling: { maxTokens: 64 } })));
    expect(error).toBeInstanceOf(LlmOutputInvalidError);
    expect((error as LlmOutputInvalidError).message).toBe("gpt-4o-mini's answer was cut off at max_tokens 64 after 64 tokens (finish_reason length)");
    expect((error as LlmOutputInvalidError).rawExcerpt).toMatch(/^\{"rationale": "/);
    expect(failure).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.llmOutputInvalid });
    expect(chatRequests(sim)).toHaveLength(1);
    expect(gateway.counters).toMatchObject({ cutOffAnswers: 1, invalidOutputs: 1 });
  });

  it('an answer longer than max_tokens is cut off even when what arrived parses', async () => {
    const sim = await simulator();
    const { error } = await failureOf(gatewayFor(sim).complete(request(strictVerdict, { sampling: { maxTokens: 4 } })));
    expect((error as Error).message).toMatch(/cut off at max_tokens 4/);
    expect((error as Error).message).not.toMatch(/JSON/);
  });
});

describe('context budgets', () => {
  const twenty = [PARIS, ...Array.from({ length: 19 }, (_, i) => filler(i + 1))];

  it('asks llama.cpp for its window once per model and trims k = 20 evidence to fit 2,048 tokens, with a note', async () => {
    const sim = await simulator({ profile: 'llama.cpp', contextTokens: 2048 });
    const gateway = gatewayFor(sim);
    const result = await gateway.complete(request(strictVerdict, { messages: messages(twenty), sampling: { maxTokens: 512 } }));
    const sent = parseEvidence(sentBodies(sim)[0]!.messages[1]!.content);
    expect(sent.length).toBeLessThan(20);
    expect(sent[0]!.id).toBe('Paris#0');
    expect(result.promptNote).toMatch(new RegExp(`^evidence trimmed: 20 → ${sent.length} passages(, 1 truncated)? to fit 2,048-token window$`));
    expect(result.output.label).toBe('SUPPORTED');
    await gateway.complete(request(strictVerdict, { messages: messages([...twenty].reverse()), sampling: { maxTokens: 512 } }));
    expect(sim.requests().filter((r) => r.path === '/v1/models')).toHaveLength(1);
    await gateway.complete(request(strictVerdict, { messages: messages(twenty), sampling: { maxTokens: 512 }, model: 'gpt-4o' }));
    expect(sim.requests().filter((r) => r.path === '/v1/models')).toHaveLength(2);
    expect(gateway.counters.promptsTrimmed).toBe(3);
  });

  it('a prompt that cannot fit even without evidence fails at once, non-retryably, in one line naming the window', async () => {
    const sim = await simulator({ profile: 'llama.cpp', contextTokens: 2048 });
    const long = messages(twenty, 'Follow these instructions carefully. '.repeat(250));
    const { error, failure } = await failureOf(gatewayFor(sim).complete(request(strictVerdict, { messages: long, sampling: { maxTokens: 512 } })));
    expect(error).toBeInstanceOf(LlmContextExceededError);
    expect(failure).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.llmContextExceeded });
    expect(failure.message).toMatch(/^the prompt does not fit gpt-4o-mini's 2,048-token context window even without evidence: ~[\d,]+ prompt tokens \(estimated\) \+ 512 for the answer \(max_tokens\)/);
    expect(failure.message).not.toContain('\n');
    expect(chatRequests(sim)).toHaveLength(0);
  });

  it("VERITY_LLM_CONTEXT_TOKENS wins over the server; llama.cpp's own overflow 400 is non-retryable and names its n_ctx", async () => {
    const sim = await simulator({ profile: 'llama.cpp', contextTokens: 300 });
    const gateway = gatewayFor(sim, 100_000);
    const { failure } = await failureOf(gateway.complete(request(strictVerdict, { messages: messages(twenty) })));
    expect(failure).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.llmContextExceeded });
    expect(failure.message).toMatch(/^the prompt is longer than gpt-4o-mini's context window \(300 tokens\), the server says: .*400 the request exceeds the available context size/);
    expect(chatRequests(sim)).toHaveLength(1);
    expect(sim.requests().filter((r) => r.path === '/v1/models')).toHaveLength(0);
  });

  it("OpenAI's 400 context_length_exceeded is non-retryable and never taken for a response_format refusal", async () => {
    const sim = await simulator({ contextTokens: 200 });
    const { failure } = await failureOf(gatewayFor(sim).complete(request(strictVerdict, { messages: messages(twenty) })));
    expect(failure).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.llmContextExceeded });
    expect(failure.message).toMatch(/maximum context length is 200 tokens/);
    expect(chatRequests(sim)).toHaveLength(1);
  });
});
