/**
 * Gold labels as written in the datasets, keyed by claim id (a sweep refuses runs whose datasets
 * share claim ids, so the id alone identifies a run's claim).
 */
export type GoldLabels = Map<string, string | boolean>;

/** Merges sources of gold labels; earlier sources win. */
export function mergeGoldLabels(...sources: GoldLabels[]): GoldLabels {
  const merged: GoldLabels = new Map();
  for (const source of sources) for (const [claimId, label] of source) if (!merged.has(claimId)) merged.set(claimId, label);
  return merged;
}

/** Gold labels from the claims a run stored, where it stored them. */
export function goldFromRunClaims(claims: readonly { claimId: string; label?: string | boolean }[]): GoldLabels {
  const gold: GoldLabels = new Map();
  for (const claim of claims) if (claim.label !== undefined) gold.set(claim.claimId, claim.label);
  return gold;
}
