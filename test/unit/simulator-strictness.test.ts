import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderClaim, renderEvidence, renderJsonSchemaInstruction } from '../../src/llm/prompt-conventions';
import { jsonSchemaOf } from '../../src/llm/structured-output';
import { cutToTokens } from '../../src/simulator/answer-limits';
import { answerChat, type ChatRequestBody } from '../../src/simulator/chat-completions';
import { chatSettingsOf, type ServerProfile } from '../../src/simulator/profiles';
import { countTokens } from '../../src/simulator/text';

const strictVerdict = jsonSchemaOf(z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), rationale: z.string() }));
const looseVerdict = jsonSchemaOf(z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), rationale: z.string().optional() }));
const USER = `${renderClaim('Paris is the capital of France.')}\n\n${renderEvidence([{ id: 'Paris#0', text: 'Paris is the capital and most populous city of France.' }])}`;

function chat(body: Partial<ChatRequestBody>, options: { profile?: ServerProfile; contextTokens?: number; strictSchemas?: boolean } = {}) {
  const response = answerChat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: USER }], ...body }, chatSettingsOf(options));
  return response as { status: number; body: { error?: Record<string, unknown>; choices?: { message: { content: string }; finish_reason: string }[]; usage?: { completion_tokens: number } } };
}

const jsonSchema = (schema: unknown, strict = true) => ({ response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema, strict } } });

describe('simulator: strict structured outputs (openai profile, the default)', () => {
  it("rejects a schema breaking OpenAI's strict rules with OpenAI's 400, naming the violation", () => {
    const response = chat(jsonSchema(looseVerdict));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'response_format' });
    expect(response.body.error?.message).toMatch(/^Invalid schema for response_format 'verdict': \$\.properties\.rationale: every property must be required/);
  });

  it('answers a strict schema, and a loose one when strict is false or strictness is off', () => {
    expect(JSON.parse(chat(jsonSchema(strictVerdict)).body.choices![0]!.message.content)).toMatchObject({ label: 'SUPPORTED' });
    expect(chat(jsonSchema(looseVerdict, false)).status).toBe(200);
    expect(chat(jsonSchema(looseVerdict), { strictSchemas: false }).status).toBe(200);
    expect(chat(jsonSchema(looseVerdict), { profile: 'llama.cpp' }).status).toBe(200);
  });
});

describe('simulator: max_tokens', () => {
  it('cuts a longer answer to max_tokens with finish_reason length', () => {
    const full = chat(jsonSchema(strictVerdict)).body.choices![0]!;
    expect(full.finish_reason).toBe('stop');
    const cut = chat({ ...jsonSchema(strictVerdict), max_tokens: 5 }).body;
    expect(cut.choices![0]!.finish_reason).toBe('length');
    expect(countTokens(cut.choices![0]!.message.content)).toBe(5);
    expect(full.message.content.startsWith(cut.choices![0]!.message.content)).toBe(true);
    expect(cut.usage?.completion_tokens).toBe(5);
    expect(chat({ ...jsonSchema(strictVerdict), max_completion_tokens: 3 }).body.choices![0]!.finish_reason).toBe('length');
  });

  it('cuts text after its Nth whitespace token, keeping the text between', () => {
    expect(cutToTokens('a  b\nc d', 3)).toEqual({ text: 'a  b\nc', cut: true });
    expect(cutToTokens('a b', 2)).toEqual({ text: 'a b', cut: false });
  });
});

describe('simulator: context window', () => {
  it("answers a prompt longer than the window with OpenAI's 400 context_length_exceeded, max_tokens counted in", () => {
    const prompt = countTokens(USER);
    expect(chat({}, { contextTokens: prompt }).status).toBe(200);
    const overflow = chat({ max_tokens: 10 }, { contextTokens: prompt });
    expect(overflow.status).toBe(400);
    expect(overflow.body.error).toMatchObject({ type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' });
    expect(overflow.body.error?.message).toBe(
      `This model's maximum context length is ${prompt} tokens. However, you requested ${prompt + 10} tokens (${prompt} in the messages, 10 in the completion). Please reduce the length of the messages or completion.`,
    );
  });

  it("answers as llama.cpp does under its profile: the prompt alone against n_ctx, exceed_context_size_error", () => {
    const prompt = countTokens(USER);
    expect(chat({ max_tokens: 1000 }, { profile: 'llama.cpp', contextTokens: prompt }).status).toBe(200);
    const overflow = chat({}, { profile: 'llama.cpp', contextTokens: prompt - 1 });
    expect(overflow).toMatchObject({
      status: 400,
      body: { error: { code: 400, type: 'exceed_context_size_error', message: 'the request exceeds the available context size, try increasing it', n_prompt_tokens: prompt, n_ctx: prompt - 1 } },
    });
  });
});

describe('simulator: server profiles', () => {
  it('llama-cpp-python answers json_schema with a 500 naming response_format, and json_object with JSON', () => {
    const rejected = chat(jsonSchema(strictVerdict), { profile: 'llama-cpp-python' });
    expect(rejected.status).toBe(500);
    expect(rejected.body.error?.message).toMatch(/response_format/);
    const messages = [
      { role: 'user', content: USER },
      { role: 'system', content: renderJsonSchemaInstruction(strictVerdict, 'verdict') },
    ];
    const answered = chat({ messages, response_format: { type: 'json_object' } }, { profile: 'llama-cpp-python' });
    expect(JSON.parse(answered.body.choices![0]!.message.content)).toMatchObject({ label: 'SUPPORTED' });
  });

  it('no-response-format answers json_schema and json_object with a 400 naming response_format, the schema in the prompt with JSON in prose', () => {
    expect(chat(jsonSchema(strictVerdict), { profile: 'no-response-format' })).toMatchObject({ status: 400, body: { error: { param: 'response_format' } } });
    expect(chat({ response_format: { type: 'json_object' } }, { profile: 'no-response-format' })).toMatchObject({ status: 400, body: { error: { param: 'response_format' } } });
    const messages = [
      { role: 'user', content: USER },
      { role: 'system', content: renderJsonSchemaInstruction(strictVerdict, 'verdict') },
    ];
    expect(chat({ messages }, { profile: 'no-response-format' }).body.choices![0]!.message.content).toMatch(/```json\n\{"label":"SUPPORTED"/);
  });

  it('prose ignores response_format and wraps the JSON in prose and a ```json fence', () => {
    const content = chat(jsonSchema(looseVerdict), { profile: 'prose' }).body.choices![0]!.message.content;
    expect(content).toMatch(/^Here is my assessment\.\n```json\n\{.*\}\n```\nI hope this helps\.$/);
  });

  it('loop repeats itself until max_tokens, finish_reason length', () => {
    const looped = chat({ ...jsonSchema(strictVerdict), max_tokens: 60 }, { profile: 'loop' }).body.choices![0]!;
    expect(looped.finish_reason).toBe('length');
    expect(countTokens(looped.message.content)).toBe(60);
    expect(looped.message.content).toMatch(/^\{"rationale": "(.+) \1/);
  });
});
