import type { Client } from '@elastic/elasticsearch';
import { ConfigError, type VerityConfig } from '../config/config';
import { createBraveProvider } from './brave';
import { withDomainFilter } from './domain-filter';
import { createRecordedProvider } from './recorded-provider';
import { createArxivProvider } from './scholar/arxiv';
import { createOpenAlexProvider } from './scholar/openalex';
import { createPubMedProvider } from './scholar/pubmed';
import { createSearchApiScholarProvider } from './scholar/searchapi-scholar';
import type { ScholarSearchProvider } from './scholar/types';
import { createSearchApiProvider } from './searchapi';
import { createSearxngProvider } from './searxng';
import { createSerperProvider } from './serper';
import { createTavilyProvider } from './tavily';
import type { ProviderConnection, WebSearchProvider } from './types';
import { webIndexName } from './web-index';

export interface WebProviderDeps {
  /** Needed by the recorded provider. */
  es?: Client;
  /** HTTP overrides for the live providers (tests, proxies). */
  connection?: ProviderConnection;
}

function requireKey(value: string | undefined, variable: string, provider: string): string {
  if (!value) throw new ConfigError(`VERITY_WEB_SEARCH_PROVIDER=${provider} needs ${variable}`);
  return value;
}

/**
 * The web search provider named by VERITY_WEB_SEARCH_PROVIDER (default `recorded`, offline),
 * with the configured include/exclude domain lists applied. Keys come from the config only and
 * never appear in errors or logs.
 */
export function createWebSearchProvider(config: VerityConfig, deps: WebProviderDeps = {}): WebSearchProvider {
  const { web } = config;
  const domains = { include: web.includeDomains, exclude: web.excludeDomains };
  const connection = deps.connection ?? {};
  switch (web.provider) {
    case 'recorded': {
      if (!deps.es) throw new ConfigError('the recorded web search provider needs an Elasticsearch client');
      // Filtered inside the query, so `limit` results survive the filter.
      return createRecordedProvider({ es: deps.es, index: webIndexName(config.elasticsearch.indexPrefix), domains });
    }
    case 'serper':
      return withDomainFilter(createSerperProvider({ ...connection, apiKey: requireKey(web.serperApiKey, 'SERPER_API_KEY', 'serper') }), domains);
    case 'tavily':
      return withDomainFilter(createTavilyProvider({ ...connection, apiKey: requireKey(web.tavilyApiKey, 'TAVILY_API_KEY', 'tavily') }), domains);
    case 'brave':
      return withDomainFilter(createBraveProvider({ ...connection, apiKey: requireKey(web.braveApiKey, 'BRAVE_API_KEY', 'brave') }), domains);
    case 'searxng':
      return withDomainFilter(createSearxngProvider({ ...connection, baseUrl: requireKey(web.searxngUrl, 'SEARXNG_URL', 'searxng') }), domains);
    case 'searchapi':
      return withDomainFilter(createSearchApiProvider({ ...connection, apiKey: requireKey(web.searchApiKey, 'SEARCHAPI_API_KEY', 'searchapi') }), domains);
    default:
      throw new ConfigError(`unknown web search provider "${String(web.provider)}"`);
  }
}

/**
 * The live scholarly providers: arXiv, PubMed and OpenAlex always (keys and contact e-mail
 * optional), SearchAPI's Google Scholar when SEARCHAPI_API_KEY is set. Offline, search the
 * SciFact abstracts index (`<prefix>-scifact`) through retrievePassages instead.
 */
export function createScholarProviders(config: VerityConfig, connection: ProviderConnection = {}): ScholarSearchProvider[] {
  const { pubmedApiKey, openAlexApiKey, contactEmail } = config.scholar;
  const providers = [
    createArxivProvider(connection),
    createPubMedProvider({ ...connection, apiKey: pubmedApiKey, email: contactEmail, tool: 'verity' }),
    createOpenAlexProvider({ ...connection, apiKey: openAlexApiKey, mailto: contactEmail }),
  ];
  if (config.web.searchApiKey) providers.push(createSearchApiScholarProvider({ ...connection, apiKey: config.web.searchApiKey }));
  return providers;
}
