import { describe, expect, it } from 'vitest';
import { type ChatCallRequest, chatRequestAttributes, chatResponseAttributes, chatSpanName, safeErrorMessage } from '../../src/telemetry/gen-ai-attributes';

const KEY = 'sk-live-0123456789abcdef';
const request: ChatCallRequest = {
  provider: 'openai',
  model: 'gpt-4o-mini',
  promptVersion: 'mermaid.decompose@3',
  temperature: 0,
  seed: 7,
  maxTokens: 512,
  messages: [
    { role: 'system', content: 'You verify claims.' },
    { role: 'user', content: `Claim: the key is ${KEY}` },
  ],
};
const response = { model: 'gpt-4o-mini-2024-07-18', inputTokens: 120, outputTokens: 30, costUsd: 0.0012, cacheHit: false, finishReason: 'stop', content: '{"label":"True"}' };
const off = { captureContent: false, secrets: [KEY] };
const on = { captureContent: true, secrets: [KEY] };

describe('GenAI span attributes', () => {
  it('names the span "chat <model>" and records the request per the GenAI conventions, with verity.prompt_version', () => {
    expect(chatSpanName('gpt-4o-mini')).toBe('chat gpt-4o-mini');
    expect(chatRequestAttributes(request, off)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.temperature': 0,
      'gen_ai.request.seed': 7,
      'gen_ai.request.max_tokens': 512,
      'verity.prompt_version': 'mermaid.decompose@3',
    });
  });

  it('records the response model, tokens, finish reason, cost and cache hit', () => {
    expect(chatResponseAttributes(response, off)).toEqual({
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.response.finish_reasons': ['stop'],
      'verity.cost_usd': 0.0012,
      'verity.cache_hit': false,
    });
    const cached = chatResponseAttributes({ ...response, cacheHit: true, costUsd: 0, finishReason: undefined }, off);
    expect(cached).toMatchObject({ 'verity.cache_hit': true, 'verity.cost_usd': 0 });
    expect(cached).not.toHaveProperty('gen_ai.response.finish_reasons');
  });

  it('leaves message content out unless captured, and redacts secrets from captured content', () => {
    expect(JSON.stringify({ ...chatRequestAttributes(request, off), ...chatResponseAttributes(response, off) })).not.toContain('Claim');
    const input = chatRequestAttributes(request, on)['gen_ai.input.messages'] as string;
    expect(JSON.parse(input)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You verify claims.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Claim: the key is [redacted]' }] },
    ]);
    expect(input).not.toContain(KEY);
    const output = chatResponseAttributes(response, on)['gen_ai.output.messages'] as string;
    expect(JSON.parse(output)).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: '{"label":"True"}' }], finish_reason: 'stop' }]);
  });

  it('redacts secrets and URL credentials from error messages and keeps them to one line', () => {
    const message = safeErrorMessage(new Error(`401 for key ${KEY}\nat http://elastic:hunter2-pass@127.0.0.1:9200/`), { secrets: [KEY, 'hunter2-pass'] });
    expect(message).not.toContain(KEY);
    expect(message).not.toContain('hunter2-pass');
    expect(message).not.toContain('\n');
  });
});
