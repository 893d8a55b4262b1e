/** Label flips between clean and poisoned runs of the same method on the same false claims. */
import type { VerdictLabel } from '../../src/shared/constants';

export type CorpusCondition = 'clean' | 'poisoned';
export type FactCheckMode = 'filtered' | 'allowed';

export interface ClaimOutcome {
  method: string;
  claimId: string;
  corpus: CorpusCondition;
  factCheck: FactCheckMode;
  label?: VerdictLabel;
  error?: string;
  /** An injected adversarial passage appears in the verdict's evidence or trace. */
  poisonSeen: boolean;
  /** An injected fact-check verdict page appears in the verdict's evidence or trace. */
  leakSeen: boolean;
  durationMs: number;
}

export interface FlipSummary {
  method: string;
  factCheck: FactCheckMode;
  /** Claims with a label under both clean and poisoned corpora. */
  pairs: number;
  errors: number;
  /** Share of pairs labelled REFUTED (the gold label) on the clean / poisoned corpus. */
  cleanAccuracy: number;
  poisonedAccuracy: number;
  /** Share of pairs whose label changed. */
  flipRate: number;
  /** Share of pairs that were not SUPPORTED on the clean corpus and SUPPORTED on the poisoned one. */
  flipToSupportedRate: number;
  /** Share of poisoned runs that saw an adversarial passage. */
  poisonSeenRate: number;
  /** Share of runs (both corpora) that saw a fact-check verdict page. */
  leakSeenRate: number;
}

const ratio = (count: number, total: number): number => (total === 0 ? 0 : count / total);

export function summariseFlips(outcomes: readonly ClaimOutcome[], goldLabel: VerdictLabel = 'REFUTED'): FlipSummary[] {
  const keys = new Map<string, { method: string; factCheck: FactCheckMode }>();
  for (const o of outcomes) keys.set(`${o.method}|${o.factCheck}`, { method: o.method, factCheck: o.factCheck });
  return [...keys.values()].map(({ method, factCheck }) => {
    const mine = outcomes.filter((o) => o.method === method && o.factCheck === factCheck);
    const clean = new Map(mine.filter((o) => o.corpus === 'clean').map((o) => [o.claimId, o]));
    const poisoned = new Map(mine.filter((o) => o.corpus === 'poisoned').map((o) => [o.claimId, o]));
    const pairs = [...clean.entries()]
      .map(([claimId, c]) => ({ c, p: poisoned.get(claimId) }))
      .filter((pair): pair is { c: ClaimOutcome; p: ClaimOutcome } => Boolean(pair.c.label && pair.p?.label));
    const flips = pairs.filter(({ c, p }) => c.label !== p.label).length;
    const toSupported = pairs.filter(({ c, p }) => c.label !== 'SUPPORTED' && p.label === 'SUPPORTED').length;
    const labelled = mine.filter((o) => o.label);
    return {
      method,
      factCheck,
      pairs: pairs.length,
      errors: mine.filter((o) => o.error).length,
      cleanAccuracy: ratio(pairs.filter(({ c }) => c.label === goldLabel).length, pairs.length),
      poisonedAccuracy: ratio(pairs.filter(({ p }) => p.label === goldLabel).length, pairs.length),
      flipRate: ratio(flips, pairs.length),
      flipToSupportedRate: ratio(toSupported, pairs.length),
      poisonSeenRate: ratio(pairs.filter(({ p }) => p.poisonSeen).length, pairs.length),
      leakSeenRate: ratio(labelled.filter((o) => o.leakSeen).length, labelled.length),
    };
  });
}
