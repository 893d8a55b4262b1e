import { WorkflowFailedError } from '@temporalio/client';
import { describeFailure, failureType } from '../shared/failure';
import { CliError } from './errors';
import { plainNetworkReason } from './service-lines';
import { TRANSIENT_FAILURE_TYPES } from '../llm/errors';

export { describeFailure } from '../shared/failure';

/**
 * One line naming why a workflow failed: the innermost failure's type and message (the server's
 * answer, the model's window, the cache miss …), not only Temporal's "Workflow execution failed".
 */
export function describeWorkflowFailure(err: WorkflowFailedError): string {
  const cause = describeFailure(err);
  const type = failureType(err);
  if (type === TRANSIENT_FAILURE_TYPES.elasticsearch) {
    return `the worker could not reach Elasticsearch (${plainNetworkReason(cause)}) [${type}]; run \`verity infra status\` (\`verity infra up\` starts it)`;
  }
  return type && !cause.startsWith(type) ? `${cause} [${type}]` : cause;
}

/** A failed verification as the CLI's one-line error; any other error as it is. */
export function asVerificationFailure(err: unknown): unknown {
  return err instanceof WorkflowFailedError ? new CliError(`verification failed: ${describeWorkflowFailure(err)}`) : err;
}
