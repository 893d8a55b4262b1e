/** Gold labels as written in the datasets, keyed by dataset and claim id. */
export type GoldLabels = Map<string, string | boolean>;

export function goldKey(dataset: string, claimId: string): string {
  return `${dataset}\u0000${claimId}`;
}

/** Merges sources of gold labels; earlier sources win. */
export function mergeGoldLabels(...sources: GoldLabels[]): GoldLabels {
  const merged: GoldLabels = new Map();
  for (const source of sources) for (const [key, label] of source) if (!merged.has(key)) merged.set(key, label);
  return merged;
}

/** Gold labels from the claims a run stored. */
export function goldFromRunClaims(claims: readonly { dataset: string; claimId: string; label?: string | boolean }[]): GoldLabels {
  const gold: GoldLabels = new Map();
  for (const claim of claims) if (claim.label !== undefined) gold.set(goldKey(claim.dataset, claim.claimId), claim.label);
  return gold;
}
