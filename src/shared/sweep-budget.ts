import type { SweepBudget, SweepCounters } from './sweep';

type Spend = Pick<SweepCounters, 'done' | 'failed' | 'tokens' | 'costUsd'>;

/** Whether a budget is set at all (in tokens or dollars). */
export function hasBudget(budget: SweepBudget): boolean {
  return budget.tokens !== undefined || budget.usd !== undefined;
}

/**
 * How many more verifications may start without the budget being crossed, when each one running
 * or about to start is assumed to spend what the finished ones spent on average. Until one has
 * finished there is no such figure: one verification runs alone and its spend sets the estimate,
 * so a budget is never overshot by a whole concurrency window.
 */
export function budgetSlots(spent: Spend, budget: SweepBudget, running: number): number {
  if (!hasBudget(budget)) return Number.POSITIVE_INFINITY;
  const finished = spent.done + spent.failed;
  if (finished === 0) return running === 0 ? 1 : 0;
  return Math.min(
    slotsWithin(budget.tokens, spent.tokens, spent.tokens / finished, running),
    slotsWithin(budget.usd, spent.costUsd, spent.costUsd / finished, running),
  );
}

function slotsWithin(limit: number | undefined, spent: number, perVerification: number, running: number): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  if (perVerification <= 0) return spent < limit ? Number.POSITIVE_INFINITY : 0;
  // A hair of tolerance, so that a budget of exactly n verifications' spend admits the n-th.
  return Math.max(0, Math.floor((limit - spent) / perVerification + 1e-9) - running);
}

/** By how much the spend went past the budget (only the dimensions that did), or undefined. */
export function overBudget(spent: Pick<SweepCounters, 'tokens' | 'costUsd'>, budget: SweepBudget): SweepBudget | undefined {
  const tokens = budget.tokens !== undefined && spent.tokens > budget.tokens ? spent.tokens - budget.tokens : undefined;
  const usd = budget.usd !== undefined && spent.costUsd > budget.usd ? spent.costUsd - budget.usd : undefined;
  if (tokens === undefined && usd === undefined) return undefined;
  return { ...(tokens !== undefined ? { tokens } : {}), ...(usd !== undefined ? { usd } : {}) };
}
