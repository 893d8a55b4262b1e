/**
 * The sweep's failure-rate policy (sandbox-safe): past `maxFailureRate` of the verifications
 * finished since the sweep started (or was last resumed), once at least `minVerifications` have
 * finished, the sweep pauses and shows its top failure reasons.
 */
export interface FailurePolicy {
  maxFailureRate: number;
  minVerifications: number;
}

/** Verifications finished (verified here or failed) when the policy started judging. */
export interface FailureBaseline {
  verified: number;
  failed: number;
}

interface Counts {
  done: number;
  failed: number;
  reused: number;
}

export function failureBaseline(counters: Counts): FailureBaseline {
  return { verified: counters.done - counters.reused, failed: counters.failed };
}

export function exceedsFailureRate(counters: Counts, baseline: FailureBaseline, policy: FailurePolicy | undefined): boolean {
  if (!policy) return false;
  const now = failureBaseline(counters);
  const failed = now.failed - baseline.failed;
  const finished = now.verified - baseline.verified + failed;
  return finished >= policy.minVerifications && failed / finished > policy.maxFailureRate;
}

const MAX_REASONS = 30;
const REASON_CHARS = 160;
const OTHER = '(other reasons)';

/** Counts a failure reason into a bounded tally (it crosses continue-as-new). */
export function tallyFailureReason(tally: Record<string, number>, reason: string, type?: string): void {
  let key = `${type ? `${type}: ` : ''}${reason}`.slice(0, REASON_CHARS);
  if (!(key in tally) && Object.keys(tally).length >= MAX_REASONS - 1) key = OTHER;
  tally[key] = (tally[key] ?? 0) + 1;
}

export function topFailureReasons(tally: Record<string, number>, count = 3): { reason: string; count: number }[] {
  return Object.entries(tally)
    .map(([reason, n]) => ({ reason, count: n }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
    .slice(0, count);
}
