import { z } from 'zod';
import { VERDICT_LABELS, type VerdictLabel } from '../shared/constants';
import { documentLabel } from '../shared/check/document-label';
import { documentWorkflowId } from '../shared/check/claim-verification';
import type { RunVerdict } from './run-records';

const count = z.number().nonnegative().default(0);

/** A document verdict of a sweep with `check`, as a report reads it. */
export const runDocumentSchema = z.object({
  documentId: z.string(),
  runId: z.string(),
  itemId: z.string(),
  dataset: z.string().optional(),
  method: z.string(),
  model: z.string(),
  text: z.string().default(''),
  checkPrompts: z.record(z.string(), z.string()).default({}),
  claims: z.array(z.object({ label: z.string().optional(), skipped: z.string().optional(), failure: z.string().optional() }).passthrough()),
  scores: z.object({ supported: count, notSupported: count, nei: count, failed: count, skipped: count, precision: z.number().nullable(), k: z.number(), recallAtK: count, f1AtK: count }),
  stepUsage: z.object({ llmCalls: count, cachedLlmCalls: count, invalidAnswers: count, promptTokens: count, completionTokens: count, totalTokens: count, costUsd: count }).optional(),
  usage: z.object({ tokens: count, costUsd: count }).optional(),
  finishedAt: z.string().optional(),
});
export type RunDocument = z.infer<typeof runDocumentSchema>;

/**
 * A checked document as one of the run's verdicts, so the report scores documents as it scores
 * claims: the item's gold label against the document's label (documentLabel: any refuted claim
 * makes the text REFUTED), usage = the document's whole spend.
 */
export function documentAsRunVerdict(document: RunDocument): RunVerdict {
  const labels = document.claims.map((claim) => ({ label: (VERDICT_LABELS as readonly string[]).includes(claim.label ?? '') ? (claim.label as VerdictLabel) : undefined }));
  const tokens = document.usage?.tokens ?? document.stepUsage?.totalTokens ?? 0;
  return {
    workflowId: documentWorkflowId(document.documentId),
    runId: document.runId,
    claimId: document.itemId,
    ...(document.dataset ? { dataset: document.dataset } : {}),
    method: document.method,
    model: document.model,
    claim: document.text,
    label: documentLabel(labels),
    promptVersion: Object.entries(document.checkPrompts).map(([task, version]) => `${task}@${version}`).sort().join(','),
    usage: {
      llmCalls: document.stepUsage?.llmCalls ?? 0,
      cachedLlmCalls: document.stepUsage?.cachedLlmCalls ?? 0,
      toolCalls: 0,
      promptTokens: document.stepUsage?.promptTokens ?? 0,
      completionTokens: document.stepUsage?.completionTokens ?? 0,
      totalTokens: tokens,
      costUsd: document.usage?.costUsd ?? document.stepUsage?.costUsd ?? 0,
      invalidAnswers: document.stepUsage?.invalidAnswers ?? 0,
      formatFallbacks: 0,
      trimmedPrompts: 0,
    },
    durationMs: 0,
    ...(document.finishedAt ? { storedAt: document.finishedAt } : {}),
  };
}
