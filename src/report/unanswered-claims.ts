import type { RunProtocol } from '../runs/run-manifest';
import type { RunVerdict } from '../runs/run-records';
import { FIRE_NO_ANSWER_METHOD_LABEL } from '../methods/fire/sandbox/fire-settings';

/**
 * A FIRE verdict without a final answer (its label is NEI, its method label `failed`). It is never
 * a REFUTED answer, which NEI would collapse to on a binary scheme:
 * - `protocol: paper` leaves it out of the metrics and counts it, as FIRE's evaluate_file does
 *   (emulate.md §6.1 "Failed claims are excluded", §8);
 * - `protocol: verity` scores it as no valid answer: the invalid bucket, wrong for every gold class.
 */
export function isUnansweredFire(verdict: Pick<RunVerdict, 'method' | 'methodLabel'>): boolean {
  return verdict.method === 'fire' && verdict.methodLabel === FIRE_NO_ANSWER_METHOD_LABEL;
}

export function isExcludedByProtocol(verdict: Pick<RunVerdict, 'method' | 'methodLabel'>, protocol: RunProtocol): boolean {
  return protocol === 'paper' && isUnansweredFire(verdict);
}
