import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { wikiIndexName } from '../corpus/wiki-index';
import { readPage as readLivePage } from '../pages/read-page';
import { searchPassages } from '../retrieval/bm25';
import { createArxivProvider } from '../search/scholar/arxiv';
import { createOpenAlexProvider } from '../search/scholar/openalex';
import { createPubMedProvider } from '../search/scholar/pubmed';
import type { ScholarSearchProvider } from '../search/scholar/types';
import type { WebSearchProvider } from '../search/types';
import { createRagSearchTool, type SearchPassages } from './rag-search.tool';
import { createReadPageTool, type ReadPage } from './read-page.tool';
import { ToolRegistry } from './registry';
import { createScholarSearchTool } from './scholar-search.tool';
import type { Tool } from './tool';
import { createWebSearchTool } from './web-search.tool';
import { createWikipediaProvider } from './wikipedia/create-provider';
import type { WikipediaProvider } from './wikipedia/page';
import { createWikipediaTools } from './wikipedia/tools';

/** What the tools run against; a tool whose dependency is missing is not registered. */
export interface ToolDependencies {
  wikipedia: WikipediaProvider;
  searchPassages: SearchPassages;
  webSearch?: WebSearchProvider;
  scholar?: ScholarSearchProvider[];
  readPage?: ReadPage;
}

export function createToolRegistry(deps: ToolDependencies): ToolRegistry {
  const tools: Tool[] = [...createWikipediaTools(deps.wikipedia), createRagSearchTool(deps.searchPassages)];
  if (deps.webSearch) tools.push(createWebSearchTool(deps.webSearch));
  const [firstScholar, ...otherScholar] = deps.scholar ?? [];
  if (firstScholar) tools.push(createScholarSearchTool([firstScholar, ...otherScholar]));
  if (deps.readPage) tools.push(createReadPageTool(deps.readPage));
  return new ToolRegistry(tools);
}

export interface ToolDependencyOptions {
  /** Overrides `<prefix>-wiki`. */
  wikiIndex?: string;
  /** A web search provider (recorded or live); web_search is registered only with one. */
  webSearch?: WebSearchProvider;
}

/** The tools' dependencies from the configuration: keyless scholarly APIs and the SSRF-safe page reader need the internet. */
export function toolDependenciesFromConfig(config: VerityConfig, es: Client, options: ToolDependencyOptions = {}): ToolDependencies {
  const wikiIndex = wikiIndexName(config.elasticsearch.indexPrefix, options.wikiIndex);
  return {
    wikipedia: createWikipediaProvider(config, es, options.wikiIndex),
    searchPassages: (query, k) => searchPassages(es, wikiIndex, query, k),
    webSearch: options.webSearch,
    scholar: [createArxivProvider(), createPubMedProvider(), createOpenAlexProvider()],
    readPage: (url, signal) => readLivePage(url, { signal }),
  };
}
