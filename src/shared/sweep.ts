/**
 * Sandbox-safe types and pure bookkeeping of a benchmark sweep (run × claims × variants), shared
 * by the sweep workflow, its activities and the CLI. No imports with runtime effect.
 */
import type { SweepCheck } from './check/sweep-document';
import type { MethodName, VerdictLabel } from './constants';
import { type FailureBaseline, type FailurePolicy, topFailureReasons } from './failure-policy';
import type { ConfigStamp, IdentityContext, RunPlacement } from './identity';
import type { MethodSettings } from './method-settings';
import type { VerificationLimits } from './verification-limits';
import type { BatchLaneSettings } from './batch';
import { overBudget } from './sweep-budget';

export interface SweepVariant {
  method: MethodName;
  model: string;
}

export interface SweepDatasetRef {
  name: string;
  file: string;
  format: string;
  /** Claims drawn (seeded, stratified by label); all when absent. */
  sample?: number;
  /** Retrieval index for this dataset's claims (default: the run's rag.index). */
  index?: string;
  /** Claims with these gold labels are left out before sampling. */
  dropLabels?: VerdictLabel[];
  /** sha256 of the file as the run's manifest recorded it: the worker refuses a file that has changed since. */
  sha256?: string;
  /** `perValue` claims (seeded, label-stratified) for every value of `meta.<field>`; the report groups by it. */
  stratify?: SweepStratify;
}

export interface SweepStratify {
  field: string;
  perValue: number;
}

export interface SweepBudget {
  usd?: number;
  tokens?: number;
}

/** The sweep's own statuses; they are also run-manifest statuses. */
export type SweepStatus = 'running' | 'paused' | 'budget-exhausted' | 'completed' | 'cancelled';

export interface SweepCounters {
  /** Verifications with a verdict (including `reused`). */
  done: number;
  /** Verifications that failed; each is recorded with its reason in `<prefix>-run-failures`. */
  failed: number;
  /** Verdicts that already existed for this run and were not verified again. */
  reused: number;
  tokens: number;
  costUsd: number;
  /** Verifications cancelled with the sweep (what they paid is in tokens and costUsd). */
  cancelled?: number;
}

/** The type of a cancelled sweep's run-failure record for each verification it cancelled. */
export const CANCELLED_WITH_SWEEP = 'CancelledWithSweep';

/** How long a cancelled sweep waits for its cancelled verifications (and their paid calls in flight) to close. */
export const CANCELLED_CLOSE_WAIT = '5 minutes';

/** A started verification: enough to count and record its outcome after a continue-as-new. */
export interface SweepChildRef {
  workflowId: string;
  ordinal: number;
  claimId: string;
  dataset: string;
  method: MethodName;
  model: string;
  /** The repeat (≥ 1) of a sweep with `repeats`; absent for repeat 0. */
  repeat?: number;
}

/** What crosses a continue-as-new: cursors, counters and the children still running. */
export interface SweepState {
  claimCount: number;
  /** Next work item (claim ordinal × variant) to consider. */
  cursor: number;
  counters: SweepCounters;
  status: SweepStatus;
  budget: SweepBudget;
  inFlight: SweepChildRef[];
  continuedAsNew: number;
  /** Failures by reason (bounded), for the top reasons shown when the failure-rate policy pauses. */
  failureReasons?: Record<string, number>;
  /** Why the sweep is paused, when a policy paused it. */
  pausedBy?: 'failure-rate';
  /** Where the failure-rate policy judges from (the start, or the last resume). */
  failureBaseline?: FailureBaseline;
}

