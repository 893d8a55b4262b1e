import { ApplicationFailure } from '@temporalio/workflow';
import { FAILURE_TYPES } from '../src/shared/constants';
import type { MethodOutcome, MethodRun } from './method-run';

/** Placeholder until issue 5 lands: fails the verification with a clear, non-retryable reason. */
export async function runMermaid(run: MethodRun): Promise<MethodOutcome> {
  throw ApplicationFailure.nonRetryable(`the ${run.input.method} method is not implemented yet`, FAILURE_TYPES.invalidInput);
}
