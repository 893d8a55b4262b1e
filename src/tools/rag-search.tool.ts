import { z } from 'zod';
import type { Passage } from '../retrieval/passage';
import { RETRIEVAL_MODES, type RetrievalMode } from '../shared/retrieval';
import { clampedInt, queryArgument } from './arguments';
import { defineTool } from './tool';

/** Passage retrieval over the wiki index (`retrievePassages` with the gateway's query embedder). */
export type SearchPassages = (query: string, k: number, mode: RetrievalMode) => Promise<Passage[]>;

export const MAX_RAG_K = 50;

export function createRagSearchTool(searchPassages: SearchPassages, defaultMode: RetrievalMode) {
  return defineTool({
    name: 'rag_search',
    description: 'Retrieve the Wikipedia passages most relevant to a query (passage-level, best first), each with its page title and passage id.',
    input: z.object({
      query: queryArgument,
      k: clampedInt(5, MAX_RAG_K).describe(`Passages to return (1-${MAX_RAG_K}, default 5)`),
      mode: z
        .enum(RETRIEVAL_MODES)
        .default(defaultMode)
        .describe(`bm25 (keywords), dense (embeddings) or hybrid (both, fused); default ${defaultMode}`),
    }),
    async run({ query, k, mode }) {
      const passages = await searchPassages(query, k, mode);
      return { query, mode, passages: passages.map(({ id, title, text, score }) => ({ id, title, text, score })) };
    },
  });
}
