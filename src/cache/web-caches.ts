import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { indexName } from '../es/indices';
import type { Page } from '../pages/read-page';
import { EsCache } from './es-cache';

/** The configured search and page caches: `<prefix>-search-cache` and `<prefix>-page-cache`. */
export function createWebCaches<R>(config: VerityConfig, es: Client): { search: EsCache<R[]>; page: EsCache<Page> } {
  const { mode, searchTtlS, pageTtlS } = config.webCache;
  const prefix = config.elasticsearch.indexPrefix;
  return {
    search: new EsCache<R[]>({ es, index: indexName(prefix, 'search-cache'), mode, ttlSeconds: searchTtlS }),
    page: new EsCache<Page>({ es, index: indexName(prefix, 'page-cache'), mode, ttlSeconds: pageTtlS }),
  };
}
