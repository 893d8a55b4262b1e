/** A fresh, seeded policy weights file (near-uniform action probabilities). */
import { initMlp } from '../policy/mlp-init';
import { serialiseWeights, TOE_POLICY_SIZES, type PolicyWeightsFile } from '../policy/weights';

export function freshWeights(seed: number, stateLayoutVersion: string): PolicyWeightsFile {
  return serialiseWeights(
    // Rounded through float32 on save; the loaded file is the policy.
    initMlp(TOE_POLICY_SIZES, seed),
    stateLayoutVersion,
    { method: 'init', seed, episodes: 0, steps: 0, source: 'init', hyperparameters: { init: 'glorot-uniform', outputScale: 0.01 }, updates: 0 },
  );
}
