import type { RunVerdict } from '../runs/run-records';

/**
 * One verdict per verification of a run — (claim, dataset, method, model, repeat) — the latest stored.
 * A run whose sweep was started again after an upgrade (its workflow gone, e.g. past retention)
 * verifies its claims again under the new code's identity; both verdicts carry the run id, and
 * counting both would count those claims twice.
 */
export function latestVerdicts(verdicts: readonly RunVerdict[]): { verdicts: RunVerdict[]; superseded: number } {
  const latest = new Map<string, RunVerdict>();
  for (const verdict of verdicts) {
    const key = [verdict.claimId, verdict.dataset ?? '', verdict.method, verdict.model, verdict.sampling?.repeat ?? 0].join('\u0000');
    const kept = latest.get(key);
    if (!kept || (verdict.storedAt ?? '') > (kept.storedAt ?? '')) latest.set(key, verdict);
  }
  return { verdicts: [...latest.values()], superseded: verdicts.length - latest.size };
}