export interface SweepInput {
  schemaVersion: 1;
  runId: string;
  datasets: SweepDatasetRef[];
  seed: number;
  variants: SweepVariant[];
  rag: { topK: number; index: string };
  /** Method settings from the config's `parameters.<method>`, passed to every verification. */
  settings?: MethodSettings;
  concurrency: number;
  /** One verification at a time, in dataset order. */
  ordered: boolean;
  /** Each (claim, method, model) is verified this many times, each repeat its own verification (absent: once). */
  repeats?: number;
  /** Every item is a whole text, checked as a document (`verity check`) instead of verified as one claim. */
  check?: SweepCheck;
  budget: SweepBudget;
  /**
   * The plan's estimate of one verification's spend (`sweep plan`'s per-claim figures), reserved for
   * each verification until one has finished; absent: the first runs alone to measure it.
   */
  plannedPerVerification?: SweepBudget;
  /** Pause past this failure rate (see failure-policy.ts); none when absent. */
  failurePolicy?: FailurePolicy;
  /** Limits of each verification (tokens, cost, wall time); none when absent. */
  limits?: VerificationLimits;
  /**
   * A verification whose workflow task has kept failing this long (in it or a child) is ended and
   * recorded as failed with the cause; 0 never. Absent: DEFAULT_STUCK_AFTER_MS.
   */
  stuckAfterMs?: number;
  /** The models whose LLM calls go through provider batches (src/shared/batch.ts); none when absent. */
  batch?: BatchLaneSettings;
  /** Claims read per page from `<prefix>-run-claims` (default 50). */
  pageSize?: number;
  /** Continue as new after this many history events, if the server does not suggest it first. */
  maxHistoryEvents?: number;
  /** Carried over by continue-as-new; absent on the first run. */
  state?: SweepState;
  /** The identity context of the sweep's verifications; absent in sweeps started before identities existed. */
  identity?: SweepIdentity;
}

export interface SweepIdentity extends IdentityContext {
  stamp: ConfigStamp;
  placement: RunPlacement;
}

/** One claim of a run as stored in `<prefix>-run-claims` (`_id` = `<run>/<ordinal>`). */
export interface RunClaim {
  runId: string;
  ordinal: number;
  claimId: string;
  dataset: string;
  /** Position of the claim's dataset in the run's dataset list. */
  datasetPosition: number;
  claim: string;
  /** Gold label as written in the dataset, and normalised (read by reports). */
  label: string | boolean;
  labelNorm: string;
  /** The claim's value of its dataset's `stratify.field`, when the dataset is stratified (read by reports). */
  stratum?: string;
}

/** A verification's outcome as the sweep counts it. */
export type SweepChildOutcome =
  | { ok: true; tokens: number; costUsd: number }
  | { ok: false; reason: string; type?: string; tokens?: number; costUsd?: number };

export interface SweepProgress {
  runId: string;
  status: SweepStatus;
  /** What the sweep's work items are: `documents` for a sweep with `check`; verifications otherwise. */
  items?: 'documents';
  total: number;
  done: number;
  failed: number;
  reused: number;
  running: number;
  /** Verifications cancelled with the sweep. */
  cancelled?: number;
  tokens: number;
  costUsd: number;
  budget: SweepBudget;
  /** How far the spend went past the budget (verifications already running when it ran out finish and are paid). */
  overBudget?: SweepBudget;
  continuedAsNew: number;
  pausedBy?: 'failure-rate';
  /** The most frequent failure reasons, most frequent first. */
  topFailureReasons?: { reason: string; count: number }[];
}

export const DEFAULT_SWEEP_PAGE_SIZE = 50;

/** A verification stuck on a failing workflow task this long is recorded as failed (config: `policies.failStuckAfterSeconds`). */
export const DEFAULT_STUCK_AFTER_MS = 30 * 60_000;

/** How often a sweep looks for stuck verifications: half the bound, between 5 s and 5 min. */
export function stuckCheckIntervalMs(stuckAfterMs: number): number {
  return Math.min(Math.max(stuckAfterMs / 2, 5_000), 5 * 60_000);
}
/**
 * Continue as new after this many events (≈ 300 verifications), well before the server's limits
 * (it also suggests continue-as-new by itself, on event count and history size).
 */
export const DEFAULT_SWEEP_MAX_HISTORY_EVENTS = 2_000;

/** The id of sweeps started before run ids were scoped by index prefix (see identity.ts's sweepWorkflowId). */
export function legacySweepWorkflowId(runId: string): string {
  return `sweep/${runId}`;
}

export function initialSweepState(input: Pick<SweepInput, 'budget'>): SweepState {
  return {
    claimCount: 0,
    cursor: 0,
    counters: { done: 0, failed: 0, reused: 0, tokens: 0, costUsd: 0 },
    status: 'running',
    budget: { ...input.budget },
    inFlight: [],
    continuedAsNew: 0,
  };
}

/** Work items are claim-major: all variants of claim 0, then of claim 1, … (dataset order). */
export function workItem(index: number, variantCount: number): { ordinal: number; variant: number } {
  return { ordinal: Math.floor(index / variantCount), variant: index % variantCount };
}

export function totalItems(state: Pick<SweepState, 'claimCount'>, variantCount: number): number {
  return state.claimCount * variantCount;
}

