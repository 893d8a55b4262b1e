/**
 * Turns a policy's action probabilities into one deterministic choice: invalid actions masked
 * (STOP forced once the search or document budget is spent, STOP forbidden before the first
 * search), then argmax, or a draw seeded by a stable key (workflow id + node + step) so that
 * replays and reruns choose the same. Pure and sandbox-safe.
 */
import { TOE_ACTIONS, type ToeAction } from '../sandbox/toe-policy';
import { mulberry32 } from '../../../shared/prng';

export type ToeSampling = 'argmax' | 'sample';

export interface ActionChoice {
  action: ToeAction;
  /** The masked, renormalised distribution the choice was made from. */
  probabilities: number[];
  /**
   * π_old(action | state): the probability with which the acting policy took `action`, for the
   * GRPO ratio. 1 for an argmax choice (deterministic), the masked probability for a draw.
   */
  probability: number;
}

const STOP = TOE_ACTIONS.indexOf('stop');

/** Masks by the state: idx 14 = searches / budget, idx 15 = document budget left. */
export function maskProbabilities(probabilities: readonly number[], state: readonly number[]): number[] {
  if ((state[14] ?? 0) >= 1 || (state[15] ?? 1) <= 0) return TOE_ACTIONS.map((_, i) => (i === STOP ? 1 : 0));
  const masked = probabilities.map((p, i) => (i === STOP && (state[14] ?? 0) === 0 ? 0 : Math.max(0, Number.isFinite(p) ? p : 0)));
  const total = masked.reduce((sum, p) => sum + p, 0);
  if (total <= 0) return TOE_ACTIONS.map((_, i) => (i === STOP ? 0 : 1 / (TOE_ACTIONS.length - 1)));
  return masked.map((p) => p / total);
}

export function chooseAction(probabilities: readonly number[], state: readonly number[], sampling: ToeSampling, key: string): ActionChoice {
  const masked = maskProbabilities(probabilities, state);
  let index = 0;
  if (sampling === 'argmax') {
    masked.forEach((p, i) => {
      if (p > masked[index]! + 1e-12) index = i;
    });
  } else {
    const u = uniformFromKey(key);
    let cumulative = 0;
    index = masked.findIndex((p) => p > 0);
    for (let i = 0; i < masked.length; i++) {
      if (masked[i]! <= 0) continue;
      cumulative += masked[i]!;
      index = i;
      if (u < cumulative) break;
    }
  }
  return { action: TOE_ACTIONS[index]!, probabilities: masked, probability: sampling === 'argmax' ? 1 : masked[index]! };
}

/** A uniform number in [0, 1) from a string: FNV-1a hash, then one mulberry32 step. */
export function uniformFromKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return mulberry32(hash)();
}
