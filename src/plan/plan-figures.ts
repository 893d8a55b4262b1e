/**
 * The figures of `verity sweep plan`: per (dataset × method × model), the run's claims times what
 * one claim costs, as a range. Pure; the samples come from a pilot on the simulator or from the
 * verdicts of earlier runs (plan-samples.ts).
 */
import { effectivePrice, findPrice, type ModelPrice, type PriceTable } from '../llm/prices';
import type { MethodName } from '../shared/constants';

/** What one verification used. */
export interface ClaimUsage {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface Range {
  low: number;
  high: number;
}

export type PlanSource =
  | { kind: 'earlier-runs'; verdicts: number }
  | { kind: 'pilot'; claims: number; failed: number };

export interface PlanRow {
  dataset: string;
  method: MethodName;
  model: string;
  claims: number;
  source: PlanSource | { kind: 'none'; reason: string };
  llmCalls?: Range;
  promptTokens?: Range;
  completionTokens?: Range;
  /** Undefined when the model has no price. */
  usd?: Range;
  /** The same calls through the provider's batch API (its batch price). */
  batchUsd?: Range;
  /** LLM calls of one claim: through a batch, each one waits a batch turnaround (an upper estimate: a method's parallel calls share one). */
  callsPerClaim?: Range;
}

export interface Plan {
  runId: string;
  rows: PlanRow[];
  /** Sum of the rows' USD ranges; undefined when any row has no price or no figures. */
  usd?: Range;
  /** The same through the batch API. */
  batchUsd?: Range;
  llmCalls: Range;
  /** Expected wall time of the sweep with every call through a batch (batch-wall-time.ts). */
  batchWallMs?: Range;
}

/** The range is never narrower than ±10% of the estimate (a real model's answers are not the pilot's). */
export const MIN_RELATIVE_MARGIN = 0.1;
/** Standard deviations each side. */
const SPREAD = 2;

/** A per-claim figure over the claims it was measured on. */
export interface SampleStats {
  count: number;
  mean: number;
  /** Sample standard deviation (0 with a single claim). */
  sd: number;
}

export function statsOf(samples: readonly number[]): SampleStats {
  const count = samples.length;
  const mean = count === 0 ? 0 : samples.reduce((sum, x) => sum + x, 0) / count;
  const variance = count > 1 ? samples.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (count - 1) : 0;
  return { count, mean, sd: Math.sqrt(variance) };
}

/**
 * The total over `claims` claims: the mean times the claims, ± 2 standard deviations of that total
 * (the mean's own uncertainty from a small sample, plus the spread of the claims), at least ±10%.
 */
export function totalRange(stats: SampleStats, claims: number): Range {
  if (stats.count === 0 || claims === 0) return { low: 0, high: 0 };
  const estimate = stats.mean * claims;
  const sdOfTotal = stats.sd * Math.sqrt((claims * claims) / stats.count + claims);
  const half = Math.max(SPREAD * sdOfTotal, MIN_RELATIVE_MARGIN * estimate);
  return { low: Math.max(0, Math.floor(estimate - half)), high: Math.ceil(estimate + half) };
}

/** One claim's figure: the mean ± 2 standard deviations of the claims measured (no margin: calls are whole numbers). */
export function perClaimRange(stats: SampleStats): Range {
  return { low: Math.max(0, Math.floor(stats.mean - SPREAD * stats.sd)), high: Math.ceil(stats.mean + SPREAD * stats.sd) };
}

/** Per-claim statistics of each usage figure. */
export interface UsageStats {
  llmCalls: SampleStats;
  promptTokens: SampleStats;
  completionTokens: SampleStats;
}

export function usageStatsOf(samples: readonly ClaimUsage[]): UsageStats {
  return {
    llmCalls: statsOf(samples.map((s) => s.llmCalls)),
    promptTokens: statsOf(samples.map((s) => s.promptTokens)),
    completionTokens: statsOf(samples.map((s) => s.completionTokens)),
  };
}

export function planRow(
  base: Omit<PlanRow, 'llmCalls' | 'promptTokens' | 'completionTokens' | 'usd' | 'source'>,
  stats: UsageStats,
  source: PlanSource,
  prices: PriceTable,
): PlanRow {
  const llmCalls = totalRange(stats.llmCalls, base.claims);
  const promptTokens = totalRange(stats.promptTokens, base.claims);
  const completionTokens = totalRange(stats.completionTokens, base.claims);
  const price = findPrice(base.model, prices);
  const usdAt = (perMillion: ModelPrice) => ({
    low: (promptTokens.low * perMillion.input + completionTokens.low * perMillion.output) / 1_000_000,
    high: (promptTokens.high * perMillion.input + completionTokens.high * perMillion.output) / 1_000_000,
  });
  const priced = price ? { usd: usdAt(effectivePrice(price)), batchUsd: usdAt(effectivePrice(price, { batch: true })) } : {};
  return { ...base, source, llmCalls, promptTokens, completionTokens, callsPerClaim: perClaimRange(stats.llmCalls), ...priced };
}

export function summarisePlan(runId: string, rows: PlanRow[]): Plan {
  const add = (ranges: (Range | undefined)[]): Range | undefined =>
    ranges.some((range) => range === undefined)
      ? undefined
      : ranges.reduce<Range>((sum, range) => ({ low: sum.low + range!.low, high: sum.high + range!.high }), { low: 0, high: 0 });
  const usd = add(rows.map((row) => row.usd));
  const batchUsd = add(rows.map((row) => row.batchUsd));
  return { runId, rows, ...(usd ? { usd } : {}), ...(batchUsd ? { batchUsd } : {}), llmCalls: add(rows.map((row) => row.llmCalls ?? { low: 0, high: 0 }))! };
}

/** Why `sweep run --max-usd` must not start, or undefined when the plan's upper estimate fits. */
export function maxUsdRefusal(plan: Plan, maxUsd: number): string | undefined {
  const unpriced = plan.rows.find((row) => row.usd === undefined);
  if (unpriced) {
    return unpriced.source.kind === 'none'
      ? `cannot check --max-usd ${maxUsd}: no estimate for ${unpriced.dataset} × ${unpriced.method} × ${unpriced.model} (${unpriced.source.reason})`
      : `cannot check --max-usd ${maxUsd}: model ${unpriced.model} has no price (add it to VERITY_PRICES_FILE)`;
  }
  if (plan.usd && plan.usd.high > maxUsd) {
    return `refusing to start: the plan's upper estimate $${formatUsd(plan.usd.high)} is above --max-usd ${maxUsd} (see \`verity sweep plan\`)`;
  }
  return undefined;
}

export function formatUsd(usd: number): string {
  return usd >= 100 ? usd.toFixed(0) : usd >= 1 ? usd.toFixed(2) : usd.toPrecision(2);
}

/**
 * What one verification of the plan is expected to spend, in tokens and (every row priced) dollars:
 * the middle of the rows' ranges over their claims. A sweep with a budget reserves it for each
 * verification until one has finished. Undefined when a row has no figures.
 */
export function plannedPerVerification(plan: Plan): { tokens: number; usd?: number } | undefined {
  const rows = plan.rows.filter((row) => row.claims > 0);
  const claims = rows.reduce((sum, row) => sum + row.claims, 0);
  if (claims === 0 || rows.some((row) => row.promptTokens === undefined || row.completionTokens === undefined)) return undefined;
  const middle = (range: Range) => (range.low + range.high) / 2;
  const tokens = rows.reduce((sum, row) => sum + middle(row.promptTokens!) + middle(row.completionTokens!), 0) / claims;
  const priced = rows.every((row) => row.usd !== undefined);
  return { tokens, ...(priced ? { usd: rows.reduce((sum, row) => sum + middle(row.usd!), 0) / claims } : {}) };
}
