import { type Client, type WorkflowHandle, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { VerityConfig } from '../config/config';
import { indexName } from '../es/indices';
import { verifyDetails, verifySummary } from '../shared/activity-summaries';
import type { MethodName } from '../shared/constants';
import { METHOD_NAMES } from '../methods/registry';
import type { MethodSettings } from '../shared/method-settings';
import type { RetrievalMode } from '../shared/retrieval';
import { methodIdentityContext, verificationHash, verifyWorkflowId } from '../shared/identity';
import { type Verdict, type VerdictSummary, type VerifyClaimInput, findVerifyInputProblem, hasVisibleText, isVerdictSummary, legacyVerifyWorkflowId } from '../shared/verify';
import { createEsClient } from '../es/client';
import { runIdSchema } from '../runs/run-manifest';
import { datasetClaimSchema } from '../datasets/dataset-claim';
import { VerdictStore } from '../verdicts/verdict-store';
import { workflowMemo } from './workflow-memo';
import { identityContextOf } from './verification-identity';
import type { verifyClaimWorkflow } from '../../workflows';
import { verifySearchAttributes } from '../shared/search-attributes';

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
  /** bm25 when absent. */
  retrievalMode?: RetrievalMode;
  model?: string;
  /** Settings of the chosen method (validated by the caller); defaults when absent. */
  settings?: MethodSettings;
}

export const ADHOC_RUN = 'adhoc';
export const DEFAULT_TOP_K = 5;

/**
 * Builds a validated workflow input with its identity (src/shared/identity.ts). Without an explicit
 * claim id, the claim id is the start of the identity hash.
 */
export function buildVerifyInput(config: VerityConfig, request: VerificationRequest): VerifyClaimInput {
  const problem = findVerifyInputProblem(request, METHOD_NAMES) ?? requestProblem(request);
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
  const context = identityContextOf(config);
  const hash = verificationHash({ claim: request.claim, method: request.method, ...settings }, context);
  return {
    schemaVersion: 1,
    runId: request.runId ?? ADHOC_RUN,
    claimId: request.claimId ?? hash.slice(0, 16),
    claim: request.claim.trim(),
    method: request.method,
    ...(request.dataset ? { dataset: request.dataset } : {}),
    ...settings,
    identity: { ...methodIdentityContext(context, request.method), stamp: context.stamp, hash },
  };
}

/** What a sweep refuses in its claims and run ids, refused here too (the workflow checks only what it must). */
function requestProblem(request: VerificationRequest): string | null {
  if (!hasVisibleText(request.claim)) return 'the claim has no visible character';
  if (request.runId !== undefined) {
    const run = runIdSchema.safeParse(request.runId);
    if (!run.success) return `run id: ${run.error.issues[0]?.message ?? 'invalid'}`;
  }
  if (request.claimId !== undefined) {
    const id = datasetClaimSchema.shape.id.safeParse(request.claimId);
    if (!id.success) return `claim id: ${id.error.issues[0]?.message ?? 'invalid'}`;
  }
  return null;
}

/** The workflow id of a verification: its identity's (inputs built before identities existed keep their old ids). */
export function workflowIdOf(input: VerifyClaimInput): string {
  if (!input.identity) return legacyVerifyWorkflowId(input.runId, input.claimId, input.method);
  return verifyWorkflowId({ ...input, hash: input.identity.hash });
}

/**
 * Starts the verification, or attaches to the execution that already has this identity (running
 * or completed); only a failed earlier attempt is started afresh.
 */
export async function startVerification(
  client: Client,
  taskQueue: string,
  input: VerifyClaimInput,
  options: { retryBudgetMs?: number } = {},
): Promise<{ handle: WorkflowHandle<typeof verifyClaimWorkflow>; attached: boolean }> {
  const workflowId = workflowIdOf(input);
  try {
    const handle = await client.workflow.start<typeof verifyClaimWorkflow>('verifyClaimWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      memo: workflowMemo(input.identity?.stamp, options.retryBudgetMs),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: verifySearchAttributes(input),
      staticSummary: verifySummary(input),
      staticDetails: verifyDetails(input),
    });
    return { handle, attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      return { handle: client.workflow.getHandle<typeof verifyClaimWorkflow>(workflowId), attached: true };
    }
    throw err;
  }
}

/**
 * The whole verdict of a verification's result. A verification started by a sweep replies with a
 * summary only (and `verify` may attach to one): its verdict is then read from the verdicts index.
 */
export async function verdictOfResult(config: VerityConfig, result: Verdict | VerdictSummary): Promise<Verdict> {
  if (!isVerdictSummary(result)) return result;
  const es = createEsClient(config.elasticsearch);
  try {
    const stored = await new VerdictStore(es, indexName(config.elasticsearch.indexPrefix, 'verdicts')).get(result.workflowId);
    if (!stored) throw new Error(`verification ${result.workflowId} completed but its verdict is missing from the verdicts index`);
    return stored;
  } finally {
    await es.close();
  }
}
