import type { WebResult } from '../../../src/search/types';
import type { WikiSearchHit } from '../../../src/tools/wikipedia/page';

/** searchapi.io's `/api/v1/search` JSON as MERMAID's search_tool.py reads it: `organic_results`, optional `answer_box`. */
export interface SearchApiResponse {
  search_parameters: { engine: string; q: string };
  search_metadata: { total_time_taken: number };
  organic_results: Array<{ position: number; title: string; link: string; source: string; snippet: string }>;
}

export function toSearchApiResponse(engine: string, query: string, results: ReadonlyArray<Pick<WebResult, 'title' | 'url' | 'snippet'>>): SearchApiResponse {
  return {
    search_parameters: { engine, q: query },
    search_metadata: { total_time_taken: 0 },
    organic_results: results.map((result, index) => ({ position: index + 1, title: result.title, link: result.url, source: hostOf(result.url), snippet: result.snippet })),
  };
}

/** MediaWiki `action=query&list=search` JSON, the fields MERMAID's wikipedia_tool.py copies into its results. */
export interface MediaWikiSearchResponse {
  batchcomplete: string;
  query: { searchinfo: { totalhits: number }; search: Array<{ ns: 0; title: string; pageid: number | string; wordcount: number; snippet: string; timestamp: string }> };
}

export function toMediaWikiSearchResponse(hits: readonly WikiSearchHit[], totalHits: number): MediaWikiSearchResponse {
  return {
    batchcomplete: '',
    query: {
      searchinfo: { totalhits: totalHits },
      search: hits.map((hit) => ({ ns: 0, title: hit.title, pageid: hit.pageid, wordcount: hit.wordcount ?? 0, snippet: hit.snippet, timestamp: hit.timestamp ?? '' })),
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
