/**
 * Word-overlap similarity (cosine of word counts), the cheap stand-in for FIRE's SBERT similarity.
 * Sandbox-safe: workflows import it.
 */
export function lexicalSimilarity(a: string, b: string): number {
  const left = wordCounts(a);
  const right = wordCounts(b);
  let dot = 0;
  for (const [word, count] of left) dot += count * (right.get(word) ?? 0);
  const norm = Math.sqrt(sumOfSquares(left) * sumOfSquares(right));
  return norm === 0 ? 0 : dot / norm;
}

function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function sumOfSquares(counts: Map<string, number>): number {
  let sum = 0;
  for (const count of counts.values()) sum += count * count;
  return sum;
}
