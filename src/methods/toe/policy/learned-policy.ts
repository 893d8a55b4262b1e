/**
 * ToE's learned retrieval policy (toe.md §3.4): the 29 → 128 → 128 → 64 → 8 softmax MLP loaded from
 * a versioned weights file. Inference is a pure, deterministic function of the state; sampling and
 * action masking (force STOP after 5 steps / 10 documents) are the caller's business.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TOE_STATE_DIM } from '../sandbox/toe-policy';
import { projectRoot } from '../../../project-root';
import { forward, logitsOf, softmax, type Mlp } from './mlp';
import { deserialiseWeights, type PolicyWeightsFile } from './weights';
import { MAX_DATA_FILE_BYTES, readInputText } from '../../../config/input-file';

export interface LearnedPolicy {
  /** The weights' version (a hash of weights + training metadata); log it as `learned@<version>`. */
  version: string;
  /** The state layout the weights were trained on; compare with the state builder's. */
  stateLayoutVersion: string;
  /** π(·|state): 8 probabilities in TOE_ACTIONS order, summing to 1. */
  actionProbabilities(state: readonly number[]): number[];
}

/** The weights shipped with verity, relative to the project root. */
export const DEFAULT_POLICY_WEIGHTS = 'src/methods/toe/policy/weights/toe-policy-v1.json';

export function defaultWeightsPath(): string {
  return path.join(projectRoot(), DEFAULT_POLICY_WEIGHTS);
}

/** Builds the policy from an already validated network. */
export function policyFromMlp(mlp: Mlp, version: string, stateLayoutVersion: string): LearnedPolicy {
  return {
    version,
    stateLayoutVersion,
    actionProbabilities(state) {
      if (state.length !== TOE_STATE_DIM) throw new Error(`ToE policy state must have ${TOE_STATE_DIM} values, got ${state.length}`);
      if (!state.every(Number.isFinite)) throw new Error('ToE policy state contains a non-finite value');
      return Array.from(softmax(logitsOf(forward(mlp, state))));
    },
  };
}

export function readWeightsFile(file: string): { weights: PolicyWeightsFile; mlp: Mlp } {
  let raw: unknown;
  try {
    raw = JSON.parse(readInputText(file, MAX_DATA_FILE_BYTES));
  } catch (err) {
    throw new Error(`cannot read ToE policy weights ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { file: weights, mlp } = deserialiseWeights(raw, file);
  return { weights, mlp };
}

const cache = new Map<string, LearnedPolicy>();

/** Loads (and caches per file content stamp) the policy from `weightsFile`, default: the shipped weights. */
export function loadLearnedPolicy(weightsFile?: string): LearnedPolicy {
  const file = path.resolve(weightsFile ?? defaultWeightsPath());
  let stamp: string;
  try {
    const stat = fs.statSync(file);
    stamp = `${file}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    throw new Error(`ToE policy weights not found: ${file}`);
  }
  const cached = cache.get(stamp);
  if (cached) return cached;
  const { weights, mlp } = readWeightsFile(file);
  const policy = policyFromMlp(mlp, weights.version, weights.stateLayoutVersion);
  cache.set(stamp, policy);
  return policy;
}
