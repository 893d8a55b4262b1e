import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../src/shared/constants';
import { TOOL_FAILURE_TYPES, type ToolFamily } from '../src/shared/tools';

const NON_RETRYABLE = Object.values(FAILURE_TYPES);

/**
 * Infrastructure errors (an unreachable or overloaded Elasticsearch or LLM endpoint, 429s, 5xx,
 * timeouts) are retried for a bounded time, not a number of attempts: every preset below survives
 * an outage of well over 5 minutes, while bad input fails at once (non-retryable types).
 */

/**
 * LLM calls: slow and paid. Each HTTP attempt ends after VERITY_LLM_TIMEOUT_MS (the gateway's
 * timeout); heartbeats let a killed worker's call be retried within seconds.
 */
export const LLM_CALL: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  scheduleToCloseTimeout: '30 minutes',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
};

/**
 * The request-cache lookup before an LLM call (a local activity): one attempt, since a miss, an
 * error or a timeout all mean the same thing, queueing the call.
 */
export const LLM_CACHE_LOOKUP: LocalActivityOptions = { startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 1 } };

/** Elasticsearch reads (retrieval, lookups). */
export const RETRIEVAL: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '15 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '20 seconds',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
};

/** Idempotent Elasticsearch writes (deterministic ids). */
export const WRITE: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '15 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
};

/**
 * Waiting for a verification started by an earlier run of a sweep (continue-as-new): long, and
 * heartbeating, so a killed worker's wait is picked up again within a minute.
 */
export const AWAIT_CHILD: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
};

/** Evidence-memory recall: an Elasticsearch read (plus one embeddings call in semantic mode). */
export const MEMORY_RECALL: ActivityOptions = RETRIEVAL;

/** ToE's online GRPO update after a claim: idempotent (claims by id, versions created once per seq), CPU for a few seconds at most. */
export const POLICY_UPDATE: ActivityOptions = { ...WRITE, startToCloseTimeout: '2 minutes' };

/**
 * ToE's claim-order schedule: a claim waits, heartbeating, until the version its position acts with
 * exists (building due versions itself, a few seconds of CPU each); a killed worker's wait is retried.
 */
export const POLICY_WAIT: ActivityOptions = { ...AWAIT_CHILD, heartbeatTimeout: '2 minutes' };

/** Evidence-memory update: deterministic ids make a retried write a no-op. */
export const MEMORY_UPDATE: ActivityOptions = WRITE;

const TOOL_NON_RETRYABLE = [
  ...NON_RETRYABLE,
  TOOL_FAILURE_TYPES.unknownTool,
  TOOL_FAILURE_TYPES.notFound,
  TOOL_FAILURE_TYPES.blockedUrl,
  TOOL_FAILURE_TYPES.unreadable,
  TOOL_FAILURE_TYPES.unauthorized,
  TOOL_FAILURE_TYPES.cacheMiss,
];

/** Tools over Elasticsearch (Wikipedia index, RAG passages, evidence memory): retrieval timings. */
export const INDEX_TOOL_CALL: ActivityOptions = { ...RETRIEVAL, retry: { ...RETRIEVAL.retry, nonRetryableErrorTypes: TOOL_NON_RETRYABLE } };

/**
 * Tools over third-party HTTP APIs (web, scholar, pages, live MediaWiki): spaced retries (up to 30 s
 * apart, so a 429 is not hammered) for at most 5 minutes. Not capped by attempts: the web family is
 * also the recorded web in Elasticsearch, and 4 attempts (about 15 s) lost claims to a 65 s outage.
 */
export const TOOL_CALL: ActivityOptions = {
  startToCloseTimeout: '45 seconds',
  scheduleToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: TOOL_NON_RETRYABLE,
  },
};

/** The preset of each tool family (see src/shared/tools.ts). */
export const TOOL_CALL_OPTIONS: Record<ToolFamily, ActivityOptions> = {
  wikipedia: INDEX_TOOL_CALL,
  retrieval: INDEX_TOOL_CALL,
  web: TOOL_CALL,
  scholar: TOOL_CALL,
  page: TOOL_CALL,
  memory: INDEX_TOOL_CALL,
};
