import { describe, expect, it } from 'vitest';
import { simulatorProfileForModel } from '../../src/simulator/profile-for-model';

describe('simulatorProfileForModel', () => {
  it.each([
    ['gpt-5-mini', 'openai-reasoning'],
    ['o3-mini', 'openai-reasoning'],
    ['openai/gpt-oss-20b', 'gpt-oss-vllm'],
    ['openai/gpt-oss-120b', 'gpt-oss-vllm'],
    ['claude-sonnet-4-5', 'anthropic-compat'],
    ['gemini-2.5-flash', 'gemini-compat'],
    ['gpt-4o-mini', 'openai'],
    ['gpt-4.1-2025-04-14', 'openai'],
    ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'openai'],
    ['deepseek-ai/DeepSeek-V3.2', 'openai'],
  ] as const)('%s → %s', (model, profile) => {
    expect(simulatorProfileForModel(model)).toBe(profile);
  });
});
