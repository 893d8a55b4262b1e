/**
 * Sandbox-safe tool names and families, shared by the tool registry (node side) and workflows
 * (activity names and presets). Each tool runs as its own activity, `tools.<name>`.
 */
import { FAILURE_TYPES } from './constants';

export const TOOL_FAMILIES = {
  search_wikipedia: 'wikipedia',
  get_article: 'wikipedia',
  get_summary: 'wikipedia',
  get_sections: 'wikipedia',
  summarize_article_section: 'wikipedia',
  extract_key_facts: 'wikipedia',
  get_related_topics: 'wikipedia',
  rag_search: 'retrieval',
  web_search: 'web',
  scholar_search: 'scholar',
  read_page: 'page',
  memory_recall: 'memory',
} as const;

export type ToolName = keyof typeof TOOL_FAMILIES;
export type ToolFamily = (typeof TOOL_FAMILIES)[ToolName];
export const TOOL_NAMES = Object.keys(TOOL_FAMILIES) as ToolName[];

/** The activity type that runs a tool, visible as such in the Temporal UI. */
export type ToolActivityName = `tools.${ToolName}`;
export function toolActivityName(name: ToolName): ToolActivityName {
  return `tools.${name}`;
}

/** Failure types of tool errors; the retryable ones are listed in TOOL_RETRYABLE_FAILURES. */
export const TOOL_FAILURE_TYPES = {
  invalidArguments: FAILURE_TYPES.invalidInput,
  unknownTool: 'UnknownTool',
  notFound: 'NotFound',
  blockedUrl: 'BlockedUrl',
  unreadable: 'UnreadablePage',
  unauthorized: 'Unauthorized',
  indexNotFound: FAILURE_TYPES.indexNotFound,
  rateLimited: 'RateLimited',
  unavailable: 'ToolUnavailable',
  cacheMiss: 'CacheMiss',
} as const;

export type ToolFailureType = (typeof TOOL_FAILURE_TYPES)[keyof typeof TOOL_FAILURE_TYPES];
