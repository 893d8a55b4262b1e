import { describe, expect, it } from 'vitest';
import { budgetSlots, hasBudget, overBudget } from '../../src/shared/sweep-budget';

const spent = (done: number, tokens: number, costUsd = 0, failed = 0) => ({ done, failed, tokens, costUsd });

describe('budgetSlots: a sweep starts only what its budget still holds', () => {
  it('is unbounded without a budget', () => {
    expect(hasBudget({})).toBe(false);
    expect(budgetSlots(spent(0, 0), {}, 12)).toBe(Number.POSITIVE_INFINITY);
  });

  it('runs one verification alone until one has finished (there is no estimate before)', () => {
    expect(budgetSlots(spent(0, 0), { tokens: 100 }, 0)).toBe(1);
    expect(budgetSlots(spent(0, 0), { tokens: 100 }, 1)).toBe(0);
  });

  it("before any has finished, reserves the plan's estimate for each: a budget below one verification's estimate starts nothing", () => {
    expect(budgetSlots(spent(0, 0), { tokens: 100 }, 0, { tokens: 2_000 })).toBe(0);
    expect(budgetSlots(spent(0, 0), { tokens: 10_000 }, 0, { tokens: 2_000 })).toBe(5);
    expect(budgetSlots(spent(0, 0), { tokens: 10_000 }, 4, { tokens: 2_000 })).toBe(1);
    expect(budgetSlots(spent(0, 0), { usd: 0.01, tokens: 10 ** 9 }, 0, { tokens: 2_000, usd: 0.02 })).toBe(0);
    // An estimate without the budget's dimension (an unpriced model under a dollar budget): the first runs alone.
    expect(budgetSlots(spent(0, 0), { usd: 0.01 }, 0, { tokens: 2_000 })).toBe(1);
    // Once one has finished, its measured spend replaces the estimate.
    expect(budgetSlots(spent(1, 50), { tokens: 100 }, 0, { tokens: 2_000 })).toBe(1);
  });

  it('reserves the mean spend for each running verification and starts only what still fits', () => {
    // 2 finished at 1,000 tokens each; 10,000 allows 10 in all: 8 more, minus the 3 running.
    expect(budgetSlots(spent(2, 2_000), { tokens: 10_000 }, 3)).toBe(5);
    expect(budgetSlots(spent(2, 2_000), { tokens: 10_000 }, 8)).toBe(0);
    expect(budgetSlots(spent(2, 2_000), { tokens: 10_000 }, 9)).toBe(0);
    // Exactly n verifications' spend admits the n-th.
    expect(budgetSlots(spent(3, 3, 0.9), { tokens: 10 ** 9, usd: 0.9 }, 0)).toBe(0);
    expect(budgetSlots(spent(1, 1, 0.3), { usd: 0.9 }, 0)).toBe(2);
  });

  it('counts failed verifications in the mean, and the tighter of tokens and dollars wins', () => {
    expect(budgetSlots(spent(1, 1_000, 0.01, 1), { tokens: 5_000 }, 0)).toBe(8);
    expect(budgetSlots(spent(2, 1_000, 0.5), { tokens: 100_000, usd: 1 }, 0)).toBe(2);
  });

  it('free verifications (cache hits only) never use the budget up', () => {
    expect(budgetSlots(spent(4, 0, 0), { tokens: 100 }, 3)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('overBudget', () => {
  it('says by how much each dimension went over, and nothing when within', () => {
    expect(overBudget({ tokens: 35_507, costUsd: 0 }, { tokens: 100 })).toEqual({ tokens: 35_407 });
    expect(overBudget({ tokens: 50, costUsd: 0.2 }, { tokens: 100, usd: 0.1 })).toEqual({ usd: expect.closeTo(0.1, 10) });
    expect(overBudget({ tokens: 100, costUsd: 0 }, { tokens: 100 })).toBeUndefined();
  });
});
