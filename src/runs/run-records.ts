import { z } from 'zod';
import { runManifestSchema, type RunManifest } from './run-manifest';

const count = z.number().nonnegative().default(0);

/** A verdict as a report reads it: the label stays a string, so unparseable answers reach the invalid bucket. */
export const runVerdictSchema = z.object({
  workflowId: z.string(),
  runId: z.string(),
  claimId: z.string(),
  dataset: z.string().optional(),
  method: z.string(),
  model: z.string(),
  claim: z.string().default(''),
  label: z.string(),
  promptVersion: z.string().default(''),
  usage: z
    .object({
      llmCalls: count,
      cachedLlmCalls: count,
      toolCalls: count,
      promptTokens: count,
      completionTokens: count,
      totalTokens: count,
      costUsd: count,
    })
    .prefault({}),
  durationMs: count,
});
export type RunVerdict = z.infer<typeof runVerdictSchema>;

/**
 * A claim of a run as the sweep stores it: its gold label (as written in the dataset) and, when its
 * verification failed for good, the reason. method/model are present when the record is per verification.
 */
export const runClaimSchema = z.object({
  runId: z.string(),
  claimId: z.string(),
  dataset: z.string(),
  method: z.string().optional(),
  model: z.string().optional(),
  label: z.union([z.string(), z.boolean()]).optional(),
  status: z.string().optional(),
  error: z.union([z.string(), z.object({ message: z.string() }).passthrough()]).optional(),
});
export type RunClaim = z.infer<typeof runClaimSchema>;

export interface RunFailure {
  claimId: string;
  dataset: string;
  method?: string;
  model?: string;
  reason: string;
}

/** Everything stored about one run. */
export interface RunRecords {
  manifest: RunManifest;
  verdicts: RunVerdict[];
  claims: RunClaim[];
  failures: RunFailure[];
  /** Stored documents that did not validate and were left out. */
  warnings: string[];
}

export { runManifestSchema };

export function failureOf(claim: RunClaim): RunFailure | undefined {
  if (claim.status !== 'failed' && claim.error === undefined) return undefined;
  const reason = typeof claim.error === 'string' ? claim.error : (claim.error?.message ?? 'failed (no reason recorded)');
  return { claimId: claim.claimId, dataset: claim.dataset, method: claim.method, model: claim.model, reason };
}
