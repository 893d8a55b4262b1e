import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

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
