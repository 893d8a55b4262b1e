import { type Client, type WorkflowHandle, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { checkPromptVersions } from '../check/tasks';
import type { VerityConfig } from '../config/config';
import { documentHash, documentWorkflowId } from '../shared/check/claim-verification';
import type { CheckDocumentInput } from '../shared/check/document';
import { buildVerifyInput, type VerificationRequest } from './start-verification';
import { workflowMemo } from './workflow-memo';
import type { checkDocumentWorkflow } from '../../workflows';

export interface CheckRequest {
  text: string;
  source?: string;
  /** How each claim is verified: the options of `verity verify` (claim, run and claim id aside). */
  verification: Omit<VerificationRequest, 'claim' | 'runId' | 'claimId' | 'dataset'>;
  f1K?: number;
  window?: number;
  claimsPerRun?: number;
}

/**
 * The document workflow's input: its claims are verified with the settings `verity verify` would
 * use for them (buildVerifyInput validates those settings once, on a probe claim).
 */
export function buildCheckInput(config: VerityConfig, request: CheckRequest): CheckDocumentInput {
  const probe = buildVerifyInput(config, { ...request.verification, claim: 'probe' });
  const { stamp, configHash, promptsHash } = probe.identity!;
  const verification = {
    method: probe.method,
    model: probe.model,
    rag: probe.rag,
    ...(probe.settings ? { settings: probe.settings } : {}),
    identity: { configHash, promptsHash, stamp },
  };
  const checkPrompts = checkPromptVersions();
  const documentId = documentHash({ text: request.text, checkPrompts, verification, ...(request.f1K !== undefined ? { f1K: request.f1K } : {}) }).slice(0, 24);
  return {
    schemaVersion: 1,
    documentId,
    text: request.text,
    ...(request.source ? { source: request.source } : {}),
    verification,
    checkPrompts,
    ...(request.f1K !== undefined ? { f1K: request.f1K } : {}),
    ...(request.window !== undefined ? { window: request.window } : {}),
    ...(request.claimsPerRun !== undefined ? { claimsPerRun: request.claimsPerRun } : {}),
  };
}

/** Starts the document check, or attaches to the one with this identity (running or done); a failed one starts afresh. */
export async function startCheck(
  client: Client,
  taskQueue: string,
  input: CheckDocumentInput,
  options: { retryBudgetMs?: number } = {},
): Promise<{ handle: WorkflowHandle<typeof checkDocumentWorkflow>; attached: boolean }> {
  const workflowId = documentWorkflowId(input.documentId);
  try {
    const handle = await client.workflow.start<typeof checkDocumentWorkflow>('checkDocumentWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      memo: workflowMemo(input.verification.identity.stamp, options.retryBudgetMs),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: `check · ${input.verification.method} · ${input.source ?? 'text'}`,
    });
    return { handle, attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { handle: client.workflow.getHandle<typeof checkDocumentWorkflow>(workflowId), attached: true };
    throw err;
  }
}
