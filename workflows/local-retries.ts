import { LocalActivityDoBackoff } from '@temporalio/workflow';
import type { LocalRetry } from '../src/shared/definitions/local-retries';

/** The local activities of this workflow that wait to be tried again (answered by the `localRetries` query). */
const waiting: LocalRetry[] = [];

/**
 * Runs one attempt of local activity `step` and, when the worker asks to back off before the next
 * one (a LocalActivityDoBackoff, which the SDK answers with a timer and a new attempt), records the
 * step as retrying until that attempt ends.
 */
export async function trackLocalRetry<T>(step: string, attempt: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LocalActivityDoBackoff && typeof error.backoff.attempt === 'number') {
      waiting.push({ step, attempt: error.backoff.attempt });
    }
    throw error;
  } finally {
    forget(step, attempt);
  }
}

function forget(step: string, attempt: number): void {
  const index = waiting.findIndex((entry) => entry.step === step && entry.attempt === attempt);
  if (index >= 0) waiting.splice(index, 1);
}

/** A copy of the steps retrying now. */
export function localRetries(): LocalRetry[] {
  return waiting.map((entry) => ({ ...entry }));
}
