import { describe, expect, it } from 'vitest';
import { discountedReturn, groupAdvantages, PAPER_GRPO, stepLoss } from '../../src/methods/toe/policy/grpo';
import { softmax } from '../../src/methods/toe/policy/mlp';

const hp = { clipEpsilon: 0.2, entropyCoefficient: 0.01, klCoefficient: 0.1 };

describe('GRPO math', () => {
  it('uses the paper hyperparameters', () => {
    expect(PAPER_GRPO).toMatchObject({ gamma: 0.99, clipEpsilon: 0.2, entropyCoefficient: 0.01, klCoefficient: 0.1, learningRate: 1e-5, maxGradNorm: 0.5, groupSize: 8 });
  });

  it('discounts rewards with γ^t from the first step', () => {
    expect(discountedReturn([1, 1, 1], 0.99)).toBeCloseTo(1 + 0.99 + 0.9801, 12);
    expect(discountedReturn([0.2, -0.01], 0.5)).toBeCloseTo(0.2 - 0.005, 12);
    expect(discountedReturn([], 0.99)).toBe(0);
  });

  it('normalises returns within the group as worked by hand', () => {
    // R = [1, 2, 3, 4]: mean 2.5, population variance (2.25 + 0.25 + 0.25 + 2.25)/4 = 1.25, std √1.25
    const a = groupAdvantages([1, 2, 3, 4]);
    const s = Math.sqrt(1.25);
    expect(a).toEqual([-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s].map((v) => expect.closeTo(v, 6)));
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(0, 12);
    const std = Math.sqrt(a.reduce((x, y) => x + y * y, 0) / a.length);
    expect(std).toBeCloseTo(1, 6);
    expect(groupAdvantages([0.3, 0.3, 0.3])).toEqual([0, 0, 0]);
  });

  it('stops the surrogate gradient when the clipped branch is the minimum (A > 0, ρ > 1 + ε)', () => {
    // π = [0.5, 0.5], π_old(a) = 0.25 → ρ = 2; clip → 1.2; min(2A, 1.2A) = 1.2 for A = 1
    const t = stepLoss([0.5, 0.5], [0.5, 0.5], 0, 0.25, 1, hp);
    expect(t.ratio).toBe(2);
    expect(t.clipped).toBe(true);
    expect(t.surrogate).toBeCloseTo(1.2, 12);
    expect(t.kl).toBeCloseTo(0, 12);
    expect(t.entropy).toBeCloseTo(Math.log(2), 12);
    // uniform π = π_ref: the KL and entropy gradients vanish too
    expect(Array.from(t.dLogits)).toEqual([expect.closeTo(0, 12), expect.closeTo(0, 12)]);
  });

  it('keeps the gradient of ρA when the unclipped branch is the minimum (A < 0, ρ > 1 + ε)', () => {
    // min(−2, −1.2) = −2 (unclipped); d(ρA)/dz = Aρ(onehot − π) = −1·2·[0.5, −0.5]; loss = −surrogate
    const t = stepLoss([0.5, 0.5], [0.5, 0.5], 0, 0.25, -1, hp);
    expect(t.clipped).toBe(false);
    expect(t.surrogate).toBe(-2);
    expect(Array.from(t.dLogits)).toEqual([expect.closeTo(1, 12), expect.closeTo(-1, 12)]);
  });

  it('has logit gradients equal to finite differences of −surrogate + β·KL − α·H', () => {
    const logits = [0.3, -0.2, 0.9, 0.1];
    const ref = softmax([0, 0.5, 0, -0.5]);
    const loss = (z: number[]): number => {
      const t = stepLoss(softmax(z), ref, 2, 0.4, 0.7, hp);
      return -t.surrogate + hp.klCoefficient * t.kl - hp.entropyCoefficient * t.entropy;
    };
    const t = stepLoss(softmax(logits), ref, 2, 0.4, 0.7, hp);
    expect(t.clipped).toBe(false);
    logits.forEach((_, j) => {
      const up = [...logits];
      const down = [...logits];
      up[j]! += 1e-6;
      down[j]! -= 1e-6;
      expect(t.dLogits[j]!).toBeCloseTo((loss(up) - loss(down)) / 2e-6, 6);
    });
  });
});
