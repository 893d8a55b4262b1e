import { z } from 'zod';
import { defineProvider } from '../define-provider';
import { endpointUrl, fetchProviderJson } from '../provider-http';
import { type ProviderConnection } from '../types';
import { abstractFromInvertedIndex } from './inverted-index';
import { type ScholarResult, type ScholarSearchProvider } from './types';

const OPENALEX_BASE_URL = 'https://api.openalex.org';
const OPENALEX_MAX_PER_PAGE = 200;
const SELECTED_FIELDS = 'id,doi,display_name,publication_year,authorships,primary_location,abstract_inverted_index';

export type OpenAlexConfig = ProviderConnection & {
  /** Optional OpenAlex API key. */
  apiKey?: string;
  /** Contact address for OpenAlex's polite pool. */
  mailto?: string;
};

const OpenAlexResponse = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      doi: z.string().nullish(),
      display_name: z.string().nullish(),
      publication_year: z.number().nullish(),
      authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }) })).default([]),
      primary_location: z
        .object({ landing_page_url: z.string().nullish(), source: z.object({ display_name: z.string().nullish() }).nullish() })
        .nullish(),
      abstract_inverted_index: z.record(z.string(), z.array(z.number())).nullish(),
    }),
  ),
});

/** OpenAlex works search: GET /works?search=…; abstracts are rebuilt from the inverted index. */
export function createOpenAlexProvider(config: OpenAlexConfig = {}): ScholarSearchProvider {
  return defineProvider<ScholarResult>('openalex', async ({ query, limit, signal }) => {
    const url = endpointUrl(config, OPENALEX_BASE_URL, '/works');
    const identity = { ...(config.mailto ? { mailto: config.mailto } : {}), ...(config.apiKey ? { api_key: config.apiKey } : {}) };
    url.search = new URLSearchParams({ search: query, 'per-page': String(Math.min(limit, OPENALEX_MAX_PER_PAGE)), select: SELECTED_FIELDS, ...identity }).toString();
    const secrets = config.apiKey ? [config.apiKey] : [];
    const body = await fetchProviderJson({ provider: 'openalex', url, signal, connection: config, secrets }, OpenAlexResponse);
    return body.results.map((work) => ({
      title: work.display_name ?? '',
      url: work.doi ?? work.primary_location?.landing_page_url ?? work.id,
      snippet: abstractFromInvertedIndex(work.abstract_inverted_index),
      authors: work.authorships.flatMap((authorship) => authorship.author.display_name ?? []),
      year: work.publication_year ?? undefined,
      venue: work.primary_location?.source?.display_name ?? undefined,
    }));
  });
}
