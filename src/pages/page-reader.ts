import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { webIndexName } from '../search/web-index';
import { readPage, type Page, type ReadPageOptions } from './read-page';
import { readRecordedPage } from './recorded-page';

/** Reads a page by URL: from the recorded web offline, or live (SSRF-safe). */
export interface PageReader {
  readonly name: 'recorded' | 'live';
  read(url: string, options?: { signal?: AbortSignal }): Promise<Page>;
}

export function createRecordedPageReader(es: Client, index: string): PageReader {
  return { name: 'recorded', read: (url) => readRecordedPage(es, index, url) };
}

export function createLivePageReader(options: ReadPageOptions = {}): PageReader {
  return { name: 'live', read: (url, call) => readPage(url, { ...options, signal: call?.signal ?? options.signal }) };
}

/** VERITY_PAGE_READER: 'recorded', 'live', or 'auto' (recorded exactly when the web search provider is recorded). */
export function createPageReader(config: VerityConfig, deps: { es: Client; live?: ReadPageOptions }): PageReader {
  const { pageReader, provider } = config.web;
  const recorded = pageReader === 'recorded' || (pageReader === 'auto' && provider === 'recorded');
  return recorded ? createRecordedPageReader(deps.es, webIndexName(config.elasticsearch.indexPrefix)) : createLivePageReader(deps.live);
}
