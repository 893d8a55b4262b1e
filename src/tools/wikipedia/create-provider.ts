import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../../config/config';
import { wikiIndexName } from '../../corpus/wiki-index';
import { IndexWikipediaProvider } from './index-provider';
import { MediaWikiProvider } from './mediawiki-provider';
import type { WikipediaProvider } from './page';

/** The provider VERITY_WIKI_PROVIDER names: the offline wiki index (default) or a live MediaWiki API. */
export function createWikipediaProvider(config: VerityConfig, es: Client, wikiIndex?: string): WikipediaProvider {
  if (config.wikipedia.provider === 'mediawiki') {
    return new MediaWikiProvider({ baseUrl: config.wikipedia.mediawikiUrl, userAgent: config.wikipedia.userAgent });
  }
  return new IndexWikipediaProvider(es, wikiIndexName(config.elasticsearch.indexPrefix, wikiIndex));
}
