import type { Client } from '@elastic/elasticsearch';
import { withPageCache } from '../cache/page-cache';
import { withSearchCache } from '../cache/search-cache';
import { createWebCaches } from '../cache/web-caches';
import type { VerityConfig } from '../config/config';
import { wikiIndexName } from '../corpus/wiki-index';
import type { LlmGateway } from '../llm/gateway';
import type { EvidenceMemory } from '../memory/evidence-memory';
import { createPageReader } from '../pages/page-reader';
import { queryEmbedder } from '../retrieval/embedder';
import { retrievePassages } from '../retrieval/retrieve';
import { createScholarProviders, createWebSearchProvider } from '../search/provider-factory';
import type { ScholarResult, ScholarSearchProvider } from '../search/scholar/types';
import type { ProviderConnection, WebResult, WebSearchProvider } from '../search/types';
import type { MemoryRecallOptions } from '../shared/memory';
import type { RetrievalMode } from '../shared/retrieval';
import { createMemoryRecallTool } from './memory-recall.tool';
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
  /** rag_search's mode when the caller names none (VERITY_RAG_MODE). */
  ragMode?: RetrievalMode;
  webSearch?: WebSearchProvider;
  scholar?: ScholarSearchProvider[];
  readPage?: ReadPage;
  memory?: { recall: EvidenceMemory['recall']; defaults: MemoryRecallOptions };
}

export function createToolRegistry(deps: ToolDependencies): ToolRegistry {
  const tools: Tool[] = [...createWikipediaTools(deps.wikipedia), createRagSearchTool(deps.searchPassages, deps.ragMode ?? 'bm25')];
  if (deps.webSearch) tools.push(createWebSearchTool(deps.webSearch));
  const [firstScholar, ...otherScholar] = deps.scholar ?? [];
  if (firstScholar) tools.push(createScholarSearchTool([firstScholar, ...otherScholar]));
  if (deps.readPage) tools.push(createReadPageTool(deps.readPage));
  if (deps.memory) tools.push(createMemoryRecallTool(deps.memory, deps.memory.defaults));
  return new ToolRegistry(tools);
}

export interface ToolDependencyOptions {
  /** Overrides `<prefix>-wiki`. */
  wikiIndex?: string;
  /** Replaces the configured web search provider (it is still wrapped in the search cache). */
  webSearch?: WebSearchProvider;
  /** HTTP overrides for the live search providers (tests, proxies). */
  connection?: ProviderConnection;
  /** Embeds rag_search queries in dense and hybrid mode; without it only bm25 works. */
  gateway?: Pick<LlmGateway, 'embed'>;
  /** Registers memory_recall (read-only). */
  memory?: Pick<EvidenceMemory, 'recall'>;
}

/**
 * The tools' dependencies from the configuration: the web provider (recorded, offline, by default)
 * and scholarly providers behind the search cache, the page reader behind the page cache, rag_search
 * through retrievePassages, and memory_recall when a memory is given.
 */
export function toolDependenciesFromConfig(config: VerityConfig, es: Client, options: ToolDependencyOptions = {}): ToolDependencies {
  const wikiIndex = wikiIndexName(config.elasticsearch.indexPrefix, options.wikiIndex);
  const retrieval = { es, embedQuery: options.gateway && queryEmbedder(options.gateway) };
  const caches = createWebCaches<WebResult>(config, es);
  // Same index as the web results; the key names the provider, so entries never collide.
  const scholarCache = createWebCaches<ScholarResult>(config, es).search;
  const pageReader = withPageCache(createPageReader(config, { es }), caches.page);
  const { memory } = options;
  return {
    wikipedia: createWikipediaProvider(config, es, options.wikiIndex),
    searchPassages: (query, k, mode) => retrievePassages(retrieval, { index: wikiIndex, query, k, mode }),
    ragMode: config.rag.mode,
    webSearch: withSearchCache(options.webSearch ?? createWebSearchProvider(config, { es, connection: options.connection }), caches.search),
    scholar: createScholarProviders(config, options.connection).map((provider) => withSearchCache(provider, scholarCache)),
    readPage: (url, signal) => pageReader.read(url, { signal }),
    memory: memory && { recall: (scope, entities, recall) => memory.recall(scope, entities, recall), defaults: config.memory.recall },
  };
}
