/**
 * Documents out of a search tool's structured result, and their chunks for the cleaning LLM
 * (toe.md §4.1). Pure and sandbox-safe (plain guards instead of zod, which workflows cannot use).
 */
import type { ToolName } from '../../../../shared/tools';

export interface RetrievedDocument {
  /** Stable id: the URL, or `wiki:<title>` / the passage id for index results. */
  id: string;
  title: string;
  url: string;
  text: string;
}

/** Characters per chunk sent to the cleaning LLM (a few hundred tokens; recorded snippets are short). */
export const CHUNK_CHARS = 1500;

export function documentsFromToolResult(tool: ToolName, data: unknown): RetrievedDocument[] {
  const record = isRecord(data) ? data : {};
  const list = (key: string): Record<string, unknown>[] => (Array.isArray(record[key]) ? (record[key] as unknown[]).filter(isRecord) : []);
  switch (tool) {
    case 'web_search':
    case 'scholar_search':
      return list('results').map((r) => ({ id: str(r.url) || `${tool}:${str(r.title)}`, title: str(r.title), url: str(r.url), text: str(r.snippet) }));
    case 'search_wikipedia':
      return list('results').map((r) => ({ id: `wiki:${str(r.title)}`, title: str(r.title), url: '', text: stripTags(str(r.snippet)) }));
    case 'rag_search':
      return list('passages').map((p) => ({ id: str(p.id), title: str(p.title), url: '', text: str(p.text) }));
    default:
      return [];
  }
}

/** Splits text at sentence ends into chunks of at most CHUNK_CHARS (a longer sentence is cut). */
export function chunkText(text: string, size: number = CHUNK_CHARS): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return [];
  const sentences = clean.split(/(?<=[.!?])\s+/);
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    for (let start = 0; start < sentence.length; start += size) {
      const piece = sentence.slice(start, start + size);
      if (current !== '' && current.length + 1 + piece.length > size) {
        chunks.push(current);
        current = piece;
      } else {
        current = current === '' ? piece : `${current} ${piece}`;
      }
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
