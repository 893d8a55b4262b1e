import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { type CanonicalLlmRequest, llmRequestHash } from '../../src/llm/cache';
import { CAPABILITY_TABLE, capabilitiesOf, DEFAULT_REASONING_MULTIPLIER } from '../../src/llm/capabilities';
import { classifyError, LlmParameterRefusedError, refusedParameterOf } from '../../src/llm/errors';
import { bodyFor, messagesFor } from '../../src/llm/response-format';
import { parseReasoningMultipliers } from '../../src/config/config';
import { FAILURE_TYPES } from '../../src/shared/constants';
import { answerChat } from '../../src/simulator/chat-completions';
import { chatSettingsOf } from '../../src/simulator/profiles';

const apiError = (status: number, error: Record<string, unknown>) => APIError.generate(status, { error }, undefined, new Headers());

const request = (model: string): CanonicalLlmRequest => ({
  endpoint: { provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1' },
  model,
  messages: [{ role: 'user', content: 'Claim: x' }],
  schemaName: 'verdict',
  jsonSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false },
  temperature: 0,
  seed: 7,
  topP: 0.9,
  maxTokens: 256,
  promptVersion: 't@1',
});

const body = (model: string, multipliers?: Record<string, number>) => {
  const r = request(model);
  return bodyFor(r, 'json_schema', messagesFor(r, 'json_schema'), capabilitiesOf(model, multipliers));
};

