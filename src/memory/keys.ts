/** Memory keys as the released code makes them: lower-cased, trimmed, empty ones skipped (§3.2). */
export function normalizeKeyword(text: string): string {
  return text.toLowerCase().trim();
}

/** The distinct non-empty keys of a claim's entities (subjects and objects), in first-seen order. */
export function keywordsOf(entities: readonly string[]): string[] {
  return [...new Set(entities.map(normalizeKeyword).filter((key) => key.length > 0))];
}
