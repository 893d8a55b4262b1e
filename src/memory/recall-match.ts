import type { MemoryRecallMode } from '../shared/memory';
import { keywordsOf } from './keys';
import { cosineSimilarity } from '../retrieval/cosine';

export type KeywordRecallMode = Exclude<MemoryRecallMode, 'semantic'>;

/** What ranking needs of an entry. */
export interface RankableEntry {
  keywords: readonly string[];
  insertionOrder: number;
  embedding?: readonly number[];
}

export interface RankedEntry<T> {
  entry: T;
  score: number;
}

/** exact: equal keys; substring: either key contains the other (Python `s in e or e in s`). */
export function keywordMatches(mode: KeywordRecallMode, claimKey: string, entryKeyword: string): boolean {
  if (mode === 'exact') return claimKey === entryKeyword;
  return entryKeyword.includes(claimKey) || claimKey.includes(entryKeyword);
}

/** How many distinct claim keys match at least one of the entry's keywords. */
export function keywordScore(mode: KeywordRecallMode, claimKeys: readonly string[], entryKeywords: readonly string[]): number {
  return claimKeys.filter((key) => entryKeywords.some((keyword) => keywordMatches(mode, key, keyword))).length;
}

/**
 * The released code's recall (§3.2): keep entries scoring > 0, best score first, ties oldest
 * first, the first topK. Entities are normalised here, so callers pass them as decomposed.
 */
export function rankByKeywords<T extends RankableEntry>(
  entries: readonly T[],
  entities: readonly string[],
  mode: KeywordRecallMode,
  topK: number,
): RankedEntry<T>[] {
  const claimKeys = keywordsOf(entities);
  const scored = entries.map((entry) => ({ entry, score: keywordScore(mode, claimKeys, entry.keywords) }));
  return topRanked(scored.filter((ranked) => ranked.score > 0), topK);
}

/** Semantic recall: an entry's score is its best cosine to any claim key; entries below the threshold are dropped. */
export function rankBySimilarity<T extends RankableEntry>(
  entries: readonly T[],
  keyVectors: readonly (readonly number[])[],
  threshold: number,
  topK: number,
): RankedEntry<T>[] {
  const scored = entries
    // An entry embedded by a model of another dimension is not comparable: it is left out, not truncated.
    .filter((entry) => entry.embedding !== undefined && keyVectors.every((vector) => vector.length === entry.embedding!.length))
    .map((entry) => ({ entry, score: Math.max(...keyVectors.map((vector) => cosineSimilarity(vector, entry.embedding!))) }));
  return topRanked(
    scored.filter((ranked) => ranked.score >= threshold),
    topK,
  );
}

function topRanked<T extends RankableEntry>(scored: RankedEntry<T>[], topK: number): RankedEntry<T>[] {
  return scored
    .sort((a, b) => b.score - a.score || a.entry.insertionOrder - b.entry.insertionOrder)
    .slice(0, topK);
}
