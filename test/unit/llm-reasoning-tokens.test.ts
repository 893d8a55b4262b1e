import { describe, expect, it } from 'vitest';
import { reasoningTokensOf } from '../../src/llm/reasoning-tokens';

describe('reasoningTokensOf', () => {
  it('takes the count the server reports', () => {
    expect(reasoningTokensOf({ completion_tokens: 300, completion_tokens_details: { reasoning_tokens: 256 } }, { content: '{}' }, 300)).toEqual({ reasoningTokens: 256 });
  });

  it("estimates gpt-oss's reasoning from vLLM's reasoning_content when the server gives no count", () => {
    expect(reasoningTokensOf({ completion_tokens: 400 }, { content: '{}', reasoning_content: 'x'.repeat(700) }, 400)).toEqual({ reasoningTokens: 200 });
  });

  it("estimates from Ollama's message.reasoning, never above the completion tokens", () => {
    expect(reasoningTokensOf({ completion_tokens: 50 }, { content: '{}', reasoning: 'x'.repeat(700) }, 50)).toEqual({ reasoningTokens: 50 });
  });

  it('says nothing for a model that does not reason', () => {
    expect(reasoningTokensOf({ completion_tokens: 20 }, { content: '{}' }, 20)).toEqual({});
    expect(reasoningTokensOf(undefined, undefined, 0)).toEqual({});
  });
});
