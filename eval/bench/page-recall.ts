/**
 * Page-level recall: passages are ranked, collapsed to distinct pages in rank order, and the
 * top-k pages are compared with a claim's gold pages.
 */

/** Distinct page keys in first-seen (rank) order. */
export function collapseToPages<P>(passages: readonly P[], pageOf: (passage: P) => string): string[] {
  return [...new Set(passages.map(pageOf))];
}

/** 'all': every gold page must be in the top k (HoVer all-gold); 'any': one is enough. */
export type GoldCriterion = 'all' | 'any';

export function hitAtK(pages: readonly string[], gold: readonly string[], k: number, criterion: GoldCriterion): boolean {
  const top = new Set(pages.slice(0, k));
  return criterion === 'all' ? gold.every((page) => top.has(page)) : gold.some((page) => top.has(page));
}

/** Share of claims counted as hits at each k (0 for no claims). */
export function recallAtKs(
  rankings: readonly { pages: readonly string[]; gold: readonly string[] }[],
  ks: readonly number[],
  criterion: GoldCriterion,
): Record<number, number> {
  return Object.fromEntries(
    ks.map((k) => [k, rankings.length === 0 ? 0 : rankings.filter((r) => hitAtK(r.pages, r.gold, k, criterion)).length / rankings.length]),
  );
}
