import { createHash } from 'node:crypto';
import { type Client, type WorkflowHandle, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { VerityConfig } from '../config/config';
import { indexName } from '../es/indices';
import type { MethodName } from '../shared/constants';
import type { MethodSettings } from '../shared/method-settings';
import type { RetrievalMode } from '../shared/retrieval';
import { type VerifyClaimInput, findVerifyInputProblem, verifyWorkflowId } from '../shared/verify';
import { verifyClaimWorkflow } from '../../workflows';
import { verifySearchAttributes } from '../../workflows/search-attributes';

export class InvalidClaimError extends Error {
  override name = 'InvalidClaimError';
}

export interface VerificationRequest {
  claim: string;
  method: MethodName;
  runId?: string;
  claimId?: string;
  dataset?: string;
  topK?: number;
  index?: string;
  /** bm25 when absent (and then left out of the input, so earlier claim ids stay the same). */
  retrievalMode?: RetrievalMode;
  model?: string;
  /** Settings of the chosen method (validated by the caller); defaults when absent. */
  settings?: MethodSettings;
}

export const ADHOC_RUN = 'adhoc';
export const DEFAULT_TOP_K = 5;

/**
 * Builds a validated workflow input. Without an explicit claim id, the id hashes the claim and
 * every setting that changes the answer, so the same request maps to the same workflow.
 */
export function buildVerifyInput(config: VerityConfig, request: VerificationRequest): VerifyClaimInput {
  const problem = findVerifyInputProblem(request);
  if (problem) throw new InvalidClaimError(problem);
  const settings = {
    model: request.model ?? config.llm.models.judge,
    rag: {
      topK: request.topK ?? DEFAULT_TOP_K,
      index: request.index ?? indexName(config.elasticsearch.indexPrefix, 'wiki'),
      ...(request.retrievalMode ? { mode: request.retrievalMode } : {}),
    },
    ...(request.settings && Object.keys(request.settings).length > 0 ? { settings: request.settings } : {}),
  };
  const claimId =
    request.claimId ??
    createHash('sha256')
      .update(JSON.stringify({ claim: request.claim.trim(), method: request.method, ...settings }))
      .digest('hex')
      .slice(0, 16);
  return {
    schemaVersion: 1,
    runId: request.runId ?? ADHOC_RUN,
    claimId,
    claim: request.claim.trim(),
    method: request.method,
    ...(request.dataset ? { dataset: request.dataset } : {}),
    ...settings,
  };
}

/**
 * Starts the verification, or attaches to the execution that already has this business key
 * (running or completed); only a failed earlier attempt is started afresh. `modelInId` addresses
 * the per-model ids sweeps use (`verify/<run>/<claim>/<method>/<model>`).
 */
export async function startVerification(
  client: Client,
  taskQueue: string,
  input: VerifyClaimInput,
  options: { modelInId?: boolean } = {},
): Promise<{ handle: WorkflowHandle<typeof verifyClaimWorkflow>; attached: boolean }> {
  const workflowId = verifyWorkflowId(input.runId, input.claimId, input.method, options.modelInId ? input.model : undefined);
  try {
    const handle = await client.workflow.start(verifyClaimWorkflow, {
      workflowId,
      taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: verifySearchAttributes(input),
    });
    return { handle, attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      return { handle: client.workflow.getHandle<typeof verifyClaimWorkflow>(workflowId), attached: true };
    }
    throw err;
  }
}
