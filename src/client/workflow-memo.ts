import type { ConfigStamp } from '../shared/identity';
import { CONFIG_STAMP_MEMO } from '../shared/config-stamp';
import { PATCH_LEVEL_MEMO, PATCH_ORDER } from '../shared/patches';
import { RETRY_BUDGET_MEMO } from '../shared/retry-budget';

/**
 * The memo of a workflow the client starts: its configuration stamp, retry budget and the patch
 * level of this code (all inherited by its children and continuations).
 */
export function workflowMemo(stamp: ConfigStamp | undefined, retryBudgetMs: number | undefined): Record<string, unknown> {
  return {
    [PATCH_LEVEL_MEMO]: PATCH_ORDER.length,
    ...(stamp ? { [CONFIG_STAMP_MEMO]: stamp } : {}),
    ...(retryBudgetMs !== undefined ? { [RETRY_BUDGET_MEMO]: retryBudgetMs } : {}),
  };
}
