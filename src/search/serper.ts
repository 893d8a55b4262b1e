import { z } from 'zod';
import { defineProvider } from './define-provider';
import { endpointUrl, fetchProviderJson } from './provider-http';
import { plainSnippet } from './snippet-text';
import { type ProviderConnection, type WebResult, type WebSearchProvider } from './types';

const SERPER_BASE_URL = 'https://google.serper.dev';
const SERPER_MAX_NUM = 100;

const SerperResponse = z.object({
  organic: z
    .array(z.object({ title: z.string(), link: z.string(), snippet: z.string().optional(), position: z.number().optional() }))
    .default([]),
});

/** Google results through Serper: POST /search with the key in X-API-KEY. */
export function createSerperProvider(config: ProviderConnection & { apiKey: string }): WebSearchProvider {
  return defineProvider<WebResult>('serper', async ({ query, limit, signal }) => {
    const body = await fetchProviderJson(
      {
        provider: 'serper',
        url: endpointUrl(config, SERPER_BASE_URL, '/search'),
        method: 'POST',
        headers: { 'X-API-KEY': config.apiKey },
        body: { q: query, num: Math.min(limit, SERPER_MAX_NUM) },
        signal,
        connection: config,
        secrets: [config.apiKey],
      },
      SerperResponse,
    );
    return body.organic.map((item) => ({ title: item.title, url: item.link, snippet: plainSnippet(item.snippet) }));
  });
}
