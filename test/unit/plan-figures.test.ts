import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../src/llm/prices';
import { maxUsdRefusal, plannedPerVerification, planRow, statsOf, summarisePlan, totalRange, usageStatsOf } from '../../src/plan/plan-figures';

describe('plan figures', () => {
  it('scales the per-claim mean to the run, ± 2 standard deviations of the total, at least ±10%', () => {
    // Constant per claim: only the ±10% margin.
    expect(totalRange(statsOf([4, 4, 4]), 100)).toEqual({ low: 360, high: 440 });
    // Mean 20, sample sd 14.1 from 2 claims, over 10 claims: sd of the total = 14.1 × √(100/2 + 10) ≈ 109.5; never below 0.
    expect(totalRange(statsOf([10, 30]), 10)).toEqual({ low: 0, high: 420 });
    // More claims measured: a narrower range.
    expect(totalRange(statsOf([10, 30, 10, 30, 10, 30, 10, 30]), 10)).toEqual({ low: 98, high: 302 });
    expect(totalRange(statsOf([]), 10)).toEqual({ low: 0, high: 0 });
  });

  it('prices tokens per model and sums the rows; an unpriced model leaves the total unknown', () => {
    const stats = usageStatsOf([{ llmCalls: 2, promptTokens: 1_000, completionTokens: 100 }]);
    const priced = planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 1_000 }, stats, { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    // 900k–1.1M tokens in at $2.5/M, 90k–110k out at $10/M.
    expect(priced.usd!.low).toBeCloseTo(3.15, 6);
    expect(priced.usd!.high).toBeCloseTo(3.85, 6);
    const plan = summarisePlan('r', [priced, priced]);
    expect(plan.usd!.high).toBeCloseTo(7.7, 6);
    expect(plan.llmCalls).toEqual({ low: 3_600, high: 4_400 });
    const unpriced = planRow({ dataset: 'd', method: 'rag', model: 'my-llama', claims: 10 }, stats, { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    expect(summarisePlan('r', [priced, unpriced]).usd).toBeUndefined();
    expect(maxUsdRefusal(summarisePlan('r', [unpriced]), 5)).toBe('cannot check --max-usd 5: model my-llama has no price (add it to VERITY_PRICES_FILE)');
  });

  it('refuses --max-usd below the upper estimate only', () => {
    const stats = usageStatsOf([{ llmCalls: 1, promptTokens: 1_000_000, completionTokens: 0 }]);
    const plan = summarisePlan('r', [planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 1 }, stats, { kind: 'earlier-runs', verdicts: 3 }, DEFAULT_PRICES)]);
    expect(plan.usd).toEqual({ low: 2.25, high: 2.75 });
    expect(maxUsdRefusal(plan, 3)).toBeUndefined();
    expect(maxUsdRefusal(plan, 2.5)).toBe("refusing to start: the plan's upper estimate $2.75 is above --max-usd 2.5 (see `verity sweep plan`)");
  });

  it("gives one verification's expected spend (a budget reserves it before any has finished)", () => {
    const source = { kind: 'pilot', claims: 1, failed: 0 } as const;
    const rag = planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 30 }, usageStatsOf([{ llmCalls: 1, promptTokens: 1_000, completionTokens: 100 }]), source, DEFAULT_PRICES);
    const fire = planRow({ dataset: 'd', method: 'fire', model: 'gpt-4o', claims: 10 }, usageStatsOf([{ llmCalls: 4, promptTokens: 5_000, completionTokens: 500 }]), source, DEFAULT_PRICES);
    const planned = plannedPerVerification(summarisePlan('r', [rag, fire]))!;
    // (30 × 1,100 + 10 × 5,500) / 40 claims.
    expect(planned.tokens).toBeCloseTo(2_200, 6);
    // gpt-4o: $2.5/M in, $10/M out.
    expect(planned.usd).toBeCloseTo((30 * (1_000 * 2.5 + 100 * 10) + 10 * (5_000 * 2.5 + 500 * 10)) / 1e6 / 40, 9);
    const unpriced = planRow({ dataset: 'd', method: 'rag', model: 'my-llama', claims: 10 }, usageStatsOf([{ llmCalls: 1, promptTokens: 100, completionTokens: 0 }]), source, DEFAULT_PRICES);
    expect(plannedPerVerification(summarisePlan('r', [unpriced]))).toEqual({ tokens: 100 });
    expect(plannedPerVerification(summarisePlan('r', [{ dataset: 'd', method: 'rag', model: 'm', claims: 5, source: { kind: 'none', reason: 'x' } }]))).toBeUndefined();
  });
});
