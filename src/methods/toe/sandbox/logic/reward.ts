/**
 * The retrieval agent's shaped step reward, paper Eq. 5 with Table I's values (toe.md §3.5):
 *   r_t = w_r·Δrel_t + w_v·|Δver_t| + w_e·min(n_new, 4)·δ_e + b_t − δ_step
 * Pure and sandbox-safe.
 */

export const REWARD_PARAMETERS = {
  reliabilityWeight: 1.0,
  veracityWeight: 0.5,
  evidenceWeight: 0.05,
  maxNewItems: 4,
  stepPenalty: 0.01,
  /** τ_h: the first crossing of this reliability pays b_rel. */
  highReliability: 0.8,
  highReliabilityBonus: 0.2,
  authorityBonus: 0.1,
} as const;

/** One search step's transition, as far as the reward needs it. */
export interface RewardTransition {
  before: { veracity: number; reliability: number };
  after: { veracity: number; reliability: number };
  /** New, non-duplicate evidence items this step added. */
  newItems: number;
  /** δ_e: at least one new item is relevant (relevance ≥ 0.5). */
  newItemsRelevant: boolean;
  /** b_rel was already paid in this episode. */
  highReliabilityPaid: boolean;
  /** b_auth was already paid in this episode. */
  authorityPaid: boolean;
  /** The evidence holds an authoritative item after this step. */
  authorityFound: boolean;
}

export interface StepReward {
  reward: number;
  paidHighReliability: boolean;
  paidAuthority: boolean;
}

/** Reward of one search step; STOP earns 0 (toe.md §10 #6) and is not scored with this. */
export function stepReward(t: RewardTransition): StepReward {
  const p = REWARD_PARAMETERS;
  const deltaReliability = t.after.reliability - t.before.reliability;
  const deltaVeracity = Math.abs(t.after.veracity - t.before.veracity);
  const evidenceTerm = p.evidenceWeight * Math.min(t.newItems, p.maxNewItems) * (t.newItemsRelevant ? 1 : 0);
  const paidHighReliability = !t.highReliabilityPaid && t.after.reliability >= p.highReliability;
  const paidAuthority = !t.authorityPaid && t.authorityFound;
  const bonus = (paidHighReliability ? p.highReliabilityBonus : 0) + (paidAuthority ? p.authorityBonus : 0);
  const reward = p.reliabilityWeight * deltaReliability + p.veracityWeight * deltaVeracity + evidenceTerm + bonus - p.stepPenalty;
  return { reward, paidHighReliability, paidAuthority };
}
