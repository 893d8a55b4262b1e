import { errors } from '@elastic/elasticsearch';
import type { ActivityOptions } from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toEsFailure } from '../../activities/support/es-failure';
import { LlmInvalidInputError, LlmOutputInvalidError, toTemporalFailure } from '../../src/llm/errors';
import { IndexNotFoundError } from '../../src/retrieval/errors';
import { AWAIT_CHILD, INDEX_TOOL_CALL, LLM_CALL, MEMORY_RECALL, MEMORY_UPDATE, RETRIEVAL, TOOL_CALL, WRITE } from '../../workflows/activity-options';
import { withLocalRetryBudget, withRetryBudget } from '../../src/shared/retry-budget';

const FIVE_MINUTES_MS = 5 * 60_000;

/** The presets of every activity that talks to Elasticsearch or the LLM endpoint. */
const INFRASTRUCTURE_PRESETS: Record<string, ActivityOptions> = { LLM_CALL, RETRIEVAL, WRITE, AWAIT_CHILD, INDEX_TOOL_CALL, MEMORY_RECALL, MEMORY_UPDATE };

/**
 * When Temporal starts each attempt of an activity whose every attempt fails after `attemptMs`,
 * following the preset's retry policy, until its schedule-to-close timeout (or `horizonMs`).
 */
function attemptStarts(options: ActivityOptions, attemptMs: number, horizonMs: number): number[] {
  const retry = options.retry!;
  const deadline = options.scheduleToCloseTimeout === undefined ? horizonMs : Math.min(horizonMs, msToNumber(options.scheduleToCloseTimeout));
  const starts: number[] = [];
  let interval = msToNumber(retry.initialInterval ?? '1 second');
  for (let at = 0; at < deadline && (retry.maximumAttempts === undefined || starts.length < retry.maximumAttempts); ) {
    starts.push(at);
    at += attemptMs + interval;
    interval = Math.min(interval * (retry.backoffCoefficient ?? 2), msToNumber(retry.maximumInterval ?? interval * 100));
  }
  return starts;
}

const esDown = () => new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
const apiError = (status: number) => APIError.generate(status, { message: 'boom' }, undefined, new Headers());

describe('default retry policy: infrastructure errors for a bounded time, bad input at once', () => {
  it.each(Object.entries(INFRASTRUCTURE_PRESETS))('%s keeps retrying a failing Elasticsearch or LLM endpoint for more than 5 minutes', (_, preset) => {
    expect(preset.retry?.maximumAttempts).toBeUndefined();
    for (const attemptMs of [0, 30_000]) {
      const starts = attemptStarts(preset, attemptMs, 60 * 60_000);
      // An attempt still starts after 5 minutes of outage, and none waits more than 30 s after the last.
      expect(starts.at(-1)!).toBeGreaterThan(FIVE_MINUTES_MS);
      expect(msToNumber(preset.retry!.maximumInterval!)).toBeLessThanOrEqual(30_000);
    }
  });

  it('HTTP tools retry spaced (a rate limit is not hammered) for at most 5 minutes, which outlasts an Elasticsearch outage of 2 minutes (the recorded web is in Elasticsearch)', () => {
    // The chaos proof's 65 s outage failed web searches that stopped after 4 attempts (about 15 s).
    const starts = attemptStarts(TOOL_CALL, 0, 60 * 60_000);
    expect(starts.at(-1)!).toBeGreaterThan(2 * 60_000);
    expect(starts.at(-1)!).toBeLessThanOrEqual(FIVE_MINUTES_MS);
    expect(msToNumber(TOOL_CALL.retry!.maximumInterval!)).toBe(30_000);
    expect(starts.length).toBeLessThanOrEqual(15);
  });

  it('infrastructure errors become retryable failures whose types no preset refuses', () => {
    const failures = [
      toTemporalFailure(new APIConnectionError({ message: 'connect ECONNREFUSED' })),
      toTemporalFailure(new APIConnectionTimeoutError()),
      toTemporalFailure(apiError(429)),
      toTemporalFailure(apiError(500)),
      toTemporalFailure(esDown()),
      toEsFailure(esDown()) as ReturnType<typeof toTemporalFailure>,
    ];
    for (const failure of failures) {
      expect(failure.nonRetryable, failure.message).toBe(false);
      for (const preset of Object.values(INFRASTRUCTURE_PRESETS)) expect(preset.retry?.nonRetryableErrorTypes).not.toContain(failure.type);
    }
  });

  it('bad input fails at once: non-retryable failures of types every preset refuses to retry', () => {
    const failures = [
      toTemporalFailure(new LlmInvalidInputError('invalid variables')),
      toTemporalFailure(z.object({ claim: z.string() }).safeParse({}).error),
      toTemporalFailure(new LlmOutputInvalidError('not JSON', 'gpt-4o-mini', '{')),
      toTemporalFailure(apiError(400)),
      toTemporalFailure(apiError(401)),
      toEsFailure(new IndexNotFoundError('verity-wiki')) as ReturnType<typeof toTemporalFailure>,
    ];
    for (const failure of failures) {
      expect(failure.nonRetryable, failure.message).toBe(true);
      for (const preset of Object.values(INFRASTRUCTURE_PRESETS)) expect(preset.retry?.nonRetryableErrorTypes).toContain(failure.type);
    }
  });
});

