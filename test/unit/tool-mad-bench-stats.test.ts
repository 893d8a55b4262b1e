import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/shared/verify';
import { debateRecord, debateStats, renderDebateStats } from '../../eval/bench/tool-mad/debate-stats';
import { relevanceDistribution } from '../../eval/bench/tool-mad/relevance-histogram';

function verdict(llmCalls: number, roundsUsed: number, decidedBy: 'consensus' | 'judge', label: Verdict['label'] = 'SUPPORTED'): Verdict {
  return {
    workflowId: `w-${llmCalls}-${roundsUsed}`,
    dataset: 'fever',
    label,
    usage: { llmCalls, cachedLlmCalls: 2, toolCalls: 2 * roundsUsed, promptTokens: 0, completionTokens: 0, totalTokens: 100, costUsd: 0 },
    trace: { method: 'tool-mad', roundsUsed, decidedBy, rounds: Array.from({ length: roundsUsed }, () => ({ turns: [{ answerRelevance: 0.85 }, { answerRelevance: 0.42 }, { answerRelevance: null }] })) },
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

  it('reports the distribution of answer-relevance scores: buckets, the share passing the gate, quantiles', () => {
    const records = [verdict(14, 1, 'consensus'), verdict(43, 3, 'judge')].map(debateRecord);
    expect(records.map((r) => r.relevanceScores)).toEqual([[0.85, 0.42], [0.85, 0.42, 0.85, 0.42, 0.85, 0.42]]);
    const { relevance } = debateStats('fever', records, 0.8);
    expect(relevance.scores).toBe(8);
    expect(relevance.passing).toBe(4);
    expect(relevance.buckets.map((b) => b.count)).toEqual([0, 0, 0, 0, 4, 0, 0, 0, 4, 0]);
    expect(relevance.quantiles).toMatchObject({ p10: 0.42, p50: 0.42, p90: 0.85 });
    const text = renderDebateStats([debateStats('fever', records, 0.8)], 3);
    expect(text).toContain('answer relevance over 8 debater turns: 4 (50.0%) pass > 0.8');
    expect(text).toMatch(/\[0\.8, 0\.9\)\s+4\s+50\.0% #+/);
  });

  it('counts a score of exactly 1 in the last bucket and clamps out-of-range scores', () => {
    expect(relevanceDistribution([1, 0, -0.2, 1.3], 0.8).buckets.map((b) => b.count)).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
  });
});
