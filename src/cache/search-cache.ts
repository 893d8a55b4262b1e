import type { SearchProvider } from '../search/types';
import { CacheMissError } from './cache-miss-error';
import { searchCacheKey } from './cache-keys';
import type { EsCache } from './es-cache';

/** A provider that answers from the cache first; in replay mode a miss throws instead of searching. */
export function withSearchCache<R>(provider: SearchProvider<R>, cache: EsCache<R[]>): SearchProvider<R> {
  if (cache.mode === 'off') return provider;
  return {
    name: provider.name,
    async search(query, options) {
      const params = { limit: options.limit };
      const key = searchCacheKey(provider.name, query, params);
      const cached = await cache.get(key);
      if (cached) return cached;
      if (cache.mode === 'replay') throw new CacheMissError('search cache', key, `${provider.name} query "${query}"`);
      const results = await provider.search(query, options);
      await cache.put(key, results, { provider: provider.name, query, ...params });
      return results;
    },
  };
}
