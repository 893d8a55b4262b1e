import { z } from 'zod';
import type { RunManifest } from './run-manifest';
import type { RunDocument } from './run-documents';

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
  /** The method's own label (FIRE: `failed` when it gave no final answer). */
  methodLabel: z.string().optional(),
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
      invalidAnswers: count,
      formatFallbacks: count,
      trimmedPrompts: count,
      /** Present only when a server reported reasoning tokens. */
      reasoningTokens: z.number().nonnegative().optional(),
    })
    .prefault({}),
  durationMs: count,
  /** When the verdict was written (the latest of a claim's verdicts is the one a report counts). */
  storedAt: z.string().optional(),
  /** Only what the report reads of the sampling: the repeat (≥ 1) of a sweep with `repeats`. */
  sampling: z
    .object({ repeat: z.number().int().positive().optional().catch(undefined) })
    .optional()
    .catch(undefined),
  /** rag and llm-only: starts with NO_VALID_ANSWER_RATIONALE when no valid answer came. */
  rationale: z.string().optional().catch(undefined),
  /**
   * Only what the report reads of the trace: who decided a Tool-MAD debate and whether its judge
   * labelled it; whether MERMAID fell back to its default label; Tool-MAD's label set.
   */
  trace: z
    .object({
      decidedBy: z.enum(['consensus', 'judge']).optional().catch(undefined),
      judge: z.object({ label: z.string().nullable().optional(), fallbackFrom: z.string().nullable().optional() }).optional().catch(undefined),
      fallback: z.boolean().optional().catch(undefined),
      /** MERMAID: `invalid` when the answer is none of its labels or their aliases (off-vocabulary). */
      answerClass: z.string().optional().catch(undefined),
      /** Tool-MAD: the label set it asked with (`averitec`: AVeriTeC's four labels, else three or two). */
      labelSet: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});
export type RunVerdict = z.infer<typeof runVerdictSchema>;

/** A claim of a run as the sweep stores it in `<prefix>-run-claims`; a gold label only if the sweep records one. */
export const runClaimSchema = z.object({
  runId: z.string(),
  claimId: z.string(),
  dataset: z.string(),
  label: z.union([z.string(), z.boolean()]).optional(),
  /** The claim's value of its dataset's stratify field, if stratified. */
  stratum: z.string().optional(),
});
export type RunClaim = z.infer<typeof runClaimSchema>;

/** A verification that failed for good, from `<prefix>-run-failures`. */
export const runFailureSchema = z.object({
  runId: z.string(),
  /** The failed verification's workflow id (absent from records older than it). */
  workflowId: z.string().optional(),
  claimId: z.string(),
  dataset: z.string(),
  method: z.string().optional(),
  model: z.string().optional(),
  reason: z.string(),
  type: z.string().optional(),
  /** The repeat (≥ 1) of a sweep with `repeats`; absent for repeat 0. */
  repeat: z.number().int().positive().optional(),
  /** Spend of a verification ended by its limits. */
  tokens: z.number().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
});
export type RunFailure = z.infer<typeof runFailureSchema>;

/** Everything stored about one run. */
export interface RunRecords {
  manifest: RunManifest;
  verdicts: RunVerdict[];
  claims: RunClaim[];
  failures: RunFailure[];
  /**
   * A sweep with `check`: its checked documents (then `verdicts` holds one per document, labelled by
   * its claims, see run-documents.ts) and how many claim verifications they made.
   */
  documents?: { checked: RunDocument[]; claimVerdicts: number };
  /** Stored documents that did not validate and were left out. */
  warnings: string[];
}
