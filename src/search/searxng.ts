import { z } from 'zod';
import { defineProvider } from './define-provider';
import { fetchProviderJson } from './provider-http';
import { plainSnippet } from './snippet-text';
import { type ProviderConnection, type WebResult, type WebSearchProvider } from './types';

const SearxngResponse = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string(), content: z.string().optional() })),
});

/**
 * A self-hosted SearXNG instance: GET <baseUrl>/search?format=json (the instance must enable the
 * json format). SearXNG has no page-size parameter, so the first page is cut to the limit.
 */
export function createSearxngProvider(config: ProviderConnection & { baseUrl: string }): WebSearchProvider {
  return defineProvider<WebResult>('searxng', async ({ query, signal }) => {
    const url = new URL(`${config.baseUrl.replace(/\/+$/, '')}/search`);
    url.search = new URLSearchParams({ q: query, format: 'json', pageno: '1' }).toString();
    const body = await fetchProviderJson({ provider: 'searxng', url, signal, connection: config, secrets: [] }, SearxngResponse);
    return body.results.map((item) => ({ title: item.title, url: item.url, snippet: plainSnippet(item.content) }));
  });
}
