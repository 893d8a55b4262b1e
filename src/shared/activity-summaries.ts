/**
 * One-line summaries and markdown details that make the Temporal UI read like the method:
 * `mermaid · executor step 3/5 · gpt-4o-mini`, `search_wikipedia("Eiffel Tower")`. Pure and
 * sandbox-safe: workflows build them from what they already know when they schedule a call.
 */
import type { VerifyClaimInput } from './verify';

/** Longest summary the UI keeps on one line. */
export const SUMMARY_MAX_CHARS = 120;

/** `mermaid.executor-step` → `executor step`. */
export function stepOfTask(task: string): string {
  const step = task.includes('.') ? task.slice(task.indexOf('.') + 1) : task;
  return step.replace(/[-_]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** `mermaid · executor step 3/5 · gpt-4o-mini` */
export function llmCallSummary(method: string, step: string, model?: string): string {
  return oneLine([method, step, model].filter((part) => part !== undefined && part !== '').join(' · '));
}

/** `search_wikipedia("Eiffel Tower")`: the tool and its main argument (query, title, url …). */
export function toolCallSummary(tool: string, args: Record<string, unknown>): string {
  const main = mainArgument(args);
  return oneLine(main === undefined ? `${tool}()` : `${tool}(${JSON.stringify(clip(main, 70))})`);
}

/** `memory recall · 3 entities` (the hits are known only when it returns). */
export function memoryRecallSummary(entities: number): string {
  return `memory recall · ${entities} ${entities === 1 ? 'entity' : 'entities'}`;
}

/** `memory recall · 3 entities · 2 hits`: the recall's outcome, shown in the current details once it returns. */
export function memoryRecalledSummary(entities: number, hits: number): string {
  return `${memoryRecallSummary(entities)} · ${hits} ${hits === 1 ? 'hit' : 'hits'}`;
}

/** `memory update · 2 observations · 3 entities` */
export function memoryUpdateSummary(observations: number, entities: number): string {
  return `memory update · ${observations} ${observations === 1 ? 'observation' : 'observations'} · ${entities} ${entities === 1 ? 'entity' : 'entities'}`;
}

/** `store verdict · SUPPORTED · mermaid` */
export function storeVerdictSummary(label: string, method: string): string {
  return `store verdict · ${label} · ${method}`;
}

/** A short step of a method named after what it does: `fire · similarity of the queries`. */
export function methodStepSummary(method: string, ...parts: string[]): string {
  return oneLine([method, ...parts].join(' · '));
}

/** Static summary of a verification: `mermaid · gpt-4o-mini · "The Eiffel Tower is in Paris."` */
export function verifySummary(input: Pick<VerifyClaimInput, 'method' | 'model' | 'claim'>): string {
  return oneLine(`${input.method} · ${input.model} · ${JSON.stringify(clip(input.claim, 80))}`);
}

/** Static details of a verification (Temporal markdown): the claim in full and where it comes from. */
export function verifyDetails(input: Pick<VerifyClaimInput, 'method' | 'model' | 'claim' | 'runId' | 'claimId' | 'dataset'>): string {
  return [
    `**Claim:** ${input.claim}`,
    '',
    `**Method:** ${input.method} · **model:** ${input.model}`,
    `**Run:** ${input.runId} · **claim id:** ${input.claimId}${input.dataset ? ` · **dataset:** ${input.dataset}` : ''}`,
  ].join('\n');
}

/** Current details of a running verification: where it stands and what it has spent. */
export function progressDetails(progress: { stage: string; llmCalls: number; toolCalls: number }): string {
  return `**${progress.stage}** · ${progress.llmCalls} LLM calls · ${progress.toolCalls} tool calls`;
}

/** A single line of at most SUMMARY_MAX_CHARS characters. */
export function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), SUMMARY_MAX_CHARS);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const MAIN_ARGUMENT_KEYS = ['query', 'title', 'entity', 'url', 'q', 'text', 'name'];

function mainArgument(args: Record<string, unknown>): string | undefined {
  for (const key of MAIN_ARGUMENT_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  const first = Object.values(args).find((value) => typeof value === 'string' && value !== '');
  return typeof first === 'string' ? first : undefined;
}

/** Static summary of a sweep: `sweep dev-600 · 2 datasets × 3 variants · concurrency 8`. */
export function sweepSummary(input: { runId: string; datasets: unknown[]; variants: unknown[]; concurrency: number; ordered: boolean }): string {
  const order = input.ordered ? 'ordered' : `concurrency ${input.concurrency}`;
  return oneLine(`sweep ${input.runId} · ${input.datasets.length} datasets × ${input.variants.length} variants · ${order}`);
}

/** Static details of a sweep: its datasets and (method, model) variants. */
export function sweepDetails(input: {
  runId: string;
  datasets: { name: string; sample?: number; stratify?: { field: string; perValue: number } }[];
  variants: { method: string; model: string }[];
}): string {
  const datasetOf = (d: (typeof input.datasets)[number]) =>
    d.stratify ? `${d.name} (${d.stratify.perValue} per ${d.stratify.field})` : d.sample ? `${d.name} (sample ${d.sample})` : d.name;
  return [
    `**Run:** ${input.runId}`,
    `**Datasets:** ${input.datasets.map(datasetOf).join(', ')}`,
    `**Variants:** ${input.variants.map((v) => `${v.method} · ${v.model}`).join(', ')}`,
  ].join('\n');
}

/** Current details of a sweep: its counts so far. */
export function sweepProgressDetails(progress: { status: string; total: number; done: number; failed: number; reused: number; running: number; costUsd: number }): string {
  return `**${progress.status}** · ${progress.done}/${progress.total} done · ${progress.reused} reused · ${progress.failed} failed · ${progress.running} running · $${progress.costUsd.toFixed(4)}`;
}
