/**
 * A tool result as MERMAID's released code shows it: `str(called_tool.content)`, the repr of the MCP
 * result's TextContent around the text its FastMCP server wrote (pydantic's compact JSON of the tool's
 * dict). For search_google and search_wikipedia that dict is rebuilt from verity's tool data, field for
 * field, so the same evidence gives the same characters. Sandbox-safe.
 */
import { pythonRepr } from './python-text';

/** `str([TextContent(type='text', text=…)])` (mcp 1.14.1). */
export function releasedObservation(text: string): string {
  return `[TextContent(type='text', text=${pythonRepr(text)}, annotations=None, meta=None)]`;
}

/**
 * The release's Wikipedia tools other than search_wikipedia require `title`; main.py sends `{"query": input}`,
 * so their MCP server refuses the call before running it, with this text (jsonschema's message, isError).
 */
const TITLE_TOOLS = new Set(['get_article', 'get_summary', 'summarize_article_for_query', 'summarize_article_section', 'extract_key_facts', 'get_related_topics', 'get_sections']);

/** The server's refusal of `{"query": …}` for a tool that requires another argument; undefined when the call runs. */
export function releasedArgumentError(tool: string): string | undefined {
  return TITLE_TOOLS.has(tool) ? "Input validation error: 'title' is a required property" : undefined;
}

interface WebData {
  query: string;
  results: { title: string; url: string; snippet: string }[];
}

interface WikiData {
  query: string;
  results: { title: string; snippet: string; pageid: number | string; wordcount?: number; timestamp?: string }[];
  language?: string;
}

/**
 * The server's text for the released tool, from verity's structured result (`data`), or undefined where
 * verity's text stands in (other tools, a result without data, a Wikipedia search with no hits). search_google's
 * `source` is the result's host, as the parity evidence server reports it in searchapi.io's `source`.
 */
export function releasedToolText(tool: string, data: unknown): string | undefined {
  if (tool === 'search_google' && isWebData(data)) {
    const results = data.results.slice(0, 10).map((result, index) => ({ title: result.title, link: result.url, snippet: result.snippet, source: hostOf(result.url), position: index + 1 }));
    return JSON.stringify({ query: data.query, results, total: results.length, search_metadata: { time: 0 } });
  }
  if (tool === 'search_wikipedia' && isWikiData(data) && data.results.length > 0) {
    const results = data.results.map((hit) => ({ title: hit.title, snippet: hit.snippet, pageid: hit.pageid, wordcount: hit.wordcount ?? 0, timestamp: hit.timestamp ?? '' }));
    return JSON.stringify({ query: data.query, results, status: 'success', count: results.length, language: data.language ?? 'en' });
  }
  return undefined;
}

/** URL.hostname for http(s) URLs (workflow code has no URL parser it can rely on). */
export function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)/i.exec(url);
  return match ? match[1]!.toLowerCase() : '';
}

function isWebData(data: unknown): data is WebData {
  const value = data as Partial<WebData> | null;
  return typeof value === 'object' && value !== null && typeof value.query === 'string' && Array.isArray(value.results);
}

function isWikiData(data: unknown): data is WikiData {
  return isWebData(data);
}
