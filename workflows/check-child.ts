import { ParentClosePolicy, startChild, type ChildWorkflowHandle } from '@temporalio/workflow';
import type { CheckDocumentInput } from '../src/shared/check/document';
import { checkDocumentWorkflow } from './check-document.workflow';
import { SEARCH_ATTRIBUTE_KEYS } from '../src/shared/search-attributes';

/**
 * A sweep item's document check as a child that outlives the sweep (which continues as new while
 * children run): a check that completed is reused, one that failed may run again.
 */
export function startCheckChild(workflowId: string, input: CheckDocumentInput): Promise<ChildWorkflowHandle<typeof checkDocumentWorkflow>> {
  const { method, model } = input.verification;
  return startChild(checkDocumentWorkflow, {
    workflowId,
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    typedSearchAttributes: [
      ...(input.run ? [{ key: SEARCH_ATTRIBUTE_KEYS.run, value: input.run.runId }, { key: SEARCH_ATTRIBUTE_KEYS.dataset, value: input.run.dataset }] : []),
      { key: SEARCH_ATTRIBUTE_KEYS.method, value: method },
      { key: SEARCH_ATTRIBUTE_KEYS.model, value: model },
    ],
    staticSummary: `check · ${method} · ${model} · ${input.source ?? input.documentId}`,
  });
}
