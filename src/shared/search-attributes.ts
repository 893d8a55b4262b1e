import { defineSearchAttributeKey, type SearchAttributePair, SearchAttributeType } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from './constants';
import type { VerifyClaimInput } from './verify';

/** Typed keys of verity's custom search attributes (registered by `verity infra up`). */
export const SEARCH_ATTRIBUTE_KEYS = {
  run: defineSearchAttributeKey(SEARCH_ATTRIBUTES.run, SearchAttributeType.KEYWORD),
  dataset: defineSearchAttributeKey(SEARCH_ATTRIBUTES.dataset, SearchAttributeType.KEYWORD),
  method: defineSearchAttributeKey(SEARCH_ATTRIBUTES.method, SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey(SEARCH_ATTRIBUTES.model, SearchAttributeType.KEYWORD),
  label: defineSearchAttributeKey(SEARCH_ATTRIBUTES.label, SearchAttributeType.KEYWORD),
} as const;

/** Search attributes of a verification (run, method, model, dataset), set when it starts. */
export function verifySearchAttributes(input: Pick<VerifyClaimInput, 'runId' | 'method' | 'model' | 'dataset'>): SearchAttributePair[] {
  return [
    { key: SEARCH_ATTRIBUTE_KEYS.run, value: input.runId },
    { key: SEARCH_ATTRIBUTE_KEYS.method, value: input.method },
    { key: SEARCH_ATTRIBUTE_KEYS.model, value: input.model },
    ...(input.dataset ? [{ key: SEARCH_ATTRIBUTE_KEYS.dataset, value: input.dataset }] : []),
  ];
}
