/** The weights version that ends ToE's warm-up: the starting network fitted to the heuristic (clone-heuristic.ts). */
import type { PolicyEpisode } from '../sandbox/toe-policy';
import type { Mlp } from '../policy/mlp';
import { serialiseWeights, type PolicyWeightsFile } from '../policy/weights';
import { cloneHeuristic } from '../training/clone-heuristic';
import { episodesHash } from '../training/train-policy';

export interface WarmupClone {
  weights: PolicyWeightsFile;
  mlp: Mlp;
  /** KL(heuristic ‖ policy) over the training states, before and after the fit. */
  klBefore: number;
  klAfter: number;
}

export function warmupClone(start: { file: PolicyWeightsFile; mlp: Mlp }, episodes: readonly PolicyEpisode[], seed: number, source: string): WarmupClone {
  const states = episodes.flatMap((e) => e.steps.map((s) => s.state));
  const fit = cloneHeuristic(start.mlp, states, seed);
  const weights = serialiseWeights(fit.mlp, start.file.stateLayoutVersion, {
    method: 'warmup-clone',
    seed,
    parentVersion: start.file.version,
    episodes: episodes.length,
    steps: states.length,
    source,
    episodesHash: episodesHash(episodes),
    hyperparameters: { ...fit.hyperparameters, trainingStates: fit.states, target: 'heuristic-masked', augmentation: 'category' },
    updates: fit.hyperparameters.epochs * Math.ceil(fit.states / fit.hyperparameters.batchSize),
  });
  return { weights, mlp: fit.mlp, klBefore: fit.klBefore, klAfter: fit.klAfter };
}
