import type { SweepProgress } from '../shared/sweep';
import { CommandProgress, type ProgressUpdate } from './progress';

export function formatProgress(progress: SweepProgress): string {
  const budget = [
    progress.budget.usd !== undefined ? `$${progress.budget.usd}` : undefined,
    progress.budget.tokens !== undefined ? `${progress.budget.tokens} tokens` : undefined,
  ].filter(Boolean);
  return [
    `run ${progress.runId}: ${progress.status}`,
    progress.items === 'documents'
      ? `  ${progress.done + progress.failed}/${progress.total} documents checked: ${progress.done} document verdicts (${progress.reused} reused), ${progress.failed} failed; ${progress.running} running`
      : `  ${progress.done + progress.failed}/${progress.total} verifications finished: ${progress.done} verdicts (${progress.reused} reused), ${progress.failed} failed; ${progress.running} running${progress.cancelled ? `; ${progress.cancelled} cancelled` : ''}`,
    `  ${progress.tokens} tokens, $${progress.costUsd.toFixed(4)} so far; budget ${budget.length > 0 ? budget.join(' and ') : 'none'}`,
    ...(progress.overBudget ? [`  over budget by ${describeOverBudget(progress.overBudget)} (verifications already running when it ran out finished and were paid)`] : []),
    ...(progress.continuedAsNew > 0 ? [`  continued as new ${progress.continuedAsNew} time(s)`] : []),
    ...(progress.pausedBy === 'failure-rate' ? ['  paused by the failure-rate policy (resume with `verity sweep resume <run>`)'] : []),
    ...(progress.topFailureReasons ?? []).map(({ reason, count }) => `  ${count} × ${reason}`),
  ].join('\n');
}

/** `1,234 tokens and $0.0123`. */
export function describeOverBudget(over: NonNullable<SweepProgress['overBudget']>): string {
  return [over.tokens !== undefined ? `${over.tokens.toLocaleString('en-US')} tokens` : undefined, over.usd !== undefined ? `$${over.usd.toFixed(4)}` : undefined].filter(Boolean).join(' and ');
}

/** A sweep's progress as the progress helper shows it: finished/total, failures, cost so far, running and status. */
export function sweepProgressUpdate(progress: SweepProgress): ProgressUpdate {
  return {
    done: progress.done + progress.failed,
    total: progress.total,
    failed: progress.failed,
    costUsd: progress.costUsd,
    detail: `${progress.running} running${progress.status === 'running' ? '' : `, ${progress.status}`}`,
  };
}

/** A sweep's progress on stderr: a live bar on a terminal, else a progress line at a bounded interval (see CommandProgress). */
export class SweepProgressBar {
  private progress: CommandProgress | undefined;

  constructor(private readonly options: { runId: string; intervalMs: number }) {}

  update(progress: SweepProgress): void {
    // A sweep that has not counted its work items yet has nothing to show.
    if (progress.total === 0) return;
    this.progress ??= new CommandProgress({ label: `sweep ${this.options.runId}`, unit: progress.items === 'documents' ? 'documents' : 'verifications', intervalMs: this.options.intervalMs });
    this.progress.update(sweepProgressUpdate(progress));
  }

  stop(): void {
    this.progress?.finish();
  }
}
