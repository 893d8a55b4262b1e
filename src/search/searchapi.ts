import { z } from 'zod';
import { defineProvider } from './define-provider';
import { endpointUrl, fetchProviderJson, type ProviderRequest } from './provider-http';
import { plainSnippet } from './snippet-text';
import { type ProviderConnection, type WebResult, type WebSearchProvider } from './types';

const SEARCHAPI_BASE_URL = 'https://www.searchapi.io';
const SEARCHAPI_MAX_NUM = 100;

export type SearchApiConfig = ProviderConnection & { apiKey: string };

const SearchApiGoogleResponse = z.object({
  organic_results: z.array(z.object({ title: z.string(), link: z.string(), snippet: z.string().optional() })).default([]),
});

/** The request SearchAPI engines share: GET /api/v1/search?engine=…, key as a bearer token (kept out of URLs). */
export function searchApiRequest(provider: string, config: SearchApiConfig, params: Record<string, string>, signal?: AbortSignal): ProviderRequest {
  const url = endpointUrl(config, SEARCHAPI_BASE_URL, '/api/v1/search');
  url.search = new URLSearchParams(params).toString();
  return { provider, url, headers: { authorization: `Bearer ${config.apiKey}` }, signal, connection: config, secrets: [config.apiKey] };
}

/** Google web results through SearchAPI (engine=google). */
export function createSearchApiProvider(config: SearchApiConfig): WebSearchProvider {
  return defineProvider<WebResult>('searchapi', async ({ query, limit, signal }) => {
    const params = { engine: 'google', q: query, num: String(Math.min(limit, SEARCHAPI_MAX_NUM)) };
    const body = await fetchProviderJson(searchApiRequest('searchapi', config, params, signal), SearchApiGoogleResponse);
    return body.organic_results.map((item) => ({ title: item.title, url: item.link, snippet: plainSnippet(item.snippet) }));
  });
}
