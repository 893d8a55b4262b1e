/**
 * What ToE's claim analyzer (toe.md §8 P1) extracts from a node's claim, and the 7 decomposition
 * dimensions (§2.2). Sandbox-safe: no imports with runtime effect.
 */

/** The six categories of the paper's source-use analysis (Fig. 5). */
export const TOE_CATEGORIES = ['political', 'health', 'scientific', 'historical', 'celebrity', 'other'] as const;
export type ToeCategory = (typeof TOE_CATEGORIES)[number];

export const TOE_LOCALES = ['domestic', 'international', 'global'] as const;
export type ToeLocale = (typeof TOE_LOCALES)[number];

export const TOE_CLAIM_FLAGS = ['recent', 'historical', 'factual', 'opinion', 'prediction'] as const;
export type ToeClaimFlag = (typeof TOE_CLAIM_FLAGS)[number];

export interface ClaimFeatures {
  category: ToeCategory;
  locale: ToeLocale;
  flags: Record<ToeClaimFlag, boolean>;
}

/** The sub-claim dimensions of §III-D, one per sibling. */
export const TOE_DIMENSIONS = [
  'geographic_accuracy',
  'entity_identity',
  'core_event',
  'causal_relationship',
  'source_credibility',
  'quantitative_accuracy',
  'contextual_background',
] as const;
export type ToeDimension = (typeof TOE_DIMENSIONS)[number];
