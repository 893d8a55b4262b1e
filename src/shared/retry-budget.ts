import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time';

/**
 * The retry budget (VERITY_RETRY_BUDGET_S): how long an activity's infrastructure errors are
 * retried before the verification fails. Absent, each preset keeps its own (activity-options.ts:
 * 30 minutes for LLM calls, 15 for Elasticsearch). It travels in the memo of the workflow the
 * client starts (copied to child workflows and continue-as-new), so the workflow code stays the
 * same and old histories replay.
 */
export const RETRY_BUDGET_MEMO = 'verityRetryBudgetMs';

/**
 * `options` with the budget as their schedule-to-close timeout. Presets limited by attempts
 * (third-party HTTP tools) and activities without a schedule-to-close timeout keep theirs.
 */
export function withRetryBudget<O extends ActivityOptions | LocalActivityOptions>(options: O, budgetMs: unknown): O {
  if (typeof budgetMs !== 'number' || !(budgetMs > 0)) return options;
  if (options.retry?.maximumAttempts !== undefined || options.scheduleToCloseTimeout === undefined) return options;
  return { ...options, scheduleToCloseTimeout: budgetMs };
}

/**
 * `options` of a local activity with the budget applied: as withRetryBudget, and also as a number of
 * attempts whose backoffs fit in the budget, with each attempt no longer than the budget. The
 * worker retries a local activity within its workflow task and does not stop at the
 * schedule-to-close timeout (with Elasticsearch down, a verdict store retried for its whole 15
 * minutes under a 5-second budget), so attempts bound it.
 */
export function withLocalRetryBudget(options: LocalActivityOptions, budgetMs: unknown): LocalActivityOptions {
  const budgeted = withRetryBudget(options, budgetMs);
  if (budgeted === options) return options;
  const budget = budgetMs as number;
  const retry = options.retry ?? {};
  const initial = msToNumber(retry.initialInterval ?? 1_000);
  const coefficient = retry.backoffCoefficient ?? 2;
  const maximum = retry.maximumInterval !== undefined ? msToNumber(retry.maximumInterval) : 100 * initial;
  let attempts = 1;
  let waited = 0;
  for (let interval = initial; attempts < 1_000; interval = Math.min(interval * coefficient, maximum)) {
    if (waited + interval > budget) break;
    waited += interval;
    attempts += 1;
  }
  const startToClose = options.startToCloseTimeout !== undefined ? Math.min(msToNumber(options.startToCloseTimeout), budget) : budget;
  return { ...budgeted, startToCloseTimeout: startToClose, retry: { ...retry, maximumAttempts: attempts } };
}
