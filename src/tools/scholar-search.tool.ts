import { z } from 'zod';
import type { ScholarSearchProvider } from '../search/scholar/types';
import { MAX_SEARCH_LIMIT } from '../search/search-request';
import { clampedInt, queryArgument } from './arguments';
import { defineTool } from './tool';

/** Scholarly search over one of the configured providers (arXiv, PubMed, OpenAlex, …); the first is the default. */
export function createScholarSearchTool(providers: readonly [ScholarSearchProvider, ...ScholarSearchProvider[]]) {
  const names = providers.map((provider) => provider.name) as [string, ...string[]];
  return defineTool({
    name: 'scholar_search',
    description: `Search scholarly papers (${names.join(', ')}). Returns title, url, abstract or snippet, authors, year and venue.`,
    input: z.object({
      query: queryArgument,
      source: z.enum(names).default(names[0]).describe(`Which index to search (default ${names[0]})`),
      max_results: clampedInt(10, MAX_SEARCH_LIMIT).describe('Maximum number of results (default 10)'),
    }),
    async run({ query, source, max_results }, { signal }) {
      const provider = providers.find((candidate) => candidate.name === source) ?? providers[0];
      const results = await provider.search(query, { limit: max_results, signal });
      return { query, source: provider.name, results, total: results.length };
    },
  });
}
