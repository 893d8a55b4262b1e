import { describe, expect, it } from 'vitest';
import {
  llmCallSummary,
  memoryRecallSummary,
  progressDetails,
  stepOfTask,
  SUMMARY_MAX_CHARS,
  sweepProgressDetails,
  toolCallSummary,
  verifySummary,
} from '../../src/shared/activity-summaries';

describe('activity summaries for the Temporal UI', () => {
  it('names LLM calls by method, step and model', () => {
    expect(stepOfTask('mermaid.executor-step')).toBe('executor step');
    expect(stepOfTask('fire.finalAnswer')).toBe('final answer');
    expect(llmCallSummary('mermaid', 'executor step 3/5', 'gpt-4o-mini')).toBe('mermaid · executor step 3/5 · gpt-4o-mini');
    expect(llmCallSummary('rag', 'verdict')).toBe('rag · verdict');
  });

  it('names tool calls by their main argument, on one bounded line', () => {
    expect(toolCallSummary('search_wikipedia', { query: 'Eiffel Tower' })).toBe('search_wikipedia("Eiffel Tower")');
    expect(toolCallSummary('read_page', { chunk: 2, url: 'https://example.org/a' })).toBe('read_page("https://example.org/a")');
    expect(toolCallSummary('lookup', {})).toBe('lookup()');
    const long = toolCallSummary('web_search', { query: `a\nb ${'x'.repeat(300)}` });
    expect(long.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(long).not.toContain('\n');
    expect(memoryRecallSummary(3)).toBe('memory recall · 3 entities');
    expect(memoryRecallSummary(1)).toBe('memory recall · 1 entity');
  });

  it('summarises verifications and sweeps', () => {
    expect(verifySummary({ method: 'mermaid', model: 'gpt-4o-mini', claim: 'The Eiffel Tower is in Paris.' })).toBe('mermaid · gpt-4o-mini · "The Eiffel Tower is in Paris."');
    expect(progressDetails({ stage: 'reasoning: step 2/5', llmCalls: 3, toolCalls: 1 })).toBe('**reasoning: step 2/5** · 3 LLM calls · 1 tool calls');
    expect(sweepProgressDetails({ status: 'running', total: 10, done: 4, failed: 1, reused: 2, running: 3, costUsd: 0.5 })).toBe(
      '**running** · 4/10 done · 2 reused · 1 failed · 3 running · $0.5000',
    );
  });
});
