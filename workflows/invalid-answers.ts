import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { FAILURE_TYPES } from '../src/shared/constants';
import { readInvalidOutputDetails, type InvalidAnswerFallback } from '../src/shared/invalid-answer';
import { hasPatch } from './has-patch';
import { PATCHES } from '../src/shared/patches';

/** An LLM call that failed because its answer was invalid (not JSON, wrong schema, cut off). */
export interface InvalidAnswer {
  problem: string;
  rawExcerpt: string;
}

/** The invalid answer a failed LLM call reports, if that is why it failed. */
export function invalidAnswerOf(err: unknown): InvalidAnswer | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== FAILURE_TYPES.llmOutputInvalid) return undefined;
  // The activity appends its attempt number; the model needs only the problem.
  return { problem: cause.message.replace(/ \(attempt \d+\)$/, ''), rawExcerpt: readInvalidOutputDetails(cause.details).rawExcerpt };
}

/**
 * The invalid answer, when this execution handles invalid answers; undefined otherwise, and for
 * executions recorded before (their verification failed there, as it replays).
 */
export function handledInvalidAnswer(err: unknown): InvalidAnswer | undefined {
  const invalid = invalidAnswerOf(err);
  return invalid && hasPatch(PATCHES.invalidAnswersCounted) ? invalid : undefined;
}

export type Answer<T> = { ok: true; result: LlmTaskResult<T> } | { ok: false; problem: string };

/**
 * Asks; an invalid answer is asked once more with the invalid answer and a correction naming the
 * required fields appended (a different request, never a cache hit). Still invalid: `ok: false`,
 * for the method's documented fallback. Any other failure propagates.
 */
export async function askWithOneReask<T>(ask: (call: LlmTaskInput, reask: boolean) => Promise<LlmTaskResult<T>>, call: LlmTaskInput): Promise<Answer<T>> {
  let first: InvalidAnswer;
  try {
    return { ok: true, result: await ask(call, false) };
  } catch (err) {
    const invalid = handledInvalidAnswer(err);
    if (!invalid) throw err;
    first = invalid;
  }
  try {
    return { ok: true, result: await ask({ ...call, correction: { problem: first.problem, rawExcerpt: first.rawExcerpt } }, true) };
  } catch (err) {
    const invalid = invalidAnswerOf(err);
    if (!invalid) throw err;
    return { ok: false, problem: invalid.problem };
  }
}

/** The output of a re-asked call, or `fallback` (noted in `fallbacks` for the trace) when no valid answer came. */
export async function outputOrFallback<T>(
  ask: (call: LlmTaskInput, reask: boolean) => Promise<LlmTaskResult<T>>,
  call: LlmTaskInput,
  fallback: { value: T; description: string; step: string },
  fallbacks: InvalidAnswerFallback[],
): Promise<T> {
  const answer = await askWithOneReask(ask, call);
  if (answer.ok) return answer.result.output;
  fallbacks.push({ step: fallback.step, problem: answer.problem, fallback: fallback.description });
  return fallback.value;
}
