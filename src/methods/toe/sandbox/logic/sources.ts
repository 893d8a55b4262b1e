/**
 * The retrieval agent's 8 actions mapped onto verity's evidence layer (toe.md §3.1, §10 #4).
 * Offline (the default) there is no arXiv, social-media, Reddit or fact-check provider: each such
 * action uses a named substitute, and the substitute is recorded in the trace. Live, they use the
 * scholarly arXiv provider and site-restricted web searches. Pure and sandbox-safe.
 */
import type { ToeSources } from '../toe-settings';
import type { ToeAction } from '../toe-policy';
import type { ToolName } from '../../../../shared/tools';

export type SearchAction = Exclude<ToeAction, 'stop'>;

export interface SourceCall {
  tool: ToolName;
  args: Record<string, unknown>;
  /** What actually answers, e.g. 'web_search' or 'scholar_search:arxiv'. */
  provider: string;
  /** Set when the paper's source is not available and another one stands in for it. */
  substitute?: string;
}

/** Which query family (toe.md §3.2) each action adapts. */
export const QUERY_FAMILY: Record<SearchAction, 'background' | 'supporting' | 'counter'> = {
  web: 'supporting',
  counter: 'counter',
  arxiv: 'background',
  wikipedia: 'background',
  social: 'supporting',
  factcheck: 'background',
  reddit: 'supporting',
};

/** How each source is described to the query writer. */
export const SOURCE_DESCRIPTIONS: Record<SearchAction, string> = {
  web: 'general web search',
  counter: 'web search for counter-evidence (sources that dispute or refute the claim)',
  arxiv: 'arXiv academic papers (keywords and technical terms)',
  wikipedia: 'Wikipedia (the title of the article about the main entity, plus a keyword)',
  social: 'social media posts (Twitter/X)',
  factcheck: 'fact-checking sites (PolitiFact, Snopes)',
  reddit: 'Reddit discussions',
};

export const OFFLINE_SUBSTITUTES: Partial<Record<SearchAction, string>> = {
  arxiv: 'rag_search over the local passage index stands in for arXiv (no offline arXiv provider)',
  social: 'web_search over the recorded web stands in for Twitter/X (no offline social-media provider)',
  factcheck: 'web_search over the recorded web (stored fact-checking evidence passages) stands in for PolitiFact/Snopes',
  reddit: 'web_search over the recorded web stands in for Reddit (no offline Reddit provider)',
};

const LIVE_SITES: Partial<Record<SearchAction, string[]>> = {
  social: ['x.com', 'twitter.com'],
  factcheck: ['politifact.com', 'snopes.com'],
  reddit: ['reddit.com'],
};

export function sourceCall(action: SearchAction, query: string, maxResults: number, sources: ToeSources): SourceCall {
  const web = (q: string): Pick<SourceCall, 'tool' | 'args' | 'provider'> => ({ tool: 'web_search', args: { query: q, max_results: maxResults }, provider: 'web_search' });
  switch (action) {
    case 'web':
    case 'counter':
      return web(query);
    case 'wikipedia':
      return { tool: 'search_wikipedia', args: { query, limit: maxResults }, provider: 'search_wikipedia' };
    case 'arxiv':
      if (sources === 'live') return { tool: 'scholar_search', args: { query, source: 'arxiv', max_results: maxResults }, provider: 'scholar_search:arxiv' };
      return { tool: 'rag_search', args: { query, k: maxResults }, provider: 'rag_search', substitute: OFFLINE_SUBSTITUTES.arxiv! };
    case 'social':
    case 'factcheck':
    case 'reddit': {
      if (sources === 'offline') return { ...web(query), substitute: OFFLINE_SUBSTITUTES[action]! };
      const sites = LIVE_SITES[action]!;
      const restricted = `${query} ${sites.map((site) => `site:${site}`).join(' OR ')}`;
      return { ...web(restricted), substitute: `site-restricted web_search (${sites.join(', ')}) stands in for the ${action} API` };
    }
  }
}
