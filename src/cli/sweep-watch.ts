import type { Client } from '@temporalio/client';
import type { ExplorerFailure } from '../explorer/explorer-data';
import { SEARCH_ATTRIBUTES } from '../shared/constants';
import type { SweepProgress } from '../shared/sweep';
import { formatProgress } from './sweep-progress';
import { humanDuration } from '../shared/human-duration';
import { describeStuck, type StuckWorkflow } from '../client/stuck-workflows';

/** Running verifications whose pending activities are described per tick (the rest are counted). */
const RETRY_SCAN_LIMIT = 50;

/** An activity Temporal is retrying: which, how often, and why it failed last. */
export interface RetryingActivity {
  workflowId: string;
  activity: string;
  attempt: number;
  lastFailure: string;
}

export interface WatchSnapshot {
  progress: SweepProgress;
  /** Verifications finished per minute since the watch started; undefined until one finished. */
  perMinute: number | undefined;
  failures: ExplorerFailure[];
  retrying: RetryingActivity[];
  /** Running verifications not looked at for retries (beyond RETRY_SCAN_LIMIT). */
  unscanned: number;
}

/** What `verity sweep status --watch` prints each tick. */
export function formatWatch(snapshot: WatchSnapshot): string {
  const { progress, perMinute, failures, retrying } = snapshot;
  const remaining = progress.total - progress.done - progress.failed;
  const eta = perMinute && perMinute > 0 ? humanDuration((remaining / perMinute) * 60_000) : '--';
  const rateLimited = retrying.filter((r) => /429|rate.?limit/i.test(r.lastFailure)).length;
  const lines = [
    formatProgress(progress),
    `  rate ${perMinute === undefined ? '--' : perMinute.toFixed(1)} verifications/min · ETA ${eta}`,
    retrying.length === 0
      ? `  retries: none pending${snapshot.unscanned > 0 ? ` (${snapshot.unscanned} running verifications not scanned)` : ''}`
      : `  retrying ${retrying.length} activit${retrying.length === 1 ? 'y' : 'ies'} (${rateLimited} rate-limited, 429):`,
    ...retrying.slice(0, 5).map((r) => `    ${r.activity} attempt ${r.attempt} in ${r.workflowId}: ${r.lastFailure}`),
    failures.length === 0 ? '  latest failures: none' : '  latest failures:',
    ...failures.map((f) => `    ${f.claimId} ${f.method ?? ''} ${f.model ?? ''} ${f.type ? `[${f.type}] ` : ''}${oneLine(f.reason)}`),
  ];
  return lines.join('\n');
}

/** Activities being retried in the run's running verifications, from Temporal's pending-activity state. */
export async function retryingActivities(client: Client, runId: string): Promise<{ retrying: RetryingActivity[]; unscanned: number }> {
  const retrying: RetryingActivity[] = [];
  let seen = 0;
  const query = `${SEARCH_ATTRIBUTES.run} = ${JSON.stringify(runId)} AND ExecutionStatus = "Running" AND WorkflowType = "verifyClaimWorkflow"`;
  for await (const execution of client.workflow.list({ query })) {
    seen += 1;
    if (seen > RETRY_SCAN_LIMIT) continue;
    const description = await client.workflow.getHandle(execution.workflowId).describe().catch(() => undefined);
    for (const pending of description?.raw.pendingActivities ?? []) {
      const attempt = pending.attempt ?? 1;
      if (attempt <= 1) continue;
      retrying.push({
        workflowId: execution.workflowId,
        activity: pending.activityType?.name ?? 'activity',
        attempt,
        lastFailure: oneLine(failureText(pending.lastFailure)),
      });
    }
  }
  return { retrying, unscanned: Math.max(0, seen - RETRY_SCAN_LIMIT) };
}

/** `[LlmRateLimited] 429 Too Many Requests`: the error type says what a bare message may not (a 429). */
function failureText(failure: { message?: string | null; applicationFailureInfo?: { type?: string | null } | null } | null | undefined): string {
  if (!failure) return 'retrying';
  const type = failure.applicationFailureInfo?.type;
  return `${type ? `[${type}] ` : ''}${failure.message ?? ''}`.trim();
}

/** Finished verifications per minute between the first and the latest observation. */
export function ratePerMinute(first: { at: number; finished: number }, latest: { at: number; finished: number }): number | undefined {
  const elapsed = latest.at - first.at;
  const finished = latest.finished - first.finished;
  if (elapsed <= 0 || finished <= 0) return undefined;
  return (finished / elapsed) * 60_000;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `${line.slice(0, 159)}…`;
}

/** Lines naming each stuck verification and its cause (nothing when none is stuck); ends with a newline. */
export function formatStuck(stuck: StuckWorkflow[], now: Date = new Date()): string {
  if (stuck.length === 0) return '';
  const lines = [`  stuck: ${stuck.length} workflow${stuck.length === 1 ? '' : 's'} whose workflow task keeps failing (no progress until fixed):`];
  for (const s of stuck.slice(0, 10)) lines.push(`    ${describeStuck(s, now)}`);
  if (stuck.length > 10) lines.push(`    … and ${stuck.length - 10} more (\`--json\` lists them all)`);
  return `${lines.join('\n')}\n`;
}
