import { describe, expect, it } from 'vitest';
import type { LlmTaskResult } from '../../src/llm/types';
import { LlmMeter } from '../../workflows/llm-meter';

function paid(overrides: Partial<LlmTaskResult> = {}): LlmTaskResult {
  return {
    output: {},
    usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110, costUsd: 0 },
    model: 'qwen2.5-coder-0.5b',
    temperature: 0,
    seed: 7,
    promptVersion: 'rag.verdict@2',
    requestHash: 'h',
    cached: false,
    latencyMs: 5,
    ...overrides,
  };
}

describe('LlmMeter: answers in a fallback response format and trimmed prompts', () => {
  it('counts answers given without json_schema and prompts trimmed to the window, and keeps both in the transcript', () => {
    const meter = new LlmMeter();
    meter.recordLlmCall(paid({ responseFormat: 'json_schema' }));
    meter.recordLlmCall(paid({ responseFormat: 'json_object', promptNote: 'evidence trimmed: 20 → 13 passages to fit 2,048-token window' }));
    meter.recordLlmCall(paid({ responseFormat: 'prompt' }));
    meter.recordLlmCall(paid({ cached: true }));
    const { usage, transcript } = meter.summary();
    expect(usage).toMatchObject({ llmCalls: 4, formatFallbacks: 2, trimmedPrompts: 1 });
    expect(transcript?.llmCalls.map((call) => call.responseFormat)).toEqual([undefined, 'json_object', 'prompt', undefined]);
    expect(transcript?.llmCalls[1]?.promptNote).toMatch(/^evidence trimmed: 20 → 13 passages/);
  });

  it("adds a child's counts, also from summaries recorded before the counts existed", () => {
    const child = new LlmMeter();
    child.recordLlmCall(paid({ responseFormat: 'json_object' }));
    const parent = new LlmMeter();
    parent.absorb(child.summary());
    const old = child.summary();
    const { formatFallbacks: _f, trimmedPrompts: _t, ...withoutCounts } = old.usage;
    parent.absorb({ ...old, usage: withoutCounts as typeof old.usage });
    expect(parent.usage).toMatchObject({ llmCalls: 2, formatFallbacks: 1, trimmedPrompts: 0 });
  });
});

describe('LlmMeter: the form a server is asked in first, and reasoning tokens', () => {
  it("does not count the schema in the prompt as a fallback for a server whose first form it is (Claude's compatibility layer)", () => {
    const meter = new LlmMeter();
    meter.recordLlmCall(paid({ model: 'claude-sonnet-4-5', responseFormat: 'prompt', firstResponseFormat: 'prompt' }));
    expect(meter.summary().usage.formatFallbacks).toBe(0);
  });

  it('adds up reasoning tokens only when a server reported some, from calls and children', () => {
    const meter = new LlmMeter();
    meter.recordLlmCall(paid());
    expect(meter.summary().usage).not.toHaveProperty('reasoningTokens');
    meter.recordLlmCall(paid({ usage: { promptTokens: 100, completionTokens: 300, totalTokens: 400, costUsd: 0, reasoningTokens: 250 } }));
    const child = new LlmMeter();
    child.recordLlmCall(paid({ usage: { promptTokens: 10, completionTokens: 60, totalTokens: 70, costUsd: 0, reasoningTokens: 50 } }));
    meter.absorb(child.summary());
    expect(meter.summary().usage).toMatchObject({ reasoningTokens: 300, completionTokens: 370 });
  });
});
