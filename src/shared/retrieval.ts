/** Sandbox-safe retrieval vocabulary: workflows, config and src/retrieval share it. No imports. */

/** bm25: lexical; dense: kNN over passage embeddings; hybrid: reciprocal rank fusion of both. */
export const RETRIEVAL_MODES = ['bm25', 'dense', 'hybrid'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

export const DEFAULT_RETRIEVAL_MODE: RetrievalMode = 'bm25';
