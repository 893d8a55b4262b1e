import type { Client } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../shared/constants';

/**
 * Whether any workflow of the run (its sweep or one of its verifications, all tagged with the run's
 * search attribute) is still running in Temporal: the first match answers, nothing more is listed.
 */
export async function runHasRunningWorkflows(client: Client, runId: string): Promise<boolean> {
  const query = `${SEARCH_ATTRIBUTES.run} = ${JSON.stringify(runId)} AND ExecutionStatus = "Running"`;
  for await (const execution of client.workflow.list({ query, pageSize: 1 })) {
    if (execution) return true;
  }
  return false;
}
