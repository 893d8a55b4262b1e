import { describe, expect, it } from 'vitest';
import { claimCost, groupStats, renderStatsTable, searchesOf } from '../../eval/bench/emulate-fire/claim-stats';
import { EMPTY_USAGE, type Verdict } from '../../src/shared/verify';

const verdict = (method: 'emulate' | 'fire', llmCalls: number, trace: Record<string, unknown>, costUsd = 0.001): Verdict =>
  ({ method, dataset: 'bingcheck', label: 'SUPPORTED', methodLabel: 'true', usage: { ...EMPTY_USAGE, llmCalls, totalTokens: llmCalls * 100, costUsd }, trace: { method, ...trace } }) as unknown as Verdict;

describe('bench:methods statistics', () => {
  it('counts searches from each method’s trace', () => {
    expect(searchesOf(verdict('emulate', 6, { queries: [{}, {}] }))).toBe(2);
    expect(searchesOf(verdict('fire', 2, { searches: ['a', 'b', 'c'] }))).toBe(3);
    expect(searchesOf({ trace: undefined })).toBe(0);
  });

  it('gives mean/min/max per dataset and method, sorted, with total cost', () => {
    const rows = groupStats([verdict('fire', 2, { searches: ['a'] }), verdict('emulate', 6, { queries: [{}] }), verdict('emulate', 38, { queries: [{}, {}, {}, {}] }, 0.003)].map(claimCost));
    expect(rows.map((r) => r.method)).toEqual(['emulate', 'fire']);
    expect(rows[0]).toMatchObject({ claims: 2, llmCalls: { mean: 22, min: 6, max: 38 }, searches: { mean: 2.5, min: 1, max: 4 }, labels: { true: 2 } });
    expect(rows[0]!.totalCostUsd).toBeCloseTo(0.004);
    expect(renderStatsTable(rows).split('\n')).toHaveLength(4);
  });
});
