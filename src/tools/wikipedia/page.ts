import { ToolError } from '../errors';

/** A section and its subsections, as get_sections returns them. */
export interface WikiSection {
  title: string;
  /** 0 for top-level sections. */
  level: number;
  text: string;
  sections: WikiSection[];
}

export interface WikiPage {
  title: string;
  pageid: number | string;
  url: string;
  /** The lead: the text before the first section. */
  summary: string;
  text: string;
  sections: WikiSection[];
  categories: string[];
  links: string[];
}

export interface WikiSearchHit {
  title: string;
  /** HTML, matches wrapped in `<span class="searchmatch">` as MediaWiki does. */
  snippet: string;
  pageid: number | string;
  /** MediaWiki metadata; the offline index has neither. */
  wordcount?: number;
  timestamp?: string;
}

export interface WikiSearchResults {
  hits: WikiSearchHit[];
  /** Pages matching the query in total (not only those returned). */
  totalHits: number;
}

export interface RelatedTopic {
  title: string;
  summary?: string;
  url?: string;
  /** `link`/`category` from MediaWiki; `similar` for pages the offline index finds by shared terms. */
  type: 'link' | 'category' | 'similar';
}

/** Where the Wikipedia tools read pages from: the offline `wiki` index or a live MediaWiki API. */
export interface WikipediaProvider {
  readonly name: 'index' | 'mediawiki';
  readonly language: string;
  search(query: string, limit: number): Promise<WikiSearchResults>;
  /** Throws a `notFound` ToolError listing close titles when there is no such page. */
  getPage(title: string): Promise<WikiPage>;
  relatedTopics(page: WikiPage, limit: number): Promise<RelatedTopic[]>;
}

export function pageNotFound(title: string, closeTitles: string[]): ToolError {
  const hint = closeTitles.length > 0 ? ` Close titles: ${closeTitles.join('; ')}.` : ' No close titles either; try search_wikipedia.';
  return new ToolError('notFound', `Page does not exist: no Wikipedia page titled "${title}".${hint}`, { suggestions: closeTitles });
}
