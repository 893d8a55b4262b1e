import { describe, expect, it } from 'vitest';
import { REWARD_PARAMETERS, stepReward } from '../../src/methods/toe/sandbox/logic/reward';

describe('ToE step reward (paper Eq. 5, Table I)', () => {
  it('uses Table I values', () => {
    expect(REWARD_PARAMETERS).toMatchObject({ reliabilityWeight: 1, veracityWeight: 0.5, evidenceWeight: 0.05, stepPenalty: 0.01, highReliability: 0.8, authorityBonus: 0.1, highReliabilityBonus: 0.2 });
  });

  it('pays Δrel, |Δver|, capped new evidence and both first-time bonuses', () => {
    const result = stepReward({
      before: { veracity: 0.5, reliability: 0 },
      after: { veracity: 0.7, reliability: 0.85 },
      newItems: 5,
      newItemsRelevant: true,
      highReliabilityPaid: false,
      authorityPaid: false,
      authorityFound: true,
    });
    // 1.0·0.85 + 0.5·0.2 + 0.05·min(5,4)·1 + 0.2 + 0.1 − 0.01
    expect(result.reward).toBeCloseTo(0.85 + 0.1 + 0.2 + 0.2 + 0.1 - 0.01, 12);
    expect(result.reward).toBeCloseTo(1.44, 12);
    expect(result).toMatchObject({ paidHighReliability: true, paidAuthority: true });
  });

  it('pays no bonus twice, no evidence term for irrelevant items, and counts a veracity move either way', () => {
    const result = stepReward({
      before: { veracity: 0.7, reliability: 0.85 },
      after: { veracity: 0.6, reliability: 0.8 },
      newItems: 1,
      newItemsRelevant: false,
      highReliabilityPaid: true,
      authorityPaid: true,
      authorityFound: true,
    });
    // −0.05 + 0.5·0.1 + 0 − 0.01
    expect(result.reward).toBeCloseTo(-0.01, 12);
    expect(result).toMatchObject({ paidHighReliability: false, paidAuthority: false });
  });

  it('pays b_rel at exactly r = 0.8 and charges the step penalty on an empty search', () => {
    const base = { newItems: 0, newItemsRelevant: false, highReliabilityPaid: false, authorityPaid: false, authorityFound: false };
    expect(stepReward({ ...base, before: { veracity: 0.6, reliability: 0.75 }, after: { veracity: 0.6, reliability: 0.8 } }).reward).toBeCloseTo(0.05 + 0.2 - 0.01, 12);
    expect(stepReward({ ...base, before: { veracity: 0.5, reliability: 0 }, after: { veracity: 0.5, reliability: 0 } }).reward).toBeCloseTo(-0.01, 12);
  });
});
