import { z } from 'zod';
import { defineProvider } from './define-provider';
import { endpointUrl, fetchProviderJson } from './provider-http';
import { plainSnippet } from './snippet-text';
import { type ProviderConnection, type WebResult, type WebSearchProvider } from './types';

const TAVILY_BASE_URL = 'https://api.tavily.com';
const TAVILY_MAX_RESULTS = 20;

const TavilyResponse = z.object({
  results: z.array(z.object({ title: z.string(), url: z.string(), content: z.string().optional(), score: z.number().optional() })),
});

/** Tavily: POST /search with a bearer key; `content` is its query-focused snippet. */
export function createTavilyProvider(config: ProviderConnection & { apiKey: string }): WebSearchProvider {
  return defineProvider<WebResult>('tavily', async ({ query, limit, signal }) => {
    const body = await fetchProviderJson(
      {
        provider: 'tavily',
        url: endpointUrl(config, TAVILY_BASE_URL, '/search'),
        method: 'POST',
        headers: { authorization: `Bearer ${config.apiKey}` },
        body: { query, max_results: Math.min(limit, TAVILY_MAX_RESULTS), search_depth: 'basic', include_answer: false },
        signal,
        connection: config,
        secrets: [config.apiKey],
      },
      TavilyResponse,
    );
    return body.results.map((item) => ({ title: item.title, url: item.url, snippet: plainSnippet(item.content) }));
  });
}
