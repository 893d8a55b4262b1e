import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, Next } from '@temporalio/worker';
import type { ConfigStamp } from '../shared/identity';
import { CONFIG_MISMATCH_FAILURE, CONFIG_STAMP_HEADER } from '../shared/config-stamp';

/** Why a task stamped `task` must not run on a worker configured as `worker`, or null when it may. */
export function configMismatch(task: ConfigStamp | undefined, worker: ConfigStamp): string | null {
  if (!task || task.fingerprint === worker.fingerprint) return null;
  return `refusing a task made under another configuration: the task's is ${task.label} [${task.fingerprint}], this worker's is ${worker.label} [${worker.fingerprint}]`;
}

/**
 * Defence in depth behind the derived task queues: an activity whose workflow was started under
 * another configuration fails at once, non-retryably, naming both configurations.
 */
export function configCheckInterceptor(worker: ConfigStamp): ActivityInterceptorsFactory {
  const inbound: ActivityInboundCallsInterceptor = {
    async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
      const payload = input.headers[CONFIG_STAMP_HEADER];
      const task = payload ? defaultPayloadConverter.fromPayload<ConfigStamp>(payload) : undefined;
      const problem = configMismatch(task, worker);
      if (problem) throw ApplicationFailure.nonRetryable(problem, CONFIG_MISMATCH_FAILURE);
      return next(input);
    },
  };
  return () => ({ inbound });
}
