import type { RunProtocol } from '../runs/run-manifest';
import type { RunVerdict } from '../runs/run-records';
import { FIRE_NO_ANSWER_METHOD_LABEL } from '../methods/fire/sandbox/fire-settings';
import { NO_VALID_ANSWER_RATIONALE } from '../shared/methods/invalid-answer-fallbacks';

type MarkedVerdict = Pick<RunVerdict, 'method' | 'methodLabel' | 'rationale' | 'trace'>;

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

/**
 * A verdict whose label is a method's fallback for no valid answer, not an answer (issue 37 §2.1):
 * rag and llm-only fall back to NEI (their rationale says so), Tool-MAD to NEI when neither the
 * judge nor any debater labelled the claim, MERMAID to its default (negative) label.
 */
export function isNoAnswerFallback(verdict: MarkedVerdict): boolean {
  switch (verdict.method) {
    case 'fire':
      return isUnansweredFire(verdict);
    case 'rag':
    case 'llm-only':
      return verdict.rationale?.startsWith(`${NO_VALID_ANSWER_RATIONALE}:`) ?? false;
    case 'tool-mad':
      return verdict.trace?.judge !== undefined && verdict.trace.judge.label === null && !verdict.trace.judge.fallbackFrom;
    case 'mermaid':
      return verdict.trace?.fallback === true;
    default:
      return false;
  }
}

/**
 * How a no-answer fallback is scored. `protocol: verity`: the invalid column (no prediction), for
 * every method. `protocol: paper`: as each paper does — FIRE's evaluate_file leaves the claim out;
 * Tool-MAD (tool-mad.md §10 #9) and MERMAID (its code's default label) score the fallback label as
 * the answer; rag and llm-only have no paper and stay invalid.
 */
export function noAnswerScoring(verdict: MarkedVerdict, protocol: RunProtocol): 'answer' | 'invalid' | 'excluded' {
  if (!isNoAnswerFallback(verdict)) return 'answer';
  if (protocol !== 'paper') return 'invalid';
  if (verdict.method === 'fire') return 'excluded';
  return verdict.method === 'tool-mad' || verdict.method === 'mermaid' ? 'answer' : 'invalid';
}

export function isExcludedByProtocol(verdict: MarkedVerdict, protocol: RunProtocol): boolean {
  return noAnswerScoring(verdict, protocol) === 'excluded';
}
