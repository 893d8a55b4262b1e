import type { RunManifest } from './run-manifest';
import type { RunClaim, RunVerdict } from './run-records';

/**
 * The verdicts of a sweep's own (claim, dataset, method, model, repeat) set: a verdict stored under
 * the run id by anything else (an ad-hoc `verify --run` before it was refused) is not the sweep's
 * and is left out of its numbers. Runs stored without their claims are checked by variant only.
 */
export function sweepOwnVerdicts(manifest: RunManifest, claims: readonly RunClaim[], verdicts: readonly RunVerdict[]): { own: RunVerdict[]; foreign: number } {
  const methods = new Set(manifest.config.methods);
  const models = new Set(manifest.config.models);
  const repeats = manifest.config.repeats ?? 1;
  const claimKeys = new Set(claims.map((claim) => `${claim.dataset}\u0000${claim.claimId}`));
  const own = verdicts.filter((verdict) => {
    if (!methods.has(verdict.method) || !models.has(verdict.model)) return false;
    if ((verdict.sampling?.repeat ?? 0) >= repeats) return false;
    return claimKeys.size === 0 || claimKeys.has(`${verdict.dataset ?? ''}\u0000${verdict.claimId}`);
  });
  return { own, foreign: verdicts.length - own.length };
}
