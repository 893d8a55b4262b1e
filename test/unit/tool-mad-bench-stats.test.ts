import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/shared/verify';
import { debateRecord, debateStats, renderDebateStats } from '../../eval/bench/tool-mad/debate-stats';

function verdict(llmCalls: number, roundsUsed: number, decidedBy: 'consensus' | 'judge', label: Verdict['label'] = 'SUPPORTED'): Verdict {
  return {
    workflowId: `w-${llmCalls}-${roundsUsed}`,
    dataset: 'fever',
    label,
    usage: { llmCalls, cachedLlmCalls: 2, toolCalls: 2 * roundsUsed, promptTokens: 0, completionTokens: 0, totalTokens: 100, costUsd: 0 },
    trace: { method: 'tool-mad', roundsUsed, decidedBy },
  } as unknown as Verdict;
}

describe('Tool-MAD benchmark statistics', () => {
  it('counts calls per claim, rounds used, consensus rounds and the judge share', () => {
    const records = [verdict(14, 1, 'consensus'), verdict(28, 2, 'consensus', 'REFUTED'), verdict(43, 3, 'judge'), verdict(43, 3, 'judge', 'NEI')].map(debateRecord);
    const stats = debateStats('fever', records);
    expect(stats.llmCalls).toEqual({ mean: 32, min: 14, max: 43 });
    expect(stats.roundsUsed).toEqual({ 1: 1, 2: 1, 3: 2 });
    expect(stats.consensusAtRound).toEqual({ 1: 1, 2: 1 });
    expect(stats).toMatchObject({ judgeDecided: 2, judgeShare: 0.5, toolCallsMean: 4.5, labels: { SUPPORTED: 2, REFUTED: 1, NEI: 1 } });
    const text = renderDebateStats([stats], 3);
    expect(text).toContain('LLM calls per claim: mean 32.00, min 14, max 43');
    expect(text).toContain('rounds used: 1: 1 (25.0%), 2: 1 (25.0%), 3: 2 (50.0%)');
    expect(text).toContain('judge decided: 2/4 (50.0%)');
  });

  it('refuses a verdict without a tool-mad trace', () => {
    expect(() => debateRecord({ ...verdict(1, 1, 'judge'), trace: { method: 'rag' } })).toThrow(/no tool-mad trace/);
  });
});
