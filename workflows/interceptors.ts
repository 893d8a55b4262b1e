import {
  defaultPayloadConverter,
  type ActivityInput,
  type LocalActivityInput,
  type Next,
  type StartChildWorkflowExecutionInput,
  type WorkflowInterceptorsFactory,
  type WorkflowOutboundCallsInterceptor,
  workflowInfo,
} from '@temporalio/workflow';
import { CONFIG_STAMP_HEADER, CONFIG_STAMP_MEMO } from './config-stamp';

/**
 * Carries the stamp of the configuration a workflow was started under (its memo) to its activities
 * (as a header the worker checks) and to its child workflows (as their memo). Workflows started
 * before stamps existed carry none and are not checked.
 */
class ConfigStampOutbound implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return next({ ...input, headers: withStamp(input.headers) });
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>) {
    return next({ ...input, headers: withStamp(input.headers) });
  }

  startChildWorkflowExecution(input: StartChildWorkflowExecutionInput, next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>) {
    const stamp = workflowInfo().memo?.[CONFIG_STAMP_MEMO];
    if (stamp === undefined) return next(input);
    return next({ ...input, options: { ...input.options, memo: { ...input.options.memo, [CONFIG_STAMP_MEMO]: stamp } } });
  }
}

function withStamp<H extends Record<string, unknown>>(headers: H): H {
  const stamp = workflowInfo().memo?.[CONFIG_STAMP_MEMO];
  if (stamp === undefined) return headers;
  return { ...headers, [CONFIG_STAMP_HEADER]: defaultPayloadConverter.toPayload(stamp) };
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ outbound: [new ConfigStampOutbound()] });
