import type { PageReader } from '../pages/page-reader';
import type { Page } from '../pages/read-page';
import { CacheMissError } from './cache-miss-error';
import { pageCacheKey } from './cache-keys';
import type { EsCache } from './es-cache';

/** A page reader that answers from the cache first; in replay mode a miss throws instead of fetching. */
export function withPageCache(reader: PageReader, cache: EsCache<Page>): PageReader {
  if (cache.mode === 'off') return reader;
  return {
    name: reader.name,
    async read(url, options) {
      const key = pageCacheKey(reader.name, url);
      const cached = await cache.get(key);
      if (cached) return cached;
      if (cache.mode === 'replay') throw new CacheMissError('page cache', key, `page ${url}`);
      const page = await reader.read(url, options);
      await cache.put(key, page, { reader: reader.name, url });
      return page;
    },
  };
}
