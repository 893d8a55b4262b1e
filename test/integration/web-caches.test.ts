import { afterAll, describe, expect, it } from 'vitest';
import { CacheMissError } from '../../src/cache/cache-miss-error';
import { pageCacheKey, searchCacheKey } from '../../src/cache/cache-keys';
import { EsCache } from '../../src/cache/es-cache';
import { withPageCache } from '../../src/cache/page-cache';
import { withSearchCache } from '../../src/cache/search-cache';
import { createWebCaches } from '../../src/cache/web-caches';
import type { WebCacheMode } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import type { PageReader } from '../../src/pages/page-reader';
import type { Page } from '../../src/pages/read-page';
import type { WebResult, WebSearchProvider } from '../../src/search/types';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

const prefix = uniqueName('cache');
const config = testConfig({ ES_INDEX_PREFIX: prefix });
const es = createEsClient({ url: config.elasticsearch.url });

afterAll(async () => {
  await deleteIndicesWithPrefix(es, prefix);
  await es.close();
});

/** A provider that counts its calls, standing in for a paid or live one. */
function countingProvider(): WebSearchProvider & { calls: number } {
  const provider = {
    name: 'fake',
    calls: 0,
    async search(query: string, options: { limit: number }): Promise<WebResult[]> {
      provider.calls++;
      return [{ title: query, url: 'https://example.com/', snippet: `limit ${options.limit}`, source: 'fake', position: 1 }];
    },
  };
  return provider;
}

function countingReader(): PageReader & { calls: number } {
  const reader = {
    name: 'live' as const,
    calls: 0,
    async read(url: string): Promise<Page> {
      reader.calls++;
      return { url, title: 'T', text: 'body', contentType: 'text/html', bytes: 4, fetchedAt: '2024-01-01T00:00:00.000Z' };
    },
  };
  return reader;
}

let clock = Date.parse('2024-01-01T00:00:00Z');
const cacheOf = <V>(name: string, mode: WebCacheMode, ttlSeconds = 60) =>
  new EsCache<V>({ es, index: `${prefix}-${name}`, mode, ttlSeconds, now: () => clock });

describe('search cache', () => {
  it('misses, records, then hits without calling the provider; spacing does not matter', async () => {
    const provider = countingProvider();
    const cache = cacheOf<WebResult[]>('search-a', 'readwrite');
    const cached = withSearchCache(provider, cache);
    const first = await cached.search('eiffel tower', { limit: 3 });
    const second = await cached.search('  eiffel   tower ', { limit: 3 });
    expect(second).toEqual(first);
    expect(provider.calls).toBe(1);
    expect(cache.counters).toMatchObject({ hits: 1, misses: 1, writes: 1 });
    expect(cached.name).toBe('fake');
  });

  it('keys on the provider and parameters', async () => {
    const provider = countingProvider();
    const cached = withSearchCache(provider, cacheOf<WebResult[]>('search-b', 'readwrite'));
    await cached.search('q', { limit: 3 });
    await cached.search('q', { limit: 5 });
    expect(provider.calls).toBe(2);
    expect(searchCacheKey('a', 'q', { limit: 3 })).not.toBe(searchCacheKey('b', 'q', { limit: 3 }));
  });

  it('expires entries after the TTL', async () => {
    const provider = countingProvider();
    const cache = cacheOf<WebResult[]>('search-c', 'readwrite', 60);
    const cached = withSearchCache(provider, cache);
    await cached.search('ttl', { limit: 1 });
    clock += 61_000;
    await cached.search('ttl', { limit: 1 });
    expect(provider.calls).toBe(2);
    expect(cache.counters.expired).toBe(1);
  });

  it('replay serves recorded answers (even expired ones) and never calls the provider on a miss', async () => {
    const recorder = countingProvider();
    await withSearchCache(recorder, cacheOf<WebResult[]>('search-d', 'readwrite')).search('recorded query', { limit: 2 });
    clock += 10 * 24 * 3600 * 1000;
    const live = countingProvider();
    const replay = withSearchCache(live, cacheOf<WebResult[]>('search-d', 'replay'));
    expect((await replay.search('recorded query', { limit: 2 }))[0]?.title).toBe('recorded query');
    const miss = await replay.search('never recorded', { limit: 2 }).catch((err: unknown) => err);
    expect(miss).toBeInstanceOf(CacheMissError);
    expect((miss as CacheMissError).retryable).toBe(false);
    expect(live.calls).toBe(0);
  });

  it('off passes straight through', async () => {
    const provider = countingProvider();
    const cached = withSearchCache(provider, cacheOf<WebResult[]>('search-e', 'off'));
    expect(cached).toBe(provider);
  });
});

describe('page cache', () => {
  it('keys pages by normalised URL, and replay misses without fetching', async () => {
    const reader = countingReader();
    const cached = withPageCache(reader, cacheOf<Page>('page-a', 'readwrite'));
    await cached.read('https://EXAMPLE.com/a?b=2&a=1#top');
    const again = await cached.read('https://example.com/a?a=1&b=2');
    expect(again.text).toBe('body');
    expect(reader.calls).toBe(1);
    expect(pageCacheKey('live', 'https://example.com/x#y')).toBe(pageCacheKey('live', 'https://example.com/x'));

    const replayReader = countingReader();
    const replay = withPageCache(replayReader, cacheOf<Page>('page-a', 'replay'));
    expect((await replay.read('https://example.com/a?a=1&b=2')).title).toBe('T');
    await expect(replay.read('https://example.com/other')).rejects.toBeInstanceOf(CacheMissError);
    expect(replayReader.calls).toBe(0);
  });

  it('createWebCaches follows the configuration', () => {
    const caches = createWebCaches(testConfig({ ES_INDEX_PREFIX: prefix, VERITY_WEB_CACHE: 'replay', VERITY_SEARCH_CACHE_TTL_S: '5' }), es);
    expect(caches.search.mode).toBe('replay');
    expect(caches.search.index).toBe(`${prefix}-search-cache`);
    expect(caches.page.index).toBe(`${prefix}-page-cache`);
  });
});
