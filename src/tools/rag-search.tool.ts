import { z } from 'zod';
import type { Passage } from '../retrieval/bm25';
import { clampedInt, queryArgument } from './arguments';
import { defineTool } from './tool';

/** Passage retrieval over the wiki index (BM25 today; dense/hybrid modes plug in behind the same function). */
export type SearchPassages = (query: string, k: number) => Promise<Passage[]>;

export const MAX_RAG_K = 50;

export function createRagSearchTool(searchPassages: SearchPassages) {
  return defineTool({
    name: 'rag_search',
    description: 'Retrieve the Wikipedia passages most relevant to a query (passage-level, best first), each with its page title and passage id.',
    input: z.object({ query: queryArgument, k: clampedInt(5, MAX_RAG_K).describe(`Passages to return (1-${MAX_RAG_K}, default 5)`) }),
    async run({ query, k }) {
      const passages = await searchPassages(query, k);
      return { query, passages: passages.map(({ id, title, text, score }) => ({ id, title, text, score })) };
    },
  });
}
