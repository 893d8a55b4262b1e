/**
 * GRPO for ToE's retrieval policy (toe.md §3.6), as pure math over logged steps:
 *   R_i = Σ_t γ^t r_t^{(i)}                      (discounted return of trajectory i, γ = 0.99)
 *   A_i = (R_i − mean(R)) / (std(R) + 1e-8)      (normalised within the group of G trajectories, population std)
 *   L(θ) = −mean_{i,t} min(ρ A_i, clip(ρ, 1−ε, 1+ε) A_i) + β·KL(π_θ‖π_ref) − α·H(π_θ)
 *          ρ = π_θ(a|s) / π_old(a|s)
 * The KL and entropy are exact over the 8 actions (not the k3 sample estimate), averaged over steps.
 */

export interface GrpoHyperparameters {
  gamma: number;
  clipEpsilon: number;
  entropyCoefficient: number;
  klCoefficient: number;
  learningRate: number;
  maxGradNorm: number;
  groupSize: number;
  epochs: number;
}

/** Paper, Table I; epochs per group = 4 (inferred, toe.md §10 #7). */
export const PAPER_GRPO: GrpoHyperparameters = {
  gamma: 0.99,
  clipEpsilon: 0.2,
  entropyCoefficient: 0.01,
  klCoefficient: 0.1,
  learningRate: 1e-5,
  maxGradNorm: 0.5,
  groupSize: 8,
  epochs: 4,
};

/** Σ_t γ^t r_t, the first step undiscounted. */
export function discountedReturn(rewards: readonly number[], gamma: number): number {
  let total = 0;
  for (let t = rewards.length - 1; t >= 0; t -= 1) total = (rewards[t] as number) + gamma * total;
  return total;
}

/** Group-normalised advantages; all zero when every return is equal. */
export function groupAdvantages(returns: readonly number[], epsilon = 1e-8): number[] {
  if (returns.length === 0) return [];
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / returns.length;
  const std = Math.sqrt(variance);
  return returns.map((r) => (r - mean) / (std + epsilon));
}

export interface StepLossTerms {
  /** The clipped surrogate min(ρA, clip(ρ)A) (to be maximised). */
  surrogate: number;
  ratio: number;
  /** True when the clipped branch is the minimum, so the surrogate has no gradient. */
  clipped: boolean;
  kl: number;
  entropy: number;
  /** dLoss/dLogits of this step's loss −surrogate + β·KL − α·H (not yet divided by the batch size). */
  dLogits: Float64Array;
}

/**
 * One step's loss terms and logit gradient, given the current policy's probabilities `probs`,
 * the reference policy's `refProbs`, the taken action, π_old(action) and the advantage.
 */
export function stepLoss(
  probs: ArrayLike<number>,
  refProbs: ArrayLike<number>,
  action: number,
  oldProbability: number,
  advantage: number,
  hp: Pick<GrpoHyperparameters, 'clipEpsilon' | 'entropyCoefficient' | 'klCoefficient'>,
): StepLossTerms {
  const n = probs.length;
  const pa = probs[action] as number;
  const ratio = pa / Math.max(oldProbability, 1e-12);
  const clippedRatio = Math.min(Math.max(ratio, 1 - hp.clipEpsilon), 1 + hp.clipEpsilon);
  const unclippedTerm = ratio * advantage;
  const clippedTerm = clippedRatio * advantage;
  const clipped = clippedTerm < unclippedTerm;
  const surrogate = Math.min(unclippedTerm, clippedTerm);

  const logP = new Float64Array(n);
  let kl = 0;
  let entropy = 0;
  for (let j = 0; j < n; j += 1) {
    const p = Math.max(probs[j] as number, 1e-12);
    const q = Math.max(refProbs[j] as number, 1e-12);
    logP[j] = Math.log(p);
    kl += p * (Math.log(p) - Math.log(q));
    entropy -= p * Math.log(p);
  }

  const dLogits = new Float64Array(n);
  for (let j = 0; j < n; j += 1) {
    const p = probs[j] as number;
    const q = Math.max(refProbs[j] as number, 1e-12);
    // d(ρA)/dz_j = A·ρ·(1[j=a] − p_j)
    const dSurrogate = clipped ? 0 : advantage * ratio * ((j === action ? 1 : 0) - p);
    // dKL/dz_j = p_j (log p_j − log q_j − KL);  dH/dz_j = −p_j (log p_j + H)
    const dKl = p * ((logP[j] as number) - Math.log(q) - kl);
    const dEntropy = -p * ((logP[j] as number) + entropy);
    dLogits[j] = -dSurrogate + hp.klCoefficient * dKl - hp.entropyCoefficient * dEntropy;
  }
  return { surrogate, ratio, clipped, kl, entropy, dLogits };
}
