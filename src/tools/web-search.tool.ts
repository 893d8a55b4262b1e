import { z } from 'zod';
import { MAX_SEARCH_LIMIT } from '../search/search-request';
import type { WebSearchProvider } from '../search/types';
import { clampedInt, queryArgument } from './arguments';
import { defineTool } from './tool';

export function createWebSearchTool(provider: WebSearchProvider) {
  return defineTool({
    name: 'web_search',
    description: 'Search the web for a query. Returns results with title, url, snippet, source and position.',
    input: z.object({ query: queryArgument, max_results: clampedInt(10, MAX_SEARCH_LIMIT).describe('Maximum number of results (default 10)') }),
    async run({ query, max_results }, { signal }) {
      const results = await provider.search(query, { limit: max_results, signal });
      return { query, results, total: results.length };
    },
  });
}
