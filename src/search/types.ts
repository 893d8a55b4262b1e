export interface SearchOptions {
  /** Maximum number of results, 1..MAX_SEARCH_LIMIT. */
  limit: number;
  signal?: AbortSignal;
}

export interface SearchProvider<R> {
  readonly name: string;
  search(query: string, options: SearchOptions): Promise<R[]>;
}

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
  /** Name of the provider that returned the result. */
  source: string;
  /** 1-based rank after normalisation and filtering. */
  position: number;
}

export type WebSearchProvider = SearchProvider<WebResult>;

/** What every provider factory accepts besides its key. */
export interface ProviderConnection {
  /** Overrides the provider's public endpoint (self-hosting, proxies, test fixtures). */
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}
