import type { SweepBudget, SweepCounters } from './sweep';

type Spend = Pick<SweepCounters, 'done' | 'failed' | 'tokens' | 'costUsd'>;

/** Whether a budget is set at all (in tokens or dollars). */
export function hasBudget(budget: SweepBudget): boolean {
  return budget.tokens !== undefined || budget.usd !== undefined;
}

/**
 * How many more verifications may start without the budget being crossed, when each one running
 * or about to start is assumed to spend what the finished ones spent on average. Until one has
 * finished, each is assumed to spend the plan's per-claim estimate (`sweep plan`) when there is
 * one, so a budget below one verification's estimate starts nothing; without an estimate one
 * verification runs alone and its spend sets the figure. A budget is never overshot by a whole
 * concurrency window.
 */
export function budgetSlots(spent: Spend, budget: SweepBudget, running: number, planned?: SweepBudget): number {
  if (!hasBudget(budget)) return Number.POSITIVE_INFINITY;
  const finished = spent.done + spent.failed;
  if (finished === 0 && planned !== undefined && coversBudget(planned, budget)) {
    return Math.min(slotsWithin(budget.tokens, spent.tokens, planned.tokens ?? 0, running), slotsWithin(budget.usd, spent.costUsd, planned.usd ?? 0, running));
  }
  if (finished === 0) return running === 0 ? 1 : 0;
  return Math.min(
    slotsWithin(budget.tokens, spent.tokens, spent.tokens / finished, running),
    slotsWithin(budget.usd, spent.costUsd, spent.costUsd / finished, running),
  );
}

/** Whether the estimate has a figure for each dimension the budget limits (an unpriced model has no dollars). */
function coversBudget(planned: SweepBudget, budget: SweepBudget): boolean {
  return (budget.tokens === undefined || planned.tokens !== undefined) && (budget.usd === undefined || planned.usd !== undefined);
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
