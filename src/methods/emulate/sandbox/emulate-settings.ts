/**
 * Sandbox-safe settings of the `emulate` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 * Defaults are the released code's (qqqube/EMULATE, spec §3): 4 queries, 2 opened results per query.
 */
import type { MethodSampling } from '../../../shared/sampling';
import type { EmulateReleasedPrompts } from './released-prompts';

/** Where a visited result's content comes from: the search snippet (the code's default) or the page. */
export const EMULATE_CONTENT_MODES = ['snippet', 'page'] as const;
export type EmulateContentMode = (typeof EMULATE_CONTENT_MODES)[number];

export interface EmulateSettings {
  /** MAX_SEARCH_QUERIES: queries that produced at least one ranked result (spec §7.3). */
  maxSearchQueries: number;
  /** MAX_SEARCH_RESULTS_PER_QUERY: ranked results opened per query. */
  maxSearchResultsPerQuery: number;
  /** Results asked of the search engine per query (Serper's default is about 10). */
  resultsPerSearch: number;
  /** Queries kept from one query-generation call (the code produces one; the paper speaks of a list). */
  queriesPerGeneration: number;
  /** 'snippet': content = snippet (code default); 'page': read the page and run the WebPageExtractor agent. */
  contentMode: EmulateContentMode;
  /** Page chunks (about 1,600 characters each) read per opened result in 'page' mode. */
  pageChunks: number;
  /** Exact `yes`/`true` after trim + lower-case, as the code; otherwise punctuation and markdown are tolerated. */
  strictParsing: boolean;
  /**
   * The released code's quirks (spec §2, §3, §7): every quote stripped from queries, any unknown
   * SearchRank position falls back to engine order, SearchRank is called on an empty result list.
   * Implies strictParsing unless that is set explicitly.
   */
  codeCompat: boolean;
  /** Also skip links already parked or rejected, not only those in the memory bank (spec §7.4; not in the code). */
  dedupeSeenLinks: boolean;
  /** false = the RM-SR ablation (paper Table 3): engine order, no SearchRank call. */
  searchRank: boolean;
  /** false = the RM-SCC ablation: every result counts as self-contained, no SelfContainedCheck call. */
  selfContainedCheck: boolean;
  /**
   * The released code's own prompt templates (read from the user's checkout at verification start,
   * setting `releasedPromptsFrom`), rendered as agents.py does and answered as plain text with its
   * max tokens; unset: verity's wording with JSON answers. Use with codeCompat for the code's parsing.
   */
  releasedPrompts?: EmulateReleasedPrompts;
  /** Sampling of the method's LLM calls (temperature, topP, seed, maxTokens; `roles.<role>` overrides); unset: the worker's. */
  llm?: MethodSampling;
}

export const DEFAULT_EMULATE_SETTINGS: EmulateSettings = {
  maxSearchQueries: 4,
  maxSearchResultsPerQuery: 2,
  resultsPerSearch: 10,
  queriesPerGeneration: 1,
  contentMode: 'snippet',
  pageChunks: 2,
  strictParsing: false,
  codeCompat: false,
  dedupeSeenLinks: false,
  searchRank: true,
  selfContainedCheck: true,
};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveEmulateSettings(partial: Partial<EmulateSettings> | undefined): EmulateSettings {
  const given = partial ?? {};
  return { ...DEFAULT_EMULATE_SETTINGS, ...given, strictParsing: given.strictParsing ?? given.codeCompat ?? DEFAULT_EMULATE_SETTINGS.strictParsing };
}

/** One organic search result as EMULATE handles it (spec §2.0); `content` is set when it is visited. */
export interface EmulateSearchResult {
  title: string;
  link: string;
  snippet: string;
  /** The engine's 1-based rank. */
  position: number;
  content?: string;
}

/** The agents of the paper (7) and the code's optional WebPageExtractor. */
export const EMULATE_AGENTS = [
  'initialQuery',
  'searchRank',
  'webPageExtractor',
  'selfContained',
  'helpful',
  'sufficient',
  'classifier',
  'additionalQuery',
] as const;
export type EmulateAgent = (typeof EMULATE_AGENTS)[number];
