import type { ConfigStamp } from '../shared/identity';
import { CONFIG_STAMP_MEMO } from '../../workflows/config-stamp';
import { RETRY_BUDGET_MEMO } from '../../workflows/retry-budget';

/** The memo of a workflow the client starts: its configuration stamp and retry budget (both inherited by its children). */
export function workflowMemo(stamp: ConfigStamp | undefined, retryBudgetMs: number | undefined): Record<string, unknown> {
  return { ...(stamp ? { [CONFIG_STAMP_MEMO]: stamp } : {}), ...(retryBudgetMs !== undefined ? { [RETRY_BUDGET_MEMO]: retryBudgetMs } : {}) };
}
