import { z } from 'zod';
import { defineProvider } from '../define-provider';
import { fetchProviderJson } from '../provider-http';
import { searchApiRequest, type SearchApiConfig } from '../searchapi';
import { plainSnippet } from '../snippet-text';
import { type ScholarResult, type ScholarSearchProvider } from './types';
import { yearIn } from './year';

const SCHOLAR_MAX_NUM = 20;

const SearchApiScholarResponse = z.object({
  organic_results: z
    .array(
      z.object({
        title: z.string(),
        link: z.string().optional(),
        snippet: z.string().optional(),
        /** "A Author, B Author - Venue, 2020 - publisher.com" */
        publication: z.string().optional(),
        authors: z.array(z.object({ name: z.string() })).optional(),
      }),
    )
    .default([]),
});

/** Google Scholar through SearchAPI (engine=google_scholar); citation-only entries without a link are skipped. */
export function createSearchApiScholarProvider(config: SearchApiConfig): ScholarSearchProvider {
  return defineProvider<ScholarResult>('searchapi-scholar', async ({ query, limit, signal }) => {
    const params = { engine: 'google_scholar', q: query, num: String(Math.min(limit, SCHOLAR_MAX_NUM)) };
    const body = await fetchProviderJson(searchApiRequest('searchapi-scholar', config, params, signal), SearchApiScholarResponse);
    return body.organic_results.flatMap((item) => {
      if (item.link === undefined) return [];
      const publication = parsePublicationLine(item.publication);
      return [
        {
          title: item.title,
          url: item.link,
          snippet: plainSnippet(item.snippet),
          authors: item.authors?.map((author) => author.name) ?? publication.authors,
          year: yearIn(item.publication),
          venue: publication.venue,
        },
      ];
    });
  });
}

/** Splits Scholar's "authors - venue, year - host" line; any part may be missing. */
export function parsePublicationLine(line: string | undefined): { authors: string[]; venue?: string } {
  const [authorPart, venuePart] = (line ?? '').split(' - ').map((part) => part.trim());
  const authors = authorPart ? authorPart.split(',').map((name) => name.replace('…', '').trim()).filter(Boolean) : [];
  const venue = venuePart?.replace(/,?\s*\b(18|19|20)\d{2}$/, '').trim();
  return { authors, venue: venue && !/^(18|19|20)\d{2}$/.test(venue) ? venue : undefined };
}
