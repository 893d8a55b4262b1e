import { rankResults, validateSearchRequest } from './search-request';
import { type SearchProvider } from './types';

export interface ProviderCall {
  query: string;
  limit: number;
  signal?: AbortSignal;
}

/** Wraps a provider's raw call with argument validation, `source` tagging and 1-based ranking. */
export function defineProvider<R extends { source: string; position: number }>(
  name: string,
  fetchResults: (call: ProviderCall) => Promise<Omit<R, 'source' | 'position'>[]>,
): SearchProvider<R> {
  return {
    name,
    async search(query, options) {
      const request = validateSearchRequest(name, query, options);
      const results = await fetchResults({ ...request, signal: options.signal });
      return rankResults<R>(
        results.map((result) => ({ ...result, source: name }) as Omit<R, 'position'>),
        request.limit,
      );
    },
  };
}
