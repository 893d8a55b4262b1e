import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../src/cli/plan-output';
import { DEFAULT_PRICES } from '../../src/llm/prices';
import { batchWallTime, formatDuration } from '../../src/plan/batch-wall-time';
import { planRow, summarisePlan, usageStatsOf } from '../../src/plan/plan-figures';

const HOUR = 3_600_000;

describe('sweep plan: batch prices and wall time', () => {
  it('prices the same tokens at the batch price next to the direct price', () => {
    const stats = usageStatsOf([{ llmCalls: 1, promptTokens: 1_000_000, completionTokens: 0 }]);
    const row = planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 1 }, stats, { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    expect(row.usd).toEqual({ low: 2.25, high: 2.75 });
    expect(row.batchUsd).toEqual({ low: 1.125, high: 1.375 });
    const plan = summarisePlan('r', [row, row]);
    expect(plan.batchUsd).toEqual({ low: 2.25, high: 2.75 });
    const unpriced = planRow({ dataset: 'd', method: 'rag', model: 'my-llama', claims: 1 }, stats, { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    expect(summarisePlan('r', [row, unpriced]).batchUsd).toBeUndefined();
  });

  it('waits one turnaround per LLM call of a claim, claims in rounds of the concurrency', () => {
    const rag = planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 10 }, usageStatsOf([{ llmCalls: 1, promptTokens: 10, completionTokens: 1 }]), { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    const mermaid = planRow(
      { dataset: 'd', method: 'mermaid', model: 'gpt-4o', claims: 10 },
      usageStatsOf([4, 6].map((llmCalls) => ({ llmCalls, promptTokens: 10, completionTokens: 1 }))),
      { kind: 'pilot', claims: 2, failed: 0 },
      DEFAULT_PRICES,
    );
    // rag alone: 10 claims, 8 at a time → 2 rounds of one call.
    expect(batchWallTime([rag], { concurrency: 8, turnaroundMs: HOUR })).toEqual({ low: 2 * HOUR, high: 2 * HOUR });
    // With mermaid (5 ± 2·1.41 calls per claim: 2–8): 20 items, 20 at a time, one round of its longest chain.
    expect(mermaid.callsPerClaim).toEqual({ low: 2, high: 8 });
    expect(batchWallTime([rag, mermaid], { concurrency: 20, turnaroundMs: HOUR })).toEqual({ low: 2 * HOUR, high: 8 * HOUR });
    // Ordered: one verification at a time.
    expect(batchWallTime([rag], { concurrency: 1, turnaroundMs: HOUR })).toEqual({ low: 10 * HOUR, high: 10 * HOUR });
    expect(batchWallTime([{ dataset: 'd', method: 'rag', model: 'm', claims: 3, source: { kind: 'none', reason: 'x' } }], { concurrency: 8, turnaroundMs: HOUR })).toBeUndefined();
  });

  it('shows both prices and the wall time in the plan table', () => {
    const row = planRow({ dataset: 'd', method: 'rag', model: 'gpt-4o', claims: 1 }, usageStatsOf([{ llmCalls: 1, promptTokens: 1_000_000, completionTokens: 0 }]), { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES);
    const text = formatPlan({ ...summarisePlan('r', [row]), batchWallMs: { low: 24 * HOUR, high: 72 * HOUR } });
    expect(text).toMatch(/USD\s+USD batch/);
    expect(text).toContain('$2.25–$2.75  $1.13–$1.38');
    expect(text).toContain('with batch: true: $1.13–$1.38, wall time 24.0 h–3.0 d');
    expect(formatDuration(30 * 60_000)).toBe('30 min');
    expect(text).not.toContain('reasoning allowance');
  });

  it("shows the reasoning models' allowance (gpt-5-mini, gpt-oss)", () => {
    const stats = usageStatsOf([{ llmCalls: 1, promptTokens: 1000, completionTokens: 100 }]);
    const rows = ['gpt-4o', 'gpt-5-mini', 'openai/gpt-oss-20b'].map((model) => planRow({ dataset: 'd', method: 'rag', model, claims: 1 }, stats, { kind: 'pilot', claims: 1, failed: 0 }, DEFAULT_PRICES));
    const text = formatPlan(summarisePlan('r', rows));
    expect(text).toContain('reasoning allowance (task cap × it, VERITY_REASONING_MULTIPLIERS): gpt-5-mini × 8 (max_completion_tokens), openai/gpt-oss-20b × 8 (max_tokens)');
    expect(text).toContain('temperature: not sent to gpt-5-mini (the model refuses it; its default applies)');
  });
});
