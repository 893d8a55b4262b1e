import { APIConnectionError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { CanonicalLlmRequest } from '../../src/llm/cache';
import { classifyError, isContextOverflow } from '../../src/llm/errors';
import { parseJsonSchemaInstruction } from '../../src/llm/prompt-conventions';
import { bodyFor, messagesFor, rejectsResponseFormat, RESPONSE_FORMATS } from '../../src/llm/response-format';
import { FAILURE_TYPES } from '../../src/shared/constants';

const apiError = (status: number, error: Record<string, unknown>) => APIError.generate(status, { error }, undefined, new Headers());

const request: CanonicalLlmRequest = {
  endpoint: { provider: 'simulator' },
  model: 'm',
  messages: [{ role: 'user', content: 'Claim: x' }],
  schemaName: 'verdict',
  jsonSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false },
  temperature: 0,
  seed: 7,
  maxTokens: 256,
  promptVersion: 't@1',
};

describe('response formats', () => {
  it('asks json_schema first, then json_object and the prompt, with the schema (titled by its name) in the prompt of both fallbacks', () => {
    expect(RESPONSE_FORMATS).toEqual(['json_schema', 'json_object', 'prompt']);
    const [schema, object, prompt] = RESPONSE_FORMATS.map((format) => bodyFor(request, format, messagesFor(request, format)));
    expect(schema).toMatchObject({ max_tokens: 256, response_format: { type: 'json_schema', json_schema: { name: 'verdict', strict: true } } });
    expect(schema!.messages).toHaveLength(1);
    expect(object!.response_format).toEqual({ type: 'json_object' });
    expect(prompt).not.toHaveProperty('response_format');
    for (const body of [object!, prompt!]) {
      expect(parseJsonSchemaInstruction(String(body.messages.at(-1)!.content))).toEqual({ title: 'verdict', ...request.jsonSchema as object });
    }
  });

  it.each([
    [400, { message: "Invalid schema for response_format 'verdict': ..." }],
    [500, { message: "response_format of type 'json_schema' failed" }],
    [422, { message: 'json_object is not supported' }],
  ])('takes a %i naming response_format/json_schema/json_object as a refusal of the form', (status, error) => {
    expect(rejectsResponseFormat(apiError(status, error))).toBe(true);
  });

  it('does not take an outage, a rate limit or a context overflow for a refusal', () => {
    expect(rejectsResponseFormat(apiError(500, { message: 'The server had an error' }))).toBe(false);
    expect(rejectsResponseFormat(apiError(429, { message: 'slow down on response_format' }))).toBe(false);
    expect(rejectsResponseFormat(new APIConnectionError({ message: 'response_format' }))).toBe(false);
    const overflow = apiError(400, { message: "This model's maximum context length is 8192 tokens (including 40 in the response_format schemas)", code: 'context_length_exceeded' });
    expect(rejectsResponseFormat(overflow)).toBe(false);
  });
});

describe("servers' context overflow", () => {
  it.each([
    ['OpenAI', 400, { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded', type: 'invalid_request_error' }],
    ['llama.cpp', 400, { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_ctx: 2048 }],
    ['llama-cpp-python', 400, { message: 'Requested tokens (3000) exceed context window of 2048' }],
    ['a 500', 500, { message: 'input exceeds the context window' }],
  ])('%s is classified non-retryable LlmContextExceeded', (_server, status, error) => {
    const err = apiError(status, error);
    expect(isContextOverflow(err)).toBe(true);
    expect(classifyError(err)).toMatchObject({ retryable: false, type: FAILURE_TYPES.llmContextExceeded });
  });

  it('leaves other 400s and 500s alone', () => {
    expect(isContextOverflow(apiError(400, { message: 'bad temperature' }))).toBe(false);
    expect(classifyError(apiError(500, { message: 'boom' }))).toMatchObject({ retryable: true });
  });
});
