import type { ActivityOptions } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../src/shared/constants';

const NON_RETRYABLE = Object.values(FAILURE_TYPES);

/**
 * An LLM call through a batch: completed by the model's collector (asynchronous completion) within
 * the provider's 24-hour window plus the collector's own waits. No heartbeat timeout: the call does
 * not live in a worker, so a killed worker loses nothing; a request without an answer fails from the
 * collector and is asked again by a retry (a new token for the same request, never a second submission).
 */
export const LLM_BATCH_CALL: ActivityOptions = {
  startToCloseTimeout: '26 hours',
  scheduleToCloseTimeout: '80 hours',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE },
};

/**
 * Submitting, polling and reading a batch: idempotent HTTP calls, retried through an outage. They
 * heartbeat while they run (a large upload or download takes a while), so a killed worker's call is
 * retried within the heartbeat timeout.
 */
export const BATCH_HTTP: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: NON_RETRYABLE },
};
