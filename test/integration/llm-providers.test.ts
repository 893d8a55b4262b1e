import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { z } from 'zod';
import { AGENT_ROLES } from '../../src/config/config';
import { capabilitiesOf, DEFAULT_REASONING_MULTIPLIER } from '../../src/llm/capabilities';
import { projectRoot } from '../../src/project-root';
import type { ServerProfile } from '../../src/simulator/profiles';
import { LlmParameterRefusedError, toTemporalFailure } from '../../src/llm/errors';
import { type CompletionRequest, LlmGateway } from '../../src/llm/gateway';
import { renderClaim, renderEvidence } from '../../src/llm/prompt-conventions';
import { FAILURE_TYPES } from '../../src/shared/constants';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/server';

/** The gateway against the simulator playing the providers' servers (capabilities.ts), over HTTP: requests each accepts. */

const verdict = z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), evidence_ids: z.array(z.string()), rationale: z.string() });
const PARIS = { id: 'Paris#0', text: 'Paris is the capital and most populous city of France.' };

function request(model: string, maxTokens = 200): CompletionRequest<z.infer<typeof verdict>> {
  return {
    role: 'judge',
    model,
    messages: [
      { role: 'system', content: 'Decide whether the evidence supports the claim.' },
      { role: 'user', content: `${renderClaim('Paris is the capital of France.')}\n\n${renderEvidence([PARIS])}` },
    ],
    schema: verdict,
    schemaName: 'verdict',
    promptVersion: 'test@1',
    sampling: { maxTokens },
  };
}

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});

async function simulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const sim = await startSimulator({ keepBodies: true, ...options });
  simulators.push(sim);
  return sim;
}

function gatewayFor(sim: RunningSimulator, reasoningMultipliers?: Record<string, number>): LlmGateway {
  return new LlmGateway({
    endpoint: { baseUrl: sim.url, apiKey: 'sim' },
    endpointIdentity: { provider: 'simulator' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as Record<(typeof AGENT_ROLES)[number], string>,
    temperature: 0,
    seed: 7,
    timeoutMs: 5_000,
    prices: { 'gpt-5-mini': { input: 0.25, output: 2 } },
    ...(reasoningMultipliers ? { reasoningMultipliers } : {}),
  });
}

const chatStatuses = (sim: RunningSimulator) => sim.requests().filter((r) => r.path === '/v1/chat/completions').map((r) => r.status);
const sentBodies = (sim: RunningSimulator) => sim.arrivals().flatMap((a) => (a.body ? [JSON.parse(a.body) as Record<string, unknown>] : []));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeDefined();
  return error;
}

describe('OpenAI reasoning models (openai-reasoning profile)', () => {
  it('gpt-5-mini is asked with max_completion_tokens and its reasoning allowance, no temperature: one request, reasoning tokens counted and priced as output', async () => {
    const sim = await simulator({ profile: 'openai-reasoning' });
    const result = await gatewayFor(sim).complete(request('gpt-5-mini'));
    expect(result.output.label).toBe('SUPPORTED');
    expect(chatStatuses(sim)).toEqual([200]);
    const [sent] = sentBodies(sim);
    expect(sent).toMatchObject({ max_completion_tokens: 200 * DEFAULT_REASONING_MULTIPLIER });
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent).not.toHaveProperty('temperature');
    expect(result.usage.reasoningTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBeGreaterThan(result.usage.reasoningTokens!);
    expect(result.usage.costUsd).toBeCloseTo((result.usage.promptTokens * 0.25 + result.usage.completionTokens * 2) / 1e6, 12);
  });

  it('a reasoning allowance of 1 leaves the reasoning no room: the answer is cut off, and the error says the cap and the reasoning', async () => {
    const sim = await simulator({ profile: 'openai-reasoning' });
    const error = await rejection(gatewayFor(sim, { 'gpt-5-mini': 1 }).complete(request('gpt-5-mini', 150)));
    expect((error as Error).message).toMatch(/cut off at max_completion_tokens 150 after 150 tokens, 150 of them reasoning/);
  });

  it("a model the table does not know is adapted once (max_tokens → max_completion_tokens), then a refused temperature stops it as a configuration error naming both", async () => {
    const sim = await simulator({ profile: 'openai-reasoning' });
    const error = await rejection(gatewayFor(sim).complete(request('my-reasoner')));
    expect(error).toBeInstanceOf(LlmParameterRefusedError);
    expect((error as Error).message).toMatch(/^my-reasoner refuses the request parameter 'temperature': /);
    expect(chatStatuses(sim)).toEqual([400, 400]);
    expect(sentBodies(sim).map((b) => 'max_completion_tokens' in b)).toEqual([false, true]);
    const failure = toTemporalFailure(error);
    expect(failure).toMatchObject({ type: FAILURE_TYPES.configuration, nonRetryable: true });
  });
});

