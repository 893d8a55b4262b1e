import { ParentClosePolicy, startChild, type ChildWorkflowHandle } from '@temporalio/workflow';
import { verifyDetails, verifySummary } from '../src/shared/activity-summaries';
import type { VerifyClaimInput } from '../src/shared/verify';
import { verifySearchAttributes } from '../src/shared/search-attributes';
import { verifyClaimWorkflow } from './verify-claim.workflow';

/**
 * A verification as a child that outlives its parent (a sweep or a document check continues as new
 * or ends while children run), under its identity's workflow id: a verification that completed is
 * reused, one that failed may run again. Searchable and summarised in the Temporal UI.
 */
export function startVerifyChild(workflowId: string, input: VerifyClaimInput): Promise<ChildWorkflowHandle<typeof verifyClaimWorkflow>> {
  return startChild(verifyClaimWorkflow, {
    workflowId,
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    typedSearchAttributes: verifySearchAttributes(input),
    staticSummary: verifySummary(input),
    staticDetails: verifyDetails(input),
  });
}
