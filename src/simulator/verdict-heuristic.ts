import type { EvidencePassage } from '../llm/prompt-conventions';
import { contentWords, hasNegation, numbersIn } from './text';

export type SimulatedVerdict = 'SUPPORTED' | 'REFUTED' | 'NEI';

export interface VerdictDecision {
  label: SimulatedVerdict;
  /** The best-matching passage first; empty when there is no evidence. */
  citedIds: string[];
  /** Share of the claim's content words found in the best passage, 0..1. */
  overlap: number;
  bestPassage?: EvidencePassage;
  reason: string;
}

/** At least this share of the claim's content words must occur in a passage to decide. */
export const MIN_OVERLAP = 0.5;

/**
 * The simulator's stand-in for reading: content-word overlap between the claim and the best
 * passage decides between NEI and a verdict; a negation on one side only, or a number in
 * the claim that the passage contradicts, turns SUPPORTED into REFUTED. Pure and deterministic.
 */
export function decideVerdict(claim: string, passages: readonly EvidencePassage[]): VerdictDecision {
  const ranked = rankPassages(claim, passages);
  const best = ranked[0];
  if (!best || best.overlap < MIN_OVERLAP) {
    return { label: 'NEI', citedIds: best ? [best.passage.id] : [], overlap: best?.overlap ?? 0, bestPassage: best?.passage, reason: 'no passage shares enough of the claim' };
  }
  const cited = ranked.filter((r) => r.overlap >= MIN_OVERLAP).slice(0, 2).map((r) => r.passage.id);
  const contradiction = contradictionOf(claim, best.passage.text);
  return {
    label: contradiction ? 'REFUTED' : 'SUPPORTED',
    citedIds: cited,
    overlap: best.overlap,
    bestPassage: best.passage,
    reason: contradiction ?? 'the passage states the claim',
  };
}

interface RankedPassage {
  passage: EvidencePassage;
  overlap: number;
}

export function rankPassages(claim: string, passages: readonly EvidencePassage[]): RankedPassage[] {
  const claimWords = contentWords(claim);
  return passages
    .map((passage) => ({ passage, overlap: overlapShare(claimWords, contentWords(passage.text)) }))
    .sort((a, b) => b.overlap - a.overlap);
}

function overlapShare(claimWords: Set<string>, passageWords: Set<string>): number {
  if (claimWords.size === 0) return 0;
  let shared = 0;
  for (const word of claimWords) if (passageWords.has(word)) shared++;
  return shared / claimWords.size;
}

function contradictionOf(claim: string, passage: string): string | undefined {
  if (hasNegation(claim) !== hasNegation(passage)) return 'the passage negates the claim';
  const claimNumbers = numbersIn(claim);
  const passageNumbers = numbersIn(passage);
  if (passageNumbers.size > 0 && [...claimNumbers].some((n) => !passageNumbers.has(n))) {
    return 'the passage gives a different number';
  }
  return undefined;
}
