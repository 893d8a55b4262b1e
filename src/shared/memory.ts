/**
 * Sandbox-safe vocabulary of the evidence memory (MERMAID §3): workflows import values from
 * here, node-side code builds on it. This file must stay free of imports.
 */

/** exact: a claim key equals an entry keyword; substring: containment either way (the released code); semantic: embedding cosine. */
export const MEMORY_RECALL_MODES = ['exact', 'substring', 'semantic'] as const;
export type MemoryRecallMode = (typeof MEMORY_RECALL_MODES)[number];

/** perCall: write after every tool call (the released code); endOfClaim: write once when the claim is done (the paper). */
export const MEMORY_UPDATE_MODES = ['perCall', 'endOfClaim'] as const;
export type MemoryUpdateMode = (typeof MEMORY_UPDATE_MODES)[number];

/** toolArgs: one entry per (tool, normalised args) (spec §9.3); query: one per case-insensitive query, any tool (the code). */
export const MEMORY_DEDUP_KEYS = ['toolArgs', 'query'] as const;
export type MemoryDedupKey = (typeof MEMORY_DEDUP_KEYS)[number];

export const MEMORY_RECALL_TOP_K = 3;
/** Characters of evidence shown per recalled entry, as in the released code. */
export const MEMORY_SNIPPET_CHARS = 2000;
export const GLOBAL_MEMORY_SCOPE = 'global';

export interface MemoryRecallOptions {
  mode: MemoryRecallMode;
  topK: number;
  /** Minimum cosine similarity for semantic recall. */
  similarityThreshold: number;
}

export interface MemoryUpdateOptions {
  mode: MemoryUpdateMode;
  dedup: MemoryDedupKey;
  /** Keep errors, empty and "not found" observations too (the released code does). */
  storeInvalid: boolean;
  /** Read-only memory (proxy-memory experiment, §3.3): updates write nothing and are counted. */
  frozen: boolean;
}

/** One tool call's result, as the executor saw it. */
export interface MemoryObservation {
  tool: string;
  args: Record<string, unknown>;
  /** The tool input shown in recalled lines; defaults to args.query or the first string argument. */
  query?: string;
  evidence: string;
  sources?: string[];
  /** The tool reported a failure (e.g. MCP isError). */
  isError?: boolean;
}

/** The released code's behaviour (§3.2), for reproducing the paper's numbers. */
export const MEMORY_CODE_COMPAT = {
  recall: { mode: 'substring', topK: MEMORY_RECALL_TOP_K, similarityThreshold: 0.5 },
  update: { mode: 'perCall', dedup: 'query', storeInvalid: true, frozen: false },
} as const satisfies { recall: MemoryRecallOptions; update: MemoryUpdateOptions };

/** Whether observations are written at this moment of a claim, or kept for later (decides the workflow's buffering). */
export function memoryWriteDue(mode: MemoryUpdateMode, moment: 'afterToolCall' | 'claimEnd'): boolean {
  return mode === 'perCall' ? moment === 'afterToolCall' : moment === 'claimEnd';
}
