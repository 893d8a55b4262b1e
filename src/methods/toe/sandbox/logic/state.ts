/**
 * The retrieval policy's 29-dim state (toe.md §3.3): claim features plus search progress and
 * evidence status. The layout is versioned with the policy weights; any change to it must bump
 * STATE_LAYOUT_VERSION. Pure and sandbox-safe.
 */
import { TOE_ACTIONS, TOE_STATE_DIM, type ToeAction } from '../toe-policy';
import { TOE_CATEGORIES, TOE_CLAIM_FLAGS, TOE_LOCALES, type ClaimFeatures } from './claim-features';
import { clamp01 } from './evaluator';
import type { EvidenceItem } from './evidence-item';

export const STATE_LAYOUT_VERSION = 'toe-state-v1';

/** The 7 search actions (all but STOP), in TOE_ACTIONS order. */
export const SEARCH_ACTIONS = TOE_ACTIONS.filter((action): action is Exclude<ToeAction, 'stop'> => action !== 'stop');

/** Each feature's first index and width; together they cover 0..28 exactly once. */
export const STATE_LAYOUT = {
  version: STATE_LAYOUT_VERSION,
  fields: [
    { name: 'category', offset: 0, width: 6, encoding: `one-hot ${TOE_CATEGORIES.join('|')}` },
    { name: 'locale', offset: 6, width: 3, encoding: `one-hot ${TOE_LOCALES.join('|')}` },
    { name: 'flags', offset: 9, width: 5, encoding: `0/1 ${TOE_CLAIM_FLAGS.join('|')}` },
    { name: 'searchesDone', offset: 14, width: 1, encoding: 'n_s / maxSearchSteps' },
    { name: 'documentBudgetLeft', offset: 15, width: 1, encoding: '1 − documents / maxDocuments' },
    { name: 'evidenceItems', offset: 16, width: 1, encoding: 'min(1, items / 10)' },
    { name: 'stanceShares', offset: 17, width: 3, encoding: 'support|refute|neutral counts / max(1, items)' },
    { name: 'sourceSearches', offset: 20, width: 7, encoding: `searches per action ${SEARCH_ACTIONS.join('|')} / maxSearchSteps` },
    { name: 'authoritativeFound', offset: 27, width: 1, encoding: '0/1' },
    { name: 'reliability', offset: 28, width: 1, encoding: 'current r_{n,t}' },
  ],
} as const;

/** What the state is built from at one decision point of a node's retrieval episode. */
export interface PolicyStateInput {
  features: ClaimFeatures;
  /** Actions taken so far (STOP excluded). */
  actionsTaken: readonly Exclude<ToeAction, 'stop'>[];
  /** Distinct documents retrieved so far. */
  documents: number;
  evidence: readonly Pick<EvidenceItem, 'stance' | 'authoritative'>[];
  reliability: number;
  maxSearchSteps: number;
  maxDocuments: number;
}

/** Evidence items are scaled by this (the per-node document cap of §2.3). */
const EVIDENCE_SCALE = 10;

export function buildPolicyState(input: PolicyStateInput): number[] {
  const state = new Array<number>(TOE_STATE_DIM).fill(0);
  state[TOE_CATEGORIES.indexOf(input.features.category)] = 1;
  state[6 + TOE_LOCALES.indexOf(input.features.locale)] = 1;
  TOE_CLAIM_FLAGS.forEach((flag, i) => {
    state[9 + i] = input.features.flags[flag] ? 1 : 0;
  });
  const searches = input.actionsTaken.length;
  state[14] = clamp01(searches / input.maxSearchSteps);
  state[15] = clamp01(1 - input.documents / input.maxDocuments);
  const items = input.evidence.length;
  state[16] = clamp01(items / EVIDENCE_SCALE);
  const denominator = Math.max(1, items);
  state[17] = input.evidence.filter((e) => e.stance === 'support').length / denominator;
  state[18] = input.evidence.filter((e) => e.stance === 'refute').length / denominator;
  state[19] = input.evidence.filter((e) => e.stance === 'neutral').length / denominator;
  SEARCH_ACTIONS.forEach((action, i) => {
    state[20 + i] = clamp01(input.actionsTaken.filter((a) => a === action).length / input.maxSearchSteps);
  });
  state[27] = input.evidence.some((e) => e.authoritative) ? 1 : 0;
  state[28] = clamp01(input.reliability);
  return state;
}
