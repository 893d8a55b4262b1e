/**
 * The online learner's GRPO settings: Table I's, except the learning rate. The paper's 1e-5 goes
 * with training on LIAR's train split (≈10k claims, on the order of 10⁴ updates of G = 8) before a
 * zero-shot evaluation; a sweep learning online makes ≈ claims × nodes / 8 updates (≈60 for 50
 * claims). Adam moves each parameter by at most ≈ lr per step, so at 1e-5 the policy stays where the
 * warm-up left it (measured: 0.125 ± 0.003 per action after 60 updates). 1e-3 gives a sweep's
 * updates a movement of the order the paper's training budget had (src/methods/toe/README.md, Deviates).
 * Measured in closed loop in the scripted world (eval/bench/results/toe-policy-curve-synthetic-lr1e-*.json,
 * 200 updates of G = 8): the policy's return on 200 fixed claims rises 1.07 → 1.32 at 1e-3, and stays
 * 1.07 → 1.09 at 1e-5 (its noise is about ±0.05).
 */
import { PAPER_GRPO, type GrpoHyperparameters } from '../policy/grpo';

export const ONLINE_LEARNING_RATE = 1e-3;

export function onlineGrpoHyperparameters(groupSize: number): GrpoHyperparameters {
  return { ...PAPER_GRPO, groupSize, learningRate: ONLINE_LEARNING_RATE };
}
