import { z } from 'zod';
import { InvalidArgumentsError, ProviderUnavailableError, RateLimitedError } from '../../search/errors';
import { endpointUrl, fetchProviderJson, parseProviderResponse } from '../../search/provider-http';
import type { ProviderConnection } from '../../search/types';
import { truncate } from '../../shared/text';
import { parseExtract } from './mediawiki-extract';
import { pageNotFound, type RelatedTopic, type WikiPage, type WikiSearchResults, type WikipediaProvider } from './page';
import { normaliseTitle } from './title';

export const DEFAULT_MEDIAWIKI_URL = 'https://en.wikipedia.org/w/api.php';
export const DEFAULT_MEDIAWIKI_USER_AGENT = 'verity/0.1 (claim verification research; https://github.com/verity)';
const PROVIDER = 'mediawiki';
const CLOSE_TITLES = 5;
/** MediaWiki returns at most 20 intro extracts per request. */
const MAX_LINK_SUMMARIES = 20;
const RELATED_SUMMARY_CHARS = 200;

export type MediaWikiConfig = ProviderConnection & { userAgent?: string; language?: string };

const ApiError = z.object({ error: z.object({ code: z.string(), info: z.string().default('') }).optional() });

const SearchResponse = z.object({
  query: z.object({
    searchinfo: z.object({ totalhits: z.number() }).optional(),
    search: z.array(z.object({ title: z.string(), pageid: z.number(), snippet: z.string().default(''), wordcount: z.number().optional(), timestamp: z.string().optional() })),
  }),
});

const TitledItem = z.object({ title: z.string() });
const QueryPage = z.object({
  title: z.string(),
  pageid: z.number().optional(),
  missing: z.boolean().optional(),
  invalid: z.boolean().optional(),
  extract: z.string().default(''),
  fullurl: z.string().optional(),
  categories: z.array(TitledItem).default([]),
  links: z.array(TitledItem).default([]),
});
const PagesResponse = z.object({ query: z.object({ pages: z.array(QueryPage).default([]) }).default({ pages: [] }) });

/** The Wikipedia tools against a live MediaWiki API (action=query: list=search, prop=extracts|categories|links|info). */
export class MediaWikiProvider implements WikipediaProvider {
  readonly name = 'mediawiki';
  readonly language: string;

  constructor(private readonly config: MediaWikiConfig = {}) {
    this.language = config.language ?? 'en';
  }

  async search(query: string, limit: number): Promise<WikiSearchResults> {
    const data = await this.call(SearchResponse, { list: 'search', srsearch: query, srlimit: String(limit), srprop: 'snippet|wordcount|timestamp' });
    const hits = data.query.search.map(({ title, pageid, snippet, wordcount, timestamp }) => ({ title, pageid, snippet, wordcount, timestamp }));
    return { hits, totalHits: data.query.searchinfo?.totalhits ?? hits.length };
  }

  async getPage(title: string): Promise<WikiPage> {
    const data = await this.call(PagesResponse, {
      prop: 'extracts|categories|links|info',
      titles: normaliseTitle(title),
      redirects: '1',
      explaintext: '1',
      exsectionformat: 'wiki',
      inprop: 'url',
      cllimit: 'max',
      clshow: '!hidden',
      pllimit: 'max',
      plnamespace: '0',
    });
    const page = data.query.pages[0];
    if (!page || page.missing || page.invalid || page.pageid === undefined) throw pageNotFound(title, await this.closeTitles(title));
    return {
      title: page.title,
      pageid: page.pageid,
      url: page.fullurl ?? '',
      ...parseExtract(page.extract),
      categories: page.categories.map((category) => category.title.replace(/^Category:/, '')),
      links: page.links.map((link) => link.title),
    };
  }

  /** The page's links with their intro (200 characters), then its categories, as the MERMAID Wikipedia server does. */
  async relatedTopics(page: WikiPage, limit: number): Promise<RelatedTopic[]> {
    const linked = page.links.slice(0, Math.min(limit, MAX_LINK_SUMMARIES));
    const topics: RelatedTopic[] = linked.length === 0 ? [] : await this.linkTopics(linked);
    const categories = page.categories.slice(0, Math.max(0, limit - topics.length)).map((category): RelatedTopic => ({ title: category, type: 'category' }));
    return [...topics, ...categories];
  }

  private async linkTopics(titles: string[]): Promise<RelatedTopic[]> {
    const data = await this.call(PagesResponse, { prop: 'extracts|info', titles: titles.join('|'), exintro: '1', explaintext: '1', exlimit: 'max', inprop: 'url', redirects: '1' });
    const byTitle = new Map(data.query.pages.filter((page) => !page.missing).map((page) => [page.title, page]));
    return titles.flatMap((title) => {
      const page = byTitle.get(title);
      return page ? [{ title, summary: truncate(page.extract, RELATED_SUMMARY_CHARS), url: page.fullurl, type: 'link' as const }] : [];
    });
  }

  private async closeTitles(title: string): Promise<string[]> {
    const { hits } = await this.search(normaliseTitle(title), CLOSE_TITLES);
    return hits.map((hit) => hit.title);
  }

  private async call<T>(schema: z.ZodType<T>, params: Record<string, string>): Promise<T> {
    const url = endpointUrl(this.config, DEFAULT_MEDIAWIKI_URL, '');
    url.search = new URLSearchParams({ action: 'query', format: 'json', formatversion: '2', ...params }).toString();
    const headers = { 'user-agent': this.config.userAgent ?? DEFAULT_MEDIAWIKI_USER_AGENT, 'api-user-agent': this.config.userAgent ?? DEFAULT_MEDIAWIKI_USER_AGENT };
    const data = await fetchProviderJson({ provider: PROVIDER, url, headers, connection: this.config, secrets: [] }, z.unknown());
    throwApiError(data);
    return parseProviderResponse(PROVIDER, schema, data);
  }
}

/** MediaWiki reports errors with HTTP 200 and an `error` object. */
function throwApiError(data: unknown): void {
  const error = ApiError.safeParse(data).data?.error;
  if (!error) return;
  if (error.code === 'ratelimited') throw new RateLimitedError(PROVIDER);
  if (error.code === 'maxlag' || error.code === 'readonly' || error.code.startsWith('internal_api_error')) {
    throw new ProviderUnavailableError(PROVIDER, `${error.code}: ${error.info}`);
  }
  throw new InvalidArgumentsError(PROVIDER, `${error.code}: ${error.info}`);
}
