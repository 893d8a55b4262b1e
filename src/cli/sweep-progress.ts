import { Presets, SingleBar } from 'cli-progress';
import { estimateRemainingMs, type SweepProgress } from '../shared/sweep';

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '--';
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
}

export function formatProgress(progress: SweepProgress): string {
  const budget = [
    progress.budget.usd !== undefined ? `$${progress.budget.usd}` : undefined,
    progress.budget.tokens !== undefined ? `${progress.budget.tokens} tokens` : undefined,
  ].filter(Boolean);
  return [
    `run ${progress.runId}: ${progress.status}`,
    progress.items === 'documents'
      ? `  ${progress.done + progress.failed}/${progress.total} documents checked: ${progress.done} document verdicts (${progress.reused} reused), ${progress.failed} failed; ${progress.running} running`
      : `  ${progress.done + progress.failed}/${progress.total} verifications finished: ${progress.done} verdicts (${progress.reused} reused), ${progress.failed} failed; ${progress.running} running`,
    `  ${progress.tokens} tokens, $${progress.costUsd.toFixed(4)} so far; budget ${budget.length > 0 ? budget.join(' and ') : 'none'}`,
    ...(progress.continuedAsNew > 0 ? [`  continued as new ${progress.continuedAsNew} time(s)`] : []),
    ...(progress.pausedBy === 'failure-rate' ? ['  paused by the failure-rate policy (resume with `verity sweep resume <run>`)'] : []),
    ...(progress.topFailureReasons ?? []).map(({ reason, count }) => `  ${count} × ${reason}`),
  ].join('\n');
}

/** A live bar on stderr: finished/total, failures, ETA from the pace seen by this process, cost so far. */
export class SweepProgressBar {
  private readonly bar = new SingleBar(
    {
      format: '  {bar} {value}/{total} | failed {failed} | running {running} | ETA {eta_text} | ${cost} | {status}',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 1,
    },
    Presets.shades_classic,
  );
  private started = false;
  private readonly startedAt = Date.now();
  private firstFinished: number | undefined;

  update(progress: SweepProgress): void {
    const finished = progress.done + progress.failed;
    this.firstFinished ??= finished;
    const eta = estimateRemainingMs(finished - this.firstFinished, Date.now() - this.startedAt, progress.total - finished);
    const payload = { failed: progress.failed, running: progress.running, eta_text: formatDuration(eta), cost: progress.costUsd.toFixed(4), status: progress.status };
    if (!this.started) {
      this.bar.start(progress.total, finished, payload);
      this.started = true;
    } else {
      this.bar.setTotal(progress.total);
      this.bar.update(finished, payload);
    }
  }

  stop(): void {
    if (this.started) this.bar.stop();
    this.started = false;
  }
}
