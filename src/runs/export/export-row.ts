import { z } from 'zod';
import type { VerdictUsage } from '../../shared/verify';

/** One verification of a run as exported: a verdict, or a failure (with its reason) that has none; usage as in verdicts. */
export interface ExportRow extends Omit<VerdictUsage, 'invalidAnswers' | 'formatFallbacks' | 'trimmedPrompts'> {
  runId: string;
  workflowId: string;
  claimId: string;
  dataset: string;
  claim: string;
  /** Gold label as normalised when the run's claims were stored; empty when unknown. */
  gold: string;
  /** Predicted label; empty for a failed verification. */
  predicted: string;
  method: string;
  model: string;
  /** `verdict`, `failed` or `limit-reached`. */
  status: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  failureType: string;
  failureReason: string;
  /** Where the verdict and its full trace are stored: `<verdicts index>/<workflow id>`; empty for a failure. */
  traceRef: string;
}

type ColumnType = 'STRING' | 'DOUBLE' | 'INT64';

/** The export's columns in order, with their Parquet types (CSV and JSONL use the same order). */
export const EXPORT_COLUMNS: readonly { name: keyof ExportRow; type: ColumnType }[] = [
  { name: 'runId', type: 'STRING' },
  { name: 'workflowId', type: 'STRING' },
  { name: 'claimId', type: 'STRING' },
  { name: 'dataset', type: 'STRING' },
  { name: 'claim', type: 'STRING' },
  { name: 'gold', type: 'STRING' },
  { name: 'predicted', type: 'STRING' },
  { name: 'method', type: 'STRING' },
  { name: 'model', type: 'STRING' },
  { name: 'status', type: 'STRING' },
  { name: 'llmCalls', type: 'INT64' },
  { name: 'cachedLlmCalls', type: 'INT64' },
  { name: 'toolCalls', type: 'INT64' },
  { name: 'promptTokens', type: 'INT64' },
  { name: 'completionTokens', type: 'INT64' },
  { name: 'totalTokens', type: 'INT64' },
  { name: 'costUsd', type: 'DOUBLE' },
  { name: 'startedAt', type: 'STRING' },
  { name: 'finishedAt', type: 'STRING' },
  { name: 'durationMs', type: 'INT64' },
  { name: 'failureType', type: 'STRING' },
  { name: 'failureReason', type: 'STRING' },
  { name: 'traceRef', type: 'STRING' },
];

const count = z.number().nonnegative().default(0);

/** A stored verdict as the export reads it (trace and evidence are not read: the row refers to them). */
export const exportedVerdictSchema = z.object({
  workflowId: z.string(),
  runId: z.string(),
  claimId: z.string(),
  dataset: z.string().default(''),
  method: z.string(),
  model: z.string(),
  claim: z.string().default(''),
  label: z.string(),
  usage: z
    .object({ llmCalls: count, cachedLlmCalls: count, toolCalls: count, promptTokens: count, completionTokens: count, totalTokens: count, costUsd: count })
    .prefault({}),
  startedAt: z.string().default(''),
  finishedAt: z.string().default(''),
  durationMs: count,
});

export const exportedFailureSchema = z.object({
  workflowId: z.string(),
  runId: z.string(),
  claimId: z.string(),
  dataset: z.string().default(''),
  method: z.string().default(''),
  model: z.string().default(''),
  reason: z.string(),
  type: z.string().default(''),
  tokens: count,
  costUsd: count,
  failedAt: z.string().default(''),
});

export function verdictRow(verdict: z.infer<typeof exportedVerdictSchema>, gold: string, verdictsIndex: string): ExportRow {
  return {
    runId: verdict.runId,
    workflowId: verdict.workflowId,
    claimId: verdict.claimId,
    dataset: verdict.dataset,
    claim: verdict.claim,
    gold,
    predicted: verdict.label,
    method: verdict.method,
    model: verdict.model,
    status: 'verdict',
    ...verdict.usage,
    startedAt: verdict.startedAt,
    finishedAt: verdict.finishedAt,
    durationMs: verdict.durationMs,
    failureType: '',
    failureReason: '',
    traceRef: `${verdictsIndex}/${verdict.workflowId}`,
  };
}

export function failureRow(failure: z.infer<typeof exportedFailureSchema>, claim: { claim: string; gold: string } | undefined, limitReachedType: string): ExportRow {
  return {
    runId: failure.runId,
    workflowId: failure.workflowId,
    claimId: failure.claimId,
    dataset: failure.dataset,
    claim: claim?.claim ?? '',
    gold: claim?.gold ?? '',
    predicted: '',
    method: failure.method,
    model: failure.model,
    status: failure.type === limitReachedType ? 'limit-reached' : 'failed',
    llmCalls: 0,
    cachedLlmCalls: 0,
    toolCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: failure.tokens,
    costUsd: failure.costUsd,
    startedAt: '',
    finishedAt: failure.failedAt,
    durationMs: 0,
    failureType: failure.type,
    failureReason: failure.reason,
    traceRef: '',
  };
}
