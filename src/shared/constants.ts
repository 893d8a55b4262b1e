/**
 * Sandbox-safe constants shared by workflows and node-side code. This file must stay free of
 * value imports so that workflows/ may import values from it.
 */

export const MAX_CLAIM_CHARS = 5000;
export const OBSERVATION_MAX_CHARS = 2000;

/** The registered methods' names (node code reads METHOD_NAMES in src/methods/registry.ts). */
export type { MethodName } from './method-settings';

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