describe('capability table', () => {
  it.each([
    ['gpt-5-mini', 'openai-reasoning'],
    ['gpt-5', 'openai-reasoning'],
    ['gpt-5.1-2025-11-13', 'openai-reasoning'],
    ['o3-mini', 'openai-reasoning'],
    ['o4-mini-2025-04-16', 'openai-reasoning'],
    ['o1', 'openai-reasoning'],
    ['openai/gpt-oss-20b', 'gpt-oss'],
    ['gpt-oss:20b', 'gpt-oss'],
    ['claude-sonnet-4-5', 'anthropic-compat'],
    ['gemini-2.5-flash', 'gemini-compat'],
    ['gpt-4o', 'openai-chat'],
    ['gpt-4o-mini', 'openai-chat'],
    ['gpt-4.1-2025-04-14', 'openai-chat'],
    ['meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', 'openai-chat'],
    ['omni-moderation-latest', 'openai-chat'],
  ])('%s is %s', (model, family) => {
    expect(capabilitiesOf(model).family).toBe(family);
  });

  it('names at least one https source per row, and ends with a row matching every model', () => {
    for (const row of CAPABILITY_TABLE) {
      expect(row.sources.length, row.family).toBeGreaterThan(0);
      for (const source of row.sources) expect(source).toMatch(/^https:\/\//);
    }
    expect(CAPABILITY_TABLE.at(-1)!.match.test('anything at all')).toBe(true);
  });

  it('takes a per-model reasoning multiplier over the table', () => {
    expect(capabilitiesOf('gpt-5-mini').reasoningMultiplier).toBe(DEFAULT_REASONING_MULTIPLIER);
    expect(capabilitiesOf('gpt-5-mini', { 'gpt-5-mini': 3 }).reasoningMultiplier).toBe(3);
    expect(parseReasoningMultipliers('gpt-5-mini=3, openai/gpt-oss-20b=6')).toEqual({ 'gpt-5-mini': 3, 'openai/gpt-oss-20b': 6 });
  });
});

describe('requests built from the table', () => {
  it('sends OpenAI chat models exactly what it always did (max_tokens, temperature, seed, top_p)', () => {
    const sent = body('gpt-4o');
    expect(Object.keys(sent)).toEqual(['model', 'messages', 'temperature', 'seed', 'top_p', 'max_tokens', 'response_format']);
    expect(sent).toMatchObject({ temperature: 0, seed: 7, top_p: 0.9, max_tokens: 256 });
  });

  it('sends reasoning models max_completion_tokens with the reasoning allowance, and no temperature or top_p', () => {
    const sent = body('gpt-5-mini');
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('top_p');
    expect(sent).toMatchObject({ max_completion_tokens: 256 * DEFAULT_REASONING_MULTIPLIER, seed: 7 });
    expect(body('gpt-5-mini', { 'gpt-5-mini': 2 })).toMatchObject({ max_completion_tokens: 512 });
  });

  it('gives gpt-oss its reasoning allowance under max_tokens, and leaves seed out for Anthropic (ignored there)', () => {
    expect(body('openai/gpt-oss-20b')).toMatchObject({ max_tokens: 256 * DEFAULT_REASONING_MULTIPLIER, temperature: 0 });
    expect(body('claude-sonnet-4-5')).not.toHaveProperty('seed');
    expect(capabilitiesOf('claude-sonnet-4-5').responseFormats).toEqual(['prompt']);
  });

  it('keeps the request hash (cache key) of every model: the table shapes the wire body, not the identity', () => {
    // The hash of this canonical request before the capability table existed (computed on the old code).
    expect(llmRequestHash(request('gpt-4o'))).toBe('b3e5e49ef24033d80d9ef3d1cb0890e55c26c4003cc4c5f752f2c0312b813d1c');
  });
});

describe("servers' refusals of a parameter", () => {
  it("reads the parameter out of OpenAI's 400s", () => {
    const maxTokens = apiError(400, {
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    expect(refusedParameterOf(maxTokens)).toBe('max_tokens');
    const temperature = apiError(400, { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", code: 'unsupported_value', param: 'temperature' });
    expect(refusedParameterOf(temperature)).toBe('temperature');
    expect(refusedParameterOf(apiError(400, { message: 'Unrecognized request argument supplied: foo' }))).toBe('foo');
    expect(refusedParameterOf(apiError(400, { message: "Invalid schema for response_format 'verdict'" }))).toBeUndefined();
    expect(refusedParameterOf(apiError(500, { message: "Unsupported parameter: 'x'" }))).toBeUndefined();
  });

  it('is a one-line configuration error naming the parameter and the model, never retried', () => {
    const err = new LlmParameterRefusedError('gpt-5-mini', 'seed', "Unsupported parameter: 'seed' is not supported\nwith this model.");
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(/^gpt-5-mini refuses the request parameter 'seed': /);
    expect(classifyError(err)).toMatchObject({ retryable: false, type: FAILURE_TYPES.configuration });
  });
});

describe('simulator: OpenAI profiles refuse what OpenAI refuses', () => {
  const messages = [{ role: 'user', content: 'Claim: Paris is in France.' }];
  type Refused = { status: number; body: { error: Record<string, unknown> } };

  it('answers a reasoning model under the default openai profile as OpenAI does (temperature, max_tokens)', () => {
    const openai = chatSettingsOf({ profile: 'openai' });
    const temperature = answerChat({ model: 'gpt-5-mini', messages, temperature: 0 }, openai) as Refused;
    expect(temperature.status).toBe(400);
    expect(temperature.body.error.param).toBe('temperature');
    const maxTokens = answerChat({ model: 'o3', messages, max_tokens: 100 }, openai) as Refused;
    expect(maxTokens.status).toBe(400);
    expect(maxTokens.body.error.param).toBe('max_tokens');
    // A chat model still takes both.
    expect((answerChat({ model: 'gpt-4o-mini', messages, temperature: 0, max_tokens: 100 }, openai) as Refused).status).toBe(200);
  });

  it.each(['openai', 'openai-reasoning'] as const)('%s: an argument the API does not have is a 400, at the top level and under json_schema', (profile) => {
    const settings = chatSettingsOf({ profile });
    const model = profile === 'openai' ? 'gpt-4o-mini' : 'gpt-5-mini';
    const unknown = answerChat({ model, messages, frobnicate: 1 } as never, settings) as Refused;
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({ message: 'Unrecognized request argument supplied: frobnicate', type: 'invalid_request_error', param: null, code: null });
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const nested = answerChat({ model, messages, response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema, bogus: 1 } as never } }, settings) as Refused;
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatchObject({ message: "Unknown parameter: 'response_format.json_schema.bogus'.", code: 'unknown_parameter' });
    expect((answerChat({ model, messages, response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema } } }, settings) as Refused).status).toBe(200);
  });

  it('other servers keep accepting their own extensions', () => {
    const vllm = chatSettingsOf({ profile: 'gpt-oss-vllm' });
    expect((answerChat({ model: 'gpt-oss-120b', messages, top_k: 20 } as never, vllm) as Refused).status).toBe(200);
  });
});

describe('simulator: the openai-reasoning profile', () => {
  const settings = chatSettingsOf({ profile: 'openai-reasoning' });
  const messages = [{ role: 'user', content: 'Claim: Paris is in France.' }];
  it("answers max_tokens and temperature with OpenAI's 400s verbatim", () => {
    const refused = answerChat({ model: 'gpt-5-mini', messages, max_tokens: 100 }, settings) as { status: number; body: { error: Record<string, unknown> } };
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    const temperature = answerChat({ model: 'gpt-5-mini', messages, temperature: 0 }, settings) as { body: { error: { message: string } } };
    expect(temperature.body.error.message).toBe("Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.");
  });

  it('reasons within max_completion_tokens: reports reasoning_tokens, and a cap too small for the reasoning leaves no answer', () => {
    const ok = answerChat({ model: 'gpt-5-mini', messages, max_completion_tokens: 4000 }, settings) as {
      body: { choices: { finish_reason: string; message: { content: string } }[]; usage: { completion_tokens: number; completion_tokens_details: { reasoning_tokens: number } } };
    };
    expect(ok.body.choices[0]!.finish_reason).toBe('stop');
    expect(ok.body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(ok.body.usage.completion_tokens).toBeGreaterThan(ok.body.usage.completion_tokens_details.reasoning_tokens);
    const short = answerChat({ model: 'gpt-5-mini', messages, max_completion_tokens: 100 }, settings) as { body: { choices: { finish_reason: string; message: { content: string } }[] } };
    expect(short.body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '' } });
  });
});
