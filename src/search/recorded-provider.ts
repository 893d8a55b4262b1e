import type { Client } from '@elastic/elasticsearch';
import type { estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import { defineProvider } from './define-provider';
import { type DomainFilter, normaliseHost } from './domain-filter';
import { ProviderUnavailableError, SearchError } from './errors';
import { type WebResult, type WebSearchProvider } from './types';
import type { WebPassageDoc } from './web-index';

export const RECORDED_PROVIDER = 'recorded';

export interface RecordedProviderOptions {
  es: Client;
  /** The recorded-web index (`<prefix>-web`, filled by `verity ingest web`). */
  index: string;
  /** Applied inside the query, so `limit` results survive the filter. */
  domains?: DomainFilter;
}

/** The recorded web was never ingested: a setup problem, not a transient one. */
export class RecordedWebMissingError extends SearchError {
  constructor(readonly index: string) {
    super(RECORDED_PROVIDER, `index "${index}" does not exist; ingest the recorded web first with \`verity ingest web <file>\``);
  }
}

type StoredWebPassage = Pick<WebPassageDoc, 'title' | 'text' | 'url'>;

/** Offline web search: BM25 over recorded web passages, one result per page (URL), best passage as snippet. */
export function createRecordedProvider(options: RecordedProviderOptions): WebSearchProvider {
  return defineProvider<WebResult>(RECORDED_PROVIDER, async ({ query, limit, signal }) => {
    try {
      const response = await options.es.search<StoredWebPassage>(
        {
          index: options.index,
          size: limit,
          query: { bool: { must: { multi_match: { query, fields: ['content', 'title^0.5'], type: 'most_fields' } }, filter: domainClauses(options.domains) } },
          collapse: { field: 'url' },
          _source: ['title', 'text', 'url'],
        },
        { signal },
      );
      return response.hits.hits.map((hit) => ({
        title: hit._source?.title ?? '',
        url: hit._source?.url ?? '',
        snippet: hit._source?.text ?? '',
      }));
    } catch (err) {
      if (isIndexNotFound(err)) throw new RecordedWebMissingError(options.index);
      if (err instanceof SearchError) throw err;
      throw new ProviderUnavailableError(RECORDED_PROVIDER, `Elasticsearch: ${(err as Error).message}`);
    }
  });
}

/** Domain lists as filters on the stored host suffixes (a domain matches itself and its subdomains). */
function domainClauses(domains: DomainFilter = {}): estypes.QueryDslQueryContainer[] {
  const include = (domains.include ?? []).map(normaliseHost);
  const exclude = (domains.exclude ?? []).map(normaliseHost);
  const clauses: estypes.QueryDslQueryContainer[] = [];
  if (include.length > 0) clauses.push({ terms: { hosts: include } });
  if (exclude.length > 0) clauses.push({ bool: { must_not: { terms: { hosts: exclude } } } });
  return clauses;
}
