import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { defineProvider } from '../define-provider';
import { InvalidArgumentsError } from '../errors';
import { endpointUrl, fetchProviderText, parseProviderResponse } from '../provider-http';
import { type ProviderConnection } from '../types';
import { type ScholarResult, type ScholarSearchProvider } from './types';
import { yearIn } from './year';

const ARXIV_BASE_URL = 'https://export.arxiv.org';
const REPEATED_ELEMENTS = new Set(['entry', 'author', 'link', 'category']);

const text = z.string().transform((value) => value.replace(/\s+/g, ' ').trim());

const ArxivFeed = z.object({
  feed: z.object({
    entry: z
      .array(
        z.object({
          id: z.string(),
          title: text,
          summary: text.default(''),
          published: z.string().optional(),
          author: z.array(z.object({ name: text })).default([]),
          journal_ref: text.optional(),
        }),
      )
      .default([]),
  }),
});

// Attributes (link hrefs, xmlns declarations) are not needed; prefixes go so that arxiv:journal_ref reads journal_ref.
const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, isArray: (name) => REPEATED_ELEMENTS.has(name) });

/** arXiv's Atom API: GET /api/query?search_query=all:…, ranked by relevance. */
export function createArxivProvider(config: ProviderConnection = {}): ScholarSearchProvider {
  return defineProvider<ScholarResult>('arxiv', async ({ query, limit, signal }) => {
    const url = endpointUrl(config, ARXIV_BASE_URL, '/api/query');
    url.search = new URLSearchParams({ search_query: `all:${query}`, start: '0', max_results: String(limit), sortBy: 'relevance' }).toString();
    const xml = await fetchProviderText({ provider: 'arxiv', url, signal, connection: config, secrets: [], headers: { accept: 'application/atom+xml' } });
    const feed = parseProviderResponse('arxiv', ArxivFeed, parser.parse(xml));
    const entries = feed.feed.entry;
    // arXiv reports a malformed query as a single entry whose id points at its error documentation.
    if (entries[0]?.id.includes('/api/errors')) throw new InvalidArgumentsError('arxiv', entries[0].summary);
    return entries.map((entry) => ({
      title: entry.title,
      url: entry.id,
      snippet: entry.summary,
      authors: entry.author.map((author) => author.name),
      year: yearIn(entry.published),
      venue: entry.journal_ref ?? 'arXiv',
    }));
  });
}
