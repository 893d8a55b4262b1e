import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from '../src/shared/constants';

/** Typed keys of verity's custom search attributes (registered by `verity infra up`). */
export const SEARCH_ATTRIBUTE_KEYS = {
  run: defineSearchAttributeKey(SEARCH_ATTRIBUTES.run, SearchAttributeType.KEYWORD),
  dataset: defineSearchAttributeKey(SEARCH_ATTRIBUTES.dataset, SearchAttributeType.KEYWORD),
  method: defineSearchAttributeKey(SEARCH_ATTRIBUTES.method, SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey(SEARCH_ATTRIBUTES.model, SearchAttributeType.KEYWORD),
  label: defineSearchAttributeKey(SEARCH_ATTRIBUTES.label, SearchAttributeType.KEYWORD),
} as const;
