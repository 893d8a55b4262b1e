/**
 * Sandbox-safe settings of the `toe` method (workflow input), their defaults and resolution, and
 * the pure ToE logic the workflows run (re-exported from ./logic). Workflows import values from here.
 */
import type { MethodSampling } from '../../../shared/sampling';

/** The thresholds of toe.md §2.4 (paper §III-D, §IV-A). */
export interface ToeThresholds {
  /** τ_r^exp: a node whose own reliability is below this is expanded. */
  expandReliability: number;
  /** τ_r^dec: reliability above which a node can be decisive. */
  decisiveReliability: number;
  /** τ_v^+: decisive when v_aggr is above this … */
  decisiveVeracityHigh: number;
  /** τ_v^-: … or below this. */
  decisiveVeracityLow: number;
  /** τ_c: convergence when the root's v varied less than this over the last 3 iterations. */
  convergence: number;
}

/** The final 3-way label: v_0 < falseBelow → false, v_0 > trueAbove → true, else uncertain. */
export interface ToeFinalMapping {
  falseBelow: number;
  trueAbove: number;
}

/** blend: a node's own score counts next to its children's (λ = 1); paper: children only (λ = 0). */
export type ToeAggregationMode = 'blend' | 'paper';
/**
 * heuristic: the category/recency rules; learned: frozen weights from a file; online: the paper's
 * protocol (§III-B) — the heuristic for a warm-up of claims, then GRPO updates every group of
 * episodes, each update a new weights version in Elasticsearch.
 */
export type ToePolicyKind = 'heuristic' | 'learned' | 'online';

/** The online learner (policy `online`): paper §III-B, Table I. */
export interface ToeOnlineSettings {
  /** N_warm: claims the heuristic acts for before the first update (paper: 8). */
  warmupClaims: number;
  /** G: completed episodes per GRPO update (paper: 8); on the claim-order schedule, episodes per GRPO group within a version's update. */
  groupSize: number;
  /**
   * Claim-order schedule (a sweep's claims, default scope): claims per weights version. Claim i ≥ N_warm
   * acts with version ⌊(i − N_warm) / claimsPerVersion⌋, trained on the block of claims before it.
   */
  claimsPerVersion: number;
  /**
   * Who learns together: claims of one scope share the weights versions. Default
   * `run:<run id>/model:<model>` (a sweep's claims of one model; models never share a policy).
   */
  scope?: string;
}

export const DEFAULT_TOE_ONLINE: ToeOnlineSettings = { warmupClaims: 8, groupSize: 8, claimsPerVersion: 4 };
/** offline: recorded web, local indices and named substitutes; live: arXiv and site-restricted web search. */
export type ToeSources = 'offline' | 'live';

export interface ToeSettings {
  /** Nodes at this depth are never expanded (root = 0). */
  maxDepth: number;
  /** T_max: node evaluations per claim. */
  maxIterations: number;
  /** Iterations before a decisive or converged root may stop the loop (toe.md §10 #18). */
  minIterations: number;
  thresholds: ToeThresholds;
  finalMapping: ToeFinalMapping;
  /** Search steps per node's retrieval episode. */
  maxSearchSteps: number;
  maxResultsPerSearch: number;
  maxDocumentsPerNode: number;
  aggregation: ToeAggregationMode;
  softAnd: boolean;
  policy: ToePolicyKind;
  /** Weights file of the learned policy, and the online policy's starting weights (default: the shipped weights). */
  policyWeights?: string;
  online: ToeOnlineSettings;
  /** argmax, or a draw seeded by workflow id + node + step. */
  sampling: 'argmax' | 'sample';
  sources: ToeSources;
  /** Write every node's retrieval episode to `<prefix>-toe-episodes`. */
  logEpisodes: boolean;
  /** Sampling of the method's LLM calls (temperature, topP, seed, maxTokens; `roles.<role>` overrides); unset: the worker's. */
  llm?: MethodSampling;
}

export const DEFAULT_TOE_THRESHOLDS: ToeThresholds = {
  expandReliability: 0.7,
  decisiveReliability: 0.7,
  decisiveVeracityHigh: 0.7,
  decisiveVeracityLow: 0.3,
  convergence: 0.1,
};

export const DEFAULT_TOE_SETTINGS: ToeSettings = {
  maxDepth: 5,
  maxIterations: 20,
  minIterations: 1,
  thresholds: DEFAULT_TOE_THRESHOLDS,
  finalMapping: { falseBelow: 0.4, trueAbove: 0.6 },
  maxSearchSteps: 5,
  maxResultsPerSearch: 3,
  maxDocumentsPerNode: 10,
  aggregation: 'blend',
  softAnd: false,
  policy: 'heuristic',
  sampling: 'argmax',
  sources: 'offline',
  logEpisodes: true,
  online: DEFAULT_TOE_ONLINE,
};

/** What a verification's `settings.toe` may name: any setting, and any part of the nested ones. */
export type ToeSettingsInput = Partial<Omit<ToeSettings, 'thresholds' | 'finalMapping' | 'online'>> & {
  thresholds?: Partial<ToeThresholds>;
  finalMapping?: Partial<ToeFinalMapping>;
  online?: Partial<ToeOnlineSettings>;
};

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveToeSettings(partial: ToeSettingsInput | undefined): ToeSettings {
  return {
    ...DEFAULT_TOE_SETTINGS,
    ...partial,
    thresholds: { ...DEFAULT_TOE_THRESHOLDS, ...partial?.thresholds },
    finalMapping: { ...DEFAULT_TOE_SETTINGS.finalMapping, ...partial?.finalMapping },
    online: { ...DEFAULT_TOE_ONLINE, ...partial?.online },
  };
}

/** The online learner's scope of one verification: the setting, else its run and model. */
export function onlineScopeOf(settings: ToeSettings, runId: string, model: string): string {
  return settings.online.scope ?? `run:${runId}/model:${model}`;
}

export { aggregateTree } from './logic/aggregator';
export { chunkText, documentsFromToolResult } from './logic/documents';
export { clamp01, EMPTY_BELIEF, evaluateEvidence, evidenceWeight } from './logic/evaluator';
export { buildPolicyState, STATE_LAYOUT_VERSION } from './logic/state';
export { stepReward } from './logic/reward';
export { QUERY_FAMILY, SOURCE_DESCRIPTIONS, sourceCall } from './logic/sources';
export {
  addSubclaims,
  createTree,
  finalVerdict,
  hasConverged,
  markDecisive,
  nextInQueue,
  normaliseSubclaims,
  priorityOf,
  prunePending,
  rootOf,
  wantsExpansion,
} from './logic/tree';
