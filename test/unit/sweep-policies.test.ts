import { describe, expect, it } from 'vitest';
import { exceedsFailureRate, failureBaseline, tallyFailureReason, topFailureReasons } from '../../src/shared/failure-policy';
import { findLimitReached, spentBeforeLimit } from '../../src/shared/verification-limits';

describe('failure-rate policy', () => {
  const policy = { maxFailureRate: 0.05, minVerifications: 20 };
  const start = { verified: 0, failed: 0 };

  it('waits for minVerifications, then compares the rate of verifications finished here (reused ones do not count)', () => {
    expect(exceedsFailureRate({ done: 10, failed: 5, reused: 0 }, start, policy)).toBe(false);
    expect(exceedsFailureRate({ done: 19, failed: 1, reused: 0 }, start, policy)).toBe(false);
    expect(exceedsFailureRate({ done: 18, failed: 2, reused: 0 }, start, policy)).toBe(true);
    expect(exceedsFailureRate({ done: 1018, failed: 2, reused: 1000 }, start, policy)).toBe(true);
    expect(exceedsFailureRate({ done: 18, failed: 2, reused: 0 }, start, undefined)).toBe(false);
  });

  it('after a resume, judges only what finished since', () => {
    const baseline = failureBaseline({ done: 18, failed: 2, reused: 0 });
    expect(exceedsFailureRate({ done: 37, failed: 3, reused: 0 }, baseline, policy)).toBe(false);
    expect(exceedsFailureRate({ done: 36, failed: 4, reused: 0 }, baseline, policy)).toBe(true);
  });

  it('tallies reasons in a bounded map and ranks them', () => {
    const tally: Record<string, number> = {};
    for (let i = 0; i < 40; i += 1) tallyFailureReason(tally, `reason ${i}`);
    tallyFailureReason(tally, 'index x does not exist', 'IndexNotFound');
    tallyFailureReason(tally, 'index x does not exist', 'IndexNotFound');
    expect(Object.keys(tally)).toHaveLength(30);
    expect(topFailureReasons(tally, 1)).toEqual([{ reason: '(other reasons)', count: 13 }]);
  });
});

describe('per-verification limits', () => {
  it('names the limit reached, tokens first', () => {
    expect(findLimitReached({ totalTokens: 10, costUsd: 0.5 }, 100, { tokens: 10, usd: 0.1 })?.limit).toBe('tokens');
    expect(findLimitReached({ totalTokens: 9, costUsd: 0.5 }, 100, { tokens: 10, usd: 0.1 })?.reason).toBe('cost limit reached: $0.500000 spent, limit $0.1');
    expect(findLimitReached({ totalTokens: 0, costUsd: 0 }, 2500, { seconds: 2 })?.reason).toBe('wall-time limit reached: 2.5 s, limit 2 s');
    expect(findLimitReached({ totalTokens: 9, costUsd: 0 }, 100, { tokens: 10, seconds: 1 })).toBeNull();
    expect(findLimitReached({ totalTokens: 9, costUsd: 0 }, 100, undefined)).toBeNull();
  });

  it('finds the spend in a limit failure anywhere in the cause chain', () => {
    const failure = { message: 'child failed', cause: { message: 'x', type: 'VerificationLimitReached', details: [{ limit: 'tokens', usage: { totalTokens: 42, costUsd: 0.01 } }] } };
    expect(spentBeforeLimit(failure)).toEqual({ tokens: 42, costUsd: 0.01 });
    expect(spentBeforeLimit({ message: 'other', cause: { type: 'IndexNotFound', details: [] } })).toBeUndefined();
  });
});
