import {
  defaultPayloadConverter,
  type ActivityInput,
  type ContinueAsNewInput,
  type LocalActivityInput,
  type Next,
  type QueryInput,
  type StartChildWorkflowExecutionInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type WorkflowOutboundCallsInterceptor,
  workflowInfo,
} from '@temporalio/workflow';
import { CONFIG_STAMP_HEADER, CONFIG_STAMP_MEMO } from '../src/shared/config-stamp';
import { PATCH_LEVEL_MEMO } from '../src/shared/patches';
import { RETRY_BUDGET_MEMO, withLocalRetryBudget, withRetryBudget } from '../src/shared/retry-budget';
import { PATCHES } from '../src/shared/patches';
import { localRetriesQuery } from '../src/shared/definitions/local-retries';
import { hasPatch } from './has-patch';
import { localRetries, trackLocalRetry } from './local-retries';

/** Memo entries a workflow passes on to its child workflows and to its continuation. */
const INHERITED_MEMO = [CONFIG_STAMP_MEMO, RETRY_BUDGET_MEMO, PATCH_LEVEL_MEMO];

/**
 * Carries the stamp of the configuration a workflow was started under (its memo) to its activities
 * (as a header the worker checks) and to its child workflows (as their memo), and applies the
 * retry budget of its memo to its activities (retry-budget.ts). Workflows started before stamps
 * existed carry none and are not checked.
 */
class ConfigStampOutbound implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return next({ ...input, headers: withStamp(input.headers), options: withRetryBudget(input.options, retryBudgetMs()) });
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>) {
    const budgetMs = retryBudgetMs();
    const budgeted = withRetryBudget(input.options, budgetMs);
    // The worker's local retries ignore the schedule-to-close timeout: bound them by attempts too.
    const options = budgeted !== input.options && hasPatch(PATCHES.localRetryBudgetAttempts) ? withLocalRetryBudget(input.options, budgetMs) : budgeted;
    if (!hasPatch(PATCHES.localRetriesVisible)) return next({ ...input, headers: withStamp(input.headers), options });
    // Every backoff on a workflow timer: the workflow task closes between attempts, so queries answer.
    const visible = { ...options, localRetryThreshold: 1 };
    return trackLocalRetry(input.activityType, input.attempt, () => next({ ...input, headers: withStamp(input.headers), options: visible }));
  }

  startChildWorkflowExecution(input: StartChildWorkflowExecutionInput, next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>) {
    const inherited = inheritedMemo();
    if (inherited === undefined) return next(input);
    return next({ ...input, options: { ...input.options, memo: { ...input.options.memo, ...inherited } } });
  }

  continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>) {
    const inherited = inheritedMemo();
    if (inherited === undefined) return next(input);
    return next({ ...input, options: { ...input.options, memo: { ...inherited, ...input.options.memo } } });
  }
}

function retryBudgetMs(): unknown {
  return workflowInfo().memo?.[RETRY_BUDGET_MEMO];
}

function inheritedMemo(): Record<string, unknown> | undefined {
  const memo = workflowInfo().memo ?? {};
  const entries = INHERITED_MEMO.filter((key) => memo[key] !== undefined).map((key) => [key, memo[key]] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function withStamp<H extends Record<string, unknown>>(headers: H): H {
  const stamp = workflowInfo().memo?.[CONFIG_STAMP_MEMO];
  if (stamp === undefined) return headers;
  return { ...headers, [CONFIG_STAMP_HEADER]: defaultPayloadConverter.toPayload(stamp) };
}

/** Answers `localRetries` in every workflow (a query changes no history). */
class LocalRetriesInbound implements WorkflowInboundCallsInterceptor {
  handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>) {
    if (input.queryName === localRetriesQuery.name) return Promise.resolve(localRetries());
    return next(input);
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ outbound: [new ConfigStampOutbound()], inbound: [new LocalRetriesInbound()] });
