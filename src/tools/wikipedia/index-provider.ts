import type { Client, estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../../es/client';
import { IndexNotFoundError } from '../../retrieval/errors';
import { truncate } from '../../shared/text';
import { pageFromPassages, type PagePassage } from './passage-page';
import { pageNotFound, type RelatedTopic, type WikiPage, type WikiSearchResults, type WikipediaProvider } from './page';
import { normaliseTitle, wikipediaUrl } from './title';

const MAX_PAGE_PASSAGES = 1000;
const CLOSE_TITLES = 5;
const RELATED_SUMMARY_CHARS = 200;
const LIKE_TEXT_CHARS = 5000;
const SNIPPET_CHARS = 200;
const PASSAGE_FIELDS = ['doc_id', 'title', 'passage', 'text'];

/** One result per page: the best passage of each title, plus that page's lead passage. */
const ONE_PER_PAGE: estypes.SearchFieldCollapse = {
  field: 'title.keyword',
  inner_hits: { name: 'lead', size: 1, sort: [{ passage: 'asc' }], _source: ['text'] },
};

/** The Wikipedia tools over the offline passage index (`<prefix>-wiki`), as MediaWiki would answer them. */
export class IndexWikipediaProvider implements WikipediaProvider {
  readonly name = 'index';
  readonly language = 'en';

  constructor(
    private readonly es: Client,
    private readonly index: string,
  ) {}

  async search(query: string, limit: number): Promise<WikiSearchResults> {
    const response = await this.query<PagePassage>({
      size: limit,
      query: { multi_match: { query, fields: ['content', 'title^0.5'], type: 'most_fields' } },
      collapse: { field: 'title.keyword' },
      highlight: { require_field_match: false, fields: { text: { fragment_size: SNIPPET_CHARS, number_of_fragments: 1 } }, pre_tags: ['<span class="searchmatch">'], post_tags: ['</span>'] },
      aggs: { pages: { cardinality: { field: 'title.keyword' } } },
      _source: PASSAGE_FIELDS,
    });
    const hits = response.hits.hits.map((hit) => ({
      title: hit._source?.title ?? '',
      snippet: hit.highlight?.text?.[0] ?? truncate(hit._source?.text ?? '', SNIPPET_CHARS),
      pageid: hit._source?.doc_id ?? '',
    }));
    const pages = response.aggregations?.pages as estypes.AggregationsCardinalityAggregate | undefined;
    return { hits, totalHits: pages?.value ?? hits.length };
  }

  /** Exact title first, then the normalised title, then the normalised title ignoring case. */
  async getPage(title: string): Promise<WikiPage> {
    const normalised = normaliseTitle(title);
    const attempts: estypes.QueryDslQueryContainer[] = [...new Set([title, normalised])].map((value) => ({ term: { 'title.keyword': value } }));
    attempts.push({ term: { 'title.keyword': { value: normalised, case_insensitive: true } } });
    for (const query of attempts) {
      const passages = await this.pagePassages(query);
      if (passages.length > 0) return pageFromPassages(passages);
    }
    throw pageNotFound(title, await this.closeTitles(normalised));
  }

  /** Offline pages have no links or categories: related topics are the pages sharing the most terms with this one. */
  async relatedTopics(page: WikiPage, limit: number): Promise<RelatedTopic[]> {
    const response = await this.query<PagePassage>({
      size: limit,
      query: {
        bool: {
          must: { more_like_this: { fields: ['content'], like: truncate(page.text, LIKE_TEXT_CHARS), min_term_freq: 1, min_doc_freq: 1, max_query_terms: 25, minimum_should_match: '1' } },
          must_not: { term: { 'title.keyword': page.title } },
        },
      },
      collapse: ONE_PER_PAGE,
      _source: ['title'],
    });
    return response.hits.hits.map((hit) => {
      const title = hit._source?.title ?? '';
      return { title, summary: truncate(leadText(hit), RELATED_SUMMARY_CHARS), url: wikipediaUrl(title), type: 'similar' };
    });
  }

  private async pagePassages(query: estypes.QueryDslQueryContainer): Promise<PagePassage[]> {
    const response = await this.query<PagePassage>({
      size: MAX_PAGE_PASSAGES,
      query,
      sort: [{ doc_id: 'asc' }, { passage: 'asc' }],
      _source: PASSAGE_FIELDS,
    });
    return response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
  }

  /** Titles spelled like the asked one (fuzzy, prefix), else pages about the same words. */
  private async closeTitles(title: string): Promise<string[]> {
    const response = await this.query<PagePassage>({
      size: CLOSE_TITLES,
      query: {
        bool: {
          should: [
            { match: { title: { query: title, fuzziness: 'AUTO', boost: 3 } } },
            { match_phrase_prefix: { title: { query: title, boost: 2 } } },
            { match: { content: { query: title, boost: 0.2 } } },
          ],
        },
      },
      collapse: { field: 'title.keyword' },
      _source: ['title'],
    });
    return response.hits.hits.map((hit) => hit._source?.title ?? '').filter((found) => found !== '');
  }

  private async query<T>(request: Omit<estypes.SearchRequest, 'index'>): Promise<estypes.SearchResponse<T>> {
    try {
      return await this.es.search<T>({ index: this.index, ...request });
    } catch (err) {
      if (isIndexNotFound(err)) throw new IndexNotFoundError(this.index);
      throw err;
    }
  }
}

function leadText(hit: estypes.SearchHit): string {
  const lead = hit.inner_hits?.lead?.hits.hits[0]?._source as { text?: string } | undefined;
  return lead?.text ?? '';
}