describe('other providers', () => {
  it('a server refusing a parameter nobody foresaw (seed) fails at once as a one-line configuration error, no retry, no fallback', async () => {
    const sim = await simulator({ profile: 'no-seed' });
    const error = await rejection(gatewayFor(sim).complete(request('gpt-4o-mini')));
    expect((error as Error).message).toBe("gpt-4o-mini refuses the request parameter 'seed': 400 Unsupported parameter: 'seed' is not supported with this model. (add the model's row to src/llm/capabilities.ts or change the configuration)");
    expect(chatStatuses(sim)).toEqual([400]);
    expect(toTemporalFailure(error)).toMatchObject({ type: FAILURE_TYPES.configuration, nonRetryable: true });
  });

  it.each([
    ['gpt-oss-vllm', 'openai/gpt-oss-20b'],
    ['ollama', 'gpt-oss:20b'],
    ['gemini-compat', 'gemini-2.5-flash'],
  ] as const)('%s: %s answers within its reasoning allowance under max_tokens', async (profile, model) => {
    const sim = await simulator({ profile });
    const result = await gatewayFor(sim).complete(request(model, 150));
    expect(result.output.label).toBe('SUPPORTED');
    expect(sentBodies(sim)[0]).toMatchObject({ max_tokens: 150 * (model.startsWith('gemini') ? 4 : DEFAULT_REASONING_MULTIPLIER) });
  });

  it('gpt-oss on vLLM with the old cap (150 tokens) is cut off by its reasoning', async () => {
    const sim = await simulator({ profile: 'gpt-oss-vllm' });
    const error = await rejection(gatewayFor(sim, { 'openai/gpt-oss-20b': 1 }).complete(request('openai/gpt-oss-20b', 150)));
    expect((error as Error).message).toMatch(/cut off at max_tokens 150/);
  });

  it('anthropic-compat (response_format and seed ignored): Claude is asked with the schema in the prompt and no seed', async () => {
    const sim = await simulator({ profile: 'anthropic-compat' });
    const result = await gatewayFor(sim).complete(request('claude-sonnet-4-5'));
    expect(result).toMatchObject({ output: { label: 'SUPPORTED' }, responseFormat: 'prompt', firstResponseFormat: 'prompt' });
    const [sent] = sentBodies(sim);
    expect(sent).not.toHaveProperty('seed');
    expect(sent).not.toHaveProperty('response_format');
  });
});

/** The simulator profile that plays the server of each capability-table row. */
const PROFILE_OF_FAMILY: Record<string, ServerProfile> = {
  'openai-reasoning': 'openai-reasoning',
  'gpt-oss': 'gpt-oss-vllm',
  'anthropic-compat': 'anthropic-compat',
  'gemini-compat': 'gemini-compat',
  'openai-chat': 'openai',
};

const SWEEPS = path.join(projectRoot(), 'eval', 'sweeps');
const sweepModels = fs
  .readdirSync(SWEEPS)
  .filter((name) => /\.ya?ml$/.test(name))
  .flatMap((name) => ((YAML.parse(fs.readFileSync(path.join(SWEEPS, name), 'utf8')) as { models?: string[] }).models ?? []).map((model) => [name, model] as const));

describe('every model a committed sweep names, against the profile of its server', () => {
  it.each(sweepModels)('%s: %s is answered at once, never refused, with its reasoning counted', async (_sweep, model) => {
    const family = capabilitiesOf(model).family;
    const sim = await simulator({ profile: PROFILE_OF_FAMILY[family]! });
    const result = await gatewayFor(sim).complete(request(model, 150));
    expect(result.output.label).toBe('SUPPORTED');
    expect(chatStatuses(sim)).toEqual([200]);
    if (family === 'openai-reasoning') expect(result.usage.reasoningTokens).toBeGreaterThan(0);
  });
});
