/**
 * Sandbox-safe settings of the `fire` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 * Defaults are the released code's (mbzuai-nlp/fire, eval/fire/config.py; spec §6.1).
 */
import type { MethodSampling } from '../../../shared/sampling';
import type { FireReleasedPrompts } from './released-prompts';

/** How near-duplicate queries and results are detected: embeddings (FIRE uses SBERT), word overlap, or not at all. */
export const FIRE_SIMILARITY_MODES = ['embedding', 'lexical', 'off'] as const;
export type FireSimilarityMode = (typeof FIRE_SIMILARITY_MODES)[number];

export interface FireSettings {
  /** max_steps: answer-or-search steps, hence at most this many searches. */
  maxSteps: number;
  /** max_retries: extra attempts of a step whose answer cannot be parsed (11 tries in all by default). */
  maxRetries: number;
  /** Organic results joined into one search result (FIRE asks Serper for k=3). */
  resultsPerSearch: number;
  /** Early stop when the proposed query, or the last two results, are more similar than this. */
  similarityThreshold: number;
  similarity: FireSimilarityMode;
  /**
   * The released code's own prompts (read from the user's checkout at verification start, setting
   * `releasedPromptsFrom`), rendered as verify_atomic_claim.py does, answered as plain text and read
   * with its JSON extraction; unset: verity's wording with a constrained JSON step.
   */
  releasedPrompts?: FireReleasedPrompts;
  /** Sampling of the method's LLM calls (temperature, topP, seed, maxTokens; `roles.<role>` overrides); unset: the worker's. */
  llm?: MethodSampling;
}

export const DEFAULT_FIRE_SETTINGS: FireSettings = {
  maxSteps: 5,
  maxRetries: 10,
  resultsPerSearch: 3,
  similarityThreshold: 0.9,
  similarity: 'embedding',
};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveFireSettings(partial: Partial<FireSettings> | undefined): FireSettings {
  return { ...DEFAULT_FIRE_SETTINGS, ...partial };
}

/**
 * The method label of a FIRE claim that ended without a readable final answer (its code returns
 * None and counts the claim as failed). The verdict's label is NEI; the report scores it per protocol.
 */
export const FIRE_NO_ANSWER_METHOD_LABEL = 'failed';
