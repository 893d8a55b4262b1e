/** Sandbox-safe parsing of Tool-MAD's query-selection output: `[the query]` (spec §5). */

/** Longer "queries" are taken for a failed step (the model answered instead of querying). */
export const MAX_QUERY_CHARS = 400;

/**
 * The text inside the first `[...]`, else the whole output without quotes; empty or too long
 * falls back to `fallback` (the previous query, or the claim in round 1).
 */
export function parseQuery(raw: string, fallback: string): { query: string; parsedOk: boolean } {
  const bracketed = /\[([^\]]*)\]/.exec(raw);
  const candidate = (bracketed ? bracketed[1]! : raw).replace(/\s+/g, ' ').trim().replace(/^["'“”]+|["'“”]+$/g, '').trim();
  if (candidate.length === 0 || candidate.length > MAX_QUERY_CHARS) return { query: fallback, parsedOk: false };
  return { query: candidate, parsedOk: true };
}