/**
 * With `repeats`, work items are repeat-major: every claim × variant of repeat 0 (claim-major, as
 * without repeats), then of repeat 1, …; an ordered sweep thus runs each repeat in dataset order.
 */
export function repeatedWorkItem(index: number, variantCount: number, claimCount: number): { ordinal: number; variant: number; repeat: number } {
  const perRepeat = Math.max(1, claimCount * variantCount);
  return { ...workItem(index % perRepeat, variantCount), repeat: Math.floor(index / perRepeat) };
}

/**
 * The settings of repeat `repeat` of a verification: repeat 0 keeps them as they are (its identity
 * is the verification's without repeats); repeat r ≥ 1 sets the method's `llm.repeat`, which enters
 * the identity hash and every LLM request (seed + r, see SamplingSettings.repeat).
 */
export function settingsOfRepeat(settings: MethodSettings | undefined, method: MethodName, repeat: number): MethodSettings | undefined {
  if (repeat === 0) return settings;
  const entry = ((settings as Record<string, { llm?: object } | undefined> | undefined)?.[method] ?? {}) as { llm?: object };
  return { ...settings, [method]: { ...entry, llm: { ...entry.llm, repeat } } } as MethodSettings;
}

export function windowSize(input: Pick<SweepInput, 'ordered' | 'concurrency'>): number {
  return input.ordered ? 1 : Math.max(1, input.concurrency);
}

/** How many more children may start now. */
export function freeSlots(input: Pick<SweepInput, 'ordered' | 'concurrency'>, running: number, remaining: number): number {
  return Math.max(0, Math.min(windowSize(input) - running, remaining));
}

export function isBudgetExhausted(counters: Pick<SweepCounters, 'tokens' | 'costUsd'>, budget: SweepBudget): boolean {
  return (budget.usd !== undefined && counters.costUsd >= budget.usd) || (budget.tokens !== undefined && counters.tokens >= budget.tokens);
}

/** Validates a budget change; a one-line problem, or null. */
export function findBudgetProblem(budget: unknown): string | null {
  if (typeof budget !== 'object' || budget === null) return 'the budget must be an object with usd and/or tokens';
  const { usd, tokens } = budget as Record<string, unknown>;
  if (usd === undefined && tokens === undefined) return 'give a budget in usd and/or tokens';
  if (usd !== undefined && !(typeof usd === 'number' && Number.isFinite(usd) && usd > 0)) return 'usd must be a positive number';
  if (tokens !== undefined && !(typeof tokens === 'number' && Number.isInteger(tokens) && tokens > 0)) return 'tokens must be a positive whole number';
  return null;
}

export function isFinished(status: SweepStatus): boolean {
  return status === 'completed' || status === 'cancelled';
}

/** Adds a finished verification to the counters. */
export function countOutcome(counters: SweepCounters, outcome: SweepChildOutcome): void {
  if (outcome.ok) {
    counters.done += 1;
    counters.tokens += outcome.tokens;
    counters.costUsd += outcome.costUsd;
  } else {
    // A verification ended by its limits spent something: the accounting keeps it.
    counters.failed += 1;
    counters.tokens += outcome.tokens ?? 0;
    counters.costUsd += outcome.costUsd ?? 0;
  }
}

export function sweepProgress(runId: string, state: SweepState, variantCount: number, running: number): SweepProgress {
  return {
    runId,
    status: state.status,
    total: totalItems(state, variantCount),
    ...state.counters,
    running,
    budget: { ...state.budget },
    ...overBudgetField(state),
    continuedAsNew: state.continuedAsNew,
    ...(state.pausedBy ? { pausedBy: state.pausedBy } : {}),
    ...(state.failureReasons && Object.keys(state.failureReasons).length > 0 ? { topFailureReasons: topFailureReasons(state.failureReasons) } : {}),
  };
}

function overBudgetField(state: SweepState): { overBudget?: SweepBudget } {
  const over = overBudget(state.counters, state.budget);
  return over ? { overBudget: over } : {};
}

/**
 * Remaining time from the pace observed since the observer started (items finished during
 * `elapsedMs`); undefined until something finished.
 */
export function estimateRemainingMs(finishedSinceStart: number, elapsedMs: number, remaining: number): number | undefined {
  if (finishedSinceStart <= 0 || elapsedMs <= 0) return undefined;
  return Math.round((elapsedMs / finishedSinceStart) * remaining);
}
