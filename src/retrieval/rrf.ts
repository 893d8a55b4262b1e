/**
 * Reciprocal rank fusion (Cormack et al., 2009): score(d) = Σ_lists weight / (k + rank(d)),
 * ranks from 1. k = 60 is the paper's constant and Elasticsearch's default; it damps the
 * influence of the very top ranks so that agreement between lists wins.
 */
export const RRF_K = 60;

export interface RankedList<T> {
  items: readonly T[];
  /** Default 1. */
  weight?: number;
}

export interface FusedItem<T> {
  item: T;
  score: number;
}

/** Fuses ranked lists by item key; an item keeps the first object seen for its key. */
export function reciprocalRankFusion<T>(lists: readonly RankedList<T>[], keyOf: (item: T) => string, k: number = RRF_K): FusedItem<T>[] {
  const fused = new Map<string, FusedItem<T>>();
  for (const { items, weight = 1 } of lists) {
    items.forEach((item, index) => {
      const key = keyOf(item);
      const entry = fused.get(key) ?? { item, score: 0 };
      entry.score += weight / (k + index + 1);
      fused.set(key, entry);
    });
  }
  // Stable sort: ties keep first-seen order, so the result is deterministic.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
