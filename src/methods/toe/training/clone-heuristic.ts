/**
 * The end of ToE's warm-up (toe.md §3.6, §10 #8): the policy network is fitted to the heuristic that
 * acted during the warm-up, by supervised cross-entropy on the warm-up episodes' states, so the
 * learner starts from a policy that acts like the heuristic instead of the near-uniform init.
 * Targets are the heuristic's masked distribution at each state (what it drew its actions from);
 * each state also enters once per claim category, so the clone acts like the heuristic on
 * categories the warm-up claims did not cover. Deterministic for a seed.
 */
import { TOE_ACTIONS } from '../sandbox/toe-policy';
import { mulberry32, shuffled } from '../../../shared/prng';
import { heuristicActionProbabilities } from '../policy/heuristic';
import { backward, cloneMlp, forward, logitsOf, softmax, zeroGradients, type Mlp } from '../policy/mlp';
import { adamStep, clipGradientNorm, createAdamState, DEFAULT_ADAM } from '../policy/mlp-adam';
import { maskProbabilities } from '../policy/select-action';
import { roundToStored } from '../policy/weights';

/** The six category slots of the state (toe.md §3.3: indices 0–5, one-hot). */
const CATEGORY_SLOTS = 6;

export interface CloneHyperparameters {
  learningRate: number;
  epochs: number;
  batchSize: number;
  /** States kept after augmentation (a seeded subsample beyond), bounding the activity's time. */
  maxStates: number;
  maxGradNorm: number;
}

/** ≈24k forward/backward passes at most: a few seconds, inside the update activity's time. */
export const CLONE_HYPERPARAMETERS: CloneHyperparameters = { learningRate: 3e-3, epochs: 24, batchSize: 32, maxStates: 1024, maxGradNorm: 1 };

export interface CloneResult {
  mlp: Mlp;
  /** Training states after augmentation and subsampling. */
  states: number;
  /** Mean cross-entropy minus the targets' entropy (= KL(heuristic ‖ clone)) before and after. */
  klBefore: number;
  klAfter: number;
  hyperparameters: CloneHyperparameters;
}

/** π_heuristic(·|s) as the acting heuristic draws from it: masked like every choice. */
export function heuristicTarget(state: readonly number[]): number[] {
  return maskProbabilities(heuristicActionProbabilities(state), state);
}

/** The state with each category one-hot in turn (states without a category are kept as they are). */
export function categoryVariants(state: readonly number[]): number[][] {
  if (!state.slice(0, CATEGORY_SLOTS).includes(1)) return [[...state]];
  return Array.from({ length: CATEGORY_SLOTS }, (_, category) => state.map((value, i) => (i < CATEGORY_SLOTS ? (i === category ? 1 : 0) : value)));
}


/** Distinct augmented training states, in a seeded order, at most `maxStates`. */
export function cloneTrainingStates(states: readonly (readonly number[])[], maxStates: number, random: () => number): number[][] {
  const byKey = new Map<string, number[]>();
  for (const state of states) for (const variant of categoryVariants(state)) byKey.set(variant.join(','), variant);
  const sorted = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, state]) => state);
  return shuffled(sorted, random).slice(0, maxStates);
}

/** KL(target ‖ π) per state, averaged. */
function meanKl(mlp: Mlp, states: readonly number[][], targets: readonly number[][]): number {
  let total = 0;
  states.forEach((state, k) => {
    const probs = softmax(logitsOf(forward(mlp, state)));
    (targets[k] as number[]).forEach((q, j) => {
      if (q > 0) total += q * (Math.log(q) - Math.log(Math.max(probs[j] as number, 1e-12)));
    });
  });
  return total / Math.max(states.length, 1);
}

/** Fits `start` to the heuristic on `states` (minibatch Adam on soft-target cross-entropy). */
export function cloneHeuristic(start: Mlp, states: readonly (readonly number[])[], seed: number, overrides: Partial<CloneHyperparameters> = {}): CloneResult {
  const hp = { ...CLONE_HYPERPARAMETERS, ...overrides };
  const random = mulberry32(seed);
  const training = cloneTrainingStates(states, hp.maxStates, random);
  const targets = training.map(heuristicTarget);
  const mlp = cloneMlp(start);
  const adam = createAdamState(mlp);
  const klBefore = meanKl(mlp, training, targets);
  const indices = training.map((_, i) => i);
  for (let epoch = 0; epoch < hp.epochs; epoch += 1) {
    const order = shuffled(indices, random);
    for (let from = 0; from < order.length; from += hp.batchSize) {
      const batch = order.slice(from, from + hp.batchSize);
      const gradients = zeroGradients(mlp);
      for (const k of batch) {
        const trace = forward(mlp, training[k] as number[]);
        const probs = softmax(logitsOf(trace));
        const target = targets[k] as number[];
        // d(−Σ q log p)/dz = p − q
        backward(mlp, trace, TOE_ACTIONS.map((_, j) => ((probs[j] as number) - (target[j] as number)) / batch.length), gradients);
      }
      clipGradientNorm(gradients, hp.maxGradNorm);
      adamStep(mlp, gradients, adam, { ...DEFAULT_ADAM, learningRate: hp.learningRate });
    }
  }
  const stored = roundToStored(mlp);
  return { mlp: stored, states: training.length, klBefore, klAfter: meanKl(stored, training, targets), hyperparameters: hp };
}
