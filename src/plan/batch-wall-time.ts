import type { PlanRow, Range } from './plan-figures';

/** OpenAI's completion window: a batch is done within it (most much sooner). */
export const DEFAULT_BATCH_TURNAROUND_MS = 24 * 3_600_000;

export interface BatchWallOptions {
  /** Verifications in flight at once (the sweep's window; 1 when ordered). */
  concurrency: number;
  /** Assumed time from a batch's submission to its results, collection included. */
  turnaroundMs: number;
}

/**
 * How long a sweep takes with every LLM call through a batch: each of a verification's calls waits
 * one turnaround, and the sweep runs `concurrency` verifications at a time, so the verifications go
 * in ⌈items / concurrency⌉ rounds of (calls per claim × turnaround). Undefined without figures.
 */
export function batchWallTime(rows: readonly PlanRow[], options: BatchWallOptions): Range | undefined {
  const measured = rows.filter((row) => row.callsPerClaim !== undefined);
  if (measured.length === 0 || measured.length < rows.length) return undefined;
  const items = rows.reduce((sum, row) => sum + row.claims, 0);
  const rounds = Math.ceil(items / Math.max(1, options.concurrency));
  const steps = (pick: (range: Range) => number) => Math.max(...measured.map((row) => pick(row.callsPerClaim!)));
  return { low: rounds * Math.max(1, steps((range) => range.low)) * options.turnaroundMs, high: rounds * Math.max(1, steps((range) => range.high)) * options.turnaroundMs };
}

export function formatDuration(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours >= 48) return `${(hours / 24).toFixed(1)} d`;
  if (hours >= 1) return `${hours.toFixed(1)} h`;
  return `${Math.max(1, Math.round(ms / 60_000))} min`;
}
