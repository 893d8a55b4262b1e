import type { estypes } from '@elastic/elasticsearch';
import type { KeywordRecallMode } from './recall-match';

/** Above this many substring terms the candidate query falls back to the whole scope (index.max_terms_count is 65,536). */
export const MAX_SUBSTRING_TERMS = 20_000;

/** Every contiguous substring of a key: an entry keyword contained in a claim key is one of them. */
export function substringsOf(key: string): string[] {
  const substrings = new Set<string>();
  for (let start = 0; start < key.length; start += 1) {
    for (let end = start + 1; end <= key.length; end += 1) substrings.add(key.slice(start, end));
  }
  return [...substrings];
}

function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (char) => `\\${char}`);
}

/**
 * A superset of the entries a keyword recall can match in a scope; the exact matching happens in
 * code (recall-match.ts), because no Elasticsearch analyzer reproduces Python's `in` both ways.
 * substring: `*key*` wildcards find keywords containing a claim key (a scan of the field's term
 * dictionary per key), and a terms query over the key's substrings finds keywords contained in it.
 */
export function keywordCandidateQuery(scope: string, claimKeys: readonly string[], mode: KeywordRecallMode): estypes.QueryDslQueryContainer {
  const inScope: estypes.QueryDslQueryContainer = { term: { runScope: scope } };
  if (mode === 'exact') return { bool: { filter: [inScope, { terms: { keywords: [...claimKeys] } }] } };
  const substrings = [...new Set(claimKeys.flatMap(substringsOf))];
  if (substrings.length > MAX_SUBSTRING_TERMS) return { bool: { filter: [inScope] } };
  return {
    bool: {
      filter: [inScope],
      should: [
        ...claimKeys.map((key) => ({ wildcard: { keywords: { value: `*${escapeWildcard(key)}*` } } })),
        { terms: { keywords: substrings } },
      ],
      minimum_should_match: 1,
    },
  };
}
