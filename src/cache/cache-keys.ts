import { canonicalJson, sha256Hex } from '../llm/canonical-json';

/** Queries that differ only in spacing are the same request. */
export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

/** Lower-case scheme and host (URL does that), no fragment, sorted query parameters. */
export function normaliseUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    parsed.searchParams.sort();
    return parsed.toString();
  } catch {
    return url.trim();
  }
}

export function searchCacheKey(provider: string, query: string, params: Record<string, unknown>): string {
  return sha256Hex(canonicalJson({ provider, query: normaliseQuery(query), params }));
}

export function pageCacheKey(reader: string, url: string): string {
  return sha256Hex(canonicalJson({ reader, url: normaliseUrl(url) }));
}
