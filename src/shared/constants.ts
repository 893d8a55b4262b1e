/**
 * Sandbox-safe constants shared by workflows and node-side code. This file must stay free of
 * imports so that workflows/ may import values from it.
 */

export const MAX_CLAIM_CHARS = 5000;
export const OBSERVATION_MAX_CHARS = 2000;

export const METHODS = ['rag', 'mermaid', 'emulate', 'fire', 'tool-mad', 'toe'] as const;
export type MethodName = (typeof METHODS)[number];

export const VERDICT_LABELS = ['SUPPORTED', 'REFUTED', 'NEI'] as const;
export type VerdictLabel = (typeof VERDICT_LABELS)[number];

/** Custom search attributes registered on the Temporal namespace (all Keyword). */
export const SEARCH_ATTRIBUTES = {
  run: 'VerityRun',
  dataset: 'VerityDataset',
  method: 'VerityMethod',
  model: 'VerityModel',
  label: 'VerityLabel',
} as const;

/** Error types used for non-retryable ApplicationFailures, so clients can tell them apart. */
export const FAILURE_TYPES = {
  invalidInput: 'InvalidInput',
  indexNotFound: 'IndexNotFound',
  llmOutputInvalid: 'LlmOutputInvalid',
  llmRequestRejected: 'LlmRequestRejected',
  llmCacheMiss: 'LlmCacheMiss',
  /** The prompt does not fit the model's context window (even without evidence), or the server said so. */
  llmContextExceeded: 'LlmContextExceeded',
  configuration: 'ConfigurationError',
} as const;
