import { z } from 'zod';
import { defineProvider } from './define-provider';
import { endpointUrl, fetchProviderJson } from './provider-http';
import { plainSnippet } from './snippet-text';
import { type ProviderConnection, type WebResult, type WebSearchProvider } from './types';

const BRAVE_BASE_URL = 'https://api.search.brave.com';
const BRAVE_MAX_COUNT = 20;

const BraveResponse = z.object({
  web: z.object({ results: z.array(z.object({ title: z.string(), url: z.string(), description: z.string().optional() })) }).optional(),
});

/** Brave Search: GET /res/v1/web/search with the key in X-Subscription-Token; no `web` section means no results. */
export function createBraveProvider(config: ProviderConnection & { apiKey: string }): WebSearchProvider {
  return defineProvider<WebResult>('brave', async ({ query, limit, signal }) => {
    const url = endpointUrl(config, BRAVE_BASE_URL, '/res/v1/web/search');
    url.search = new URLSearchParams({ q: query, count: String(Math.min(limit, BRAVE_MAX_COUNT)) }).toString();
    const body = await fetchProviderJson(
      { provider: 'brave', url, headers: { 'X-Subscription-Token': config.apiKey }, signal, connection: config, secrets: [config.apiKey] },
      BraveResponse,
    );
    return (body.web?.results ?? []).map((item) => ({ title: item.title, url: item.url, snippet: plainSnippet(item.description) }));
  });
}