describe('configurable retry budget (VERITY_RETRY_BUDGET_S, applied by the workflow interceptor)', () => {
  it('replaces the schedule-to-close timeout of time-bounded presets and bounds their retries', () => {
    for (const preset of [LLM_CALL, RETRIEVAL, WRITE]) {
      const budgeted = withRetryBudget(preset, 20_000);
      expect(budgeted.scheduleToCloseTimeout).toBe(20_000);
      expect(budgeted.retry).toEqual(preset.retry);
      expect(attemptStarts(budgeted, 0, 60 * 60_000).at(-1)!).toBeLessThan(20_000);
    }
    expect(attemptStarts(withRetryBudget(LLM_CALL, 10 * 60_000), 0, 60 * 60_000).at(-1)!).toBeGreaterThan(FIVE_MINUTES_MS);
  });

  it('bounds local activities by attempts too: the worker retries them locally past their schedule-to-close timeout', () => {
    for (const preset of [RETRIEVAL, WRITE]) {
      const local = { startToCloseTimeout: preset.startToCloseTimeout, scheduleToCloseTimeout: preset.scheduleToCloseTimeout, retry: preset.retry };
      const budgeted = withLocalRetryBudget(local, 5_000);
      expect(budgeted.scheduleToCloseTimeout).toBe(5_000);
      expect(budgeted.startToCloseTimeout).toBe(5_000);
      // Backoffs of 1 s and 2 s fit in 5 s; a fourth attempt would start after 7 s.
      expect(budgeted.retry).toEqual({ ...preset.retry, maximumAttempts: 3 });
      expect(attemptStarts({ ...budgeted, scheduleToCloseTimeout: undefined }, 0, 60 * 60_000).at(-1)!).toBeLessThanOrEqual(5_000);
      expect(withLocalRetryBudget(local, 15 * 60_000).retry!.maximumAttempts).toBeGreaterThan(30);
    }
    expect(withLocalRetryBudget({ startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 1 } }, 5_000)).toEqual({ startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 1 } });
    expect(withLocalRetryBudget({ startToCloseTimeout: '10 seconds', scheduleToCloseTimeout: '1 minute' }, undefined)).toEqual({ startToCloseTimeout: '10 seconds', scheduleToCloseTimeout: '1 minute' });
  });

  it('leaves attempt-limited presets, presets without a deadline and absent or invalid budgets alone', () => {
    expect(withRetryBudget(AWAIT_CHILD, 20_000)).toBe(AWAIT_CHILD);
    expect(withRetryBudget(LLM_CALL, undefined)).toBe(LLM_CALL);
    expect(withRetryBudget(LLM_CALL, 'soon')).toBe(LLM_CALL);
    expect(withRetryBudget(LLM_CALL, -1)).toBe(LLM_CALL);
  });
});
