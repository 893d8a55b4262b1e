/**
 * Tool-MAD's answer-relevance gate per embedding model. The paper set 0.8 where "most scores [are]
 * above 0.8" in its Fig. 3, i.e. on its own embedding model's cosines; cosines of other models sit
 * elsewhere, so a threshold belongs to a model. A model enters this table with the threshold at the
 * same place in its own distribution — the score that PAPER_RELEVANCE_PASS_SHARE of debater turns
 * pass, the p25 of `npm run bench:tool-mad`'s relevance histogram — and the measurement it came from.
 */

/** "Most" answers pass the paper's gate: read here as three in four (the histogram's p25). */
export const PAPER_RELEVANCE_PASS_SHARE = 0.75;

/** Table key of the simulator's hashed bag-of-words embeddings, whatever model name is asked for. */
export const SIMULATED_EMBEDDINGS_KEY = 'simulator';

export interface RelevanceThresholdEntry {
  /** An embedding model id, or SIMULATED_EMBEDDINGS_KEY. */
  model: string;
  threshold: number;
  source: string;
}

export const RELEVANCE_THRESHOLDS: readonly RelevanceThresholdEntry[] = [
  {
    model: 'text-embedding-ada-002',
    threshold: 0.8,
    source:
      "the paper's own gate (§III-C, Fig. 3). The paper does not name its embedding model; its answer relevance is RAGAS's, whose default embedding model in RAGAS 0.1–0.2 was text-embedding-ada-002 (spec tool-mad.md §7.3, unverified there)",
  },
  {
    model: SIMULATED_EMBEDDINGS_KEY,
    threshold: 0.86,
    source:
      'measured: `npm run bench:tool-mad -- --sample 40 --datasets fever --out eval/bench/tool-mad/results-relevance-sample40-seed7.json` (simulator, 2026-11-26): p25 of 232 debater turns 0.864 (p10 0.845, p50 0.890), rounded down',
  },
];

export function relevanceThresholdOf(model: string): RelevanceThresholdEntry | undefined {
  return RELEVANCE_THRESHOLDS.find((entry) => entry.model === model);
}
