/**
 * When ToE's online learner updates (paper §III-B): not before `warmupClaims` claims have finished
 * (the heuristic acts for those), then once per `groupSize` completed episodes not yet trained on,
 * oldest first. Pure.
 */

export interface UpdatePlanInput {
  claimsDone: number;
  warmupClaims: number;
  groupSize: number;
  /** Ids of the scope's trainable episodes (with steps, current state layout), oldest first. */
  episodeIds: readonly string[];
  /** Ids already consumed by earlier versions. */
  consumed: ReadonlySet<string>;
}

/** The next group of episode ids to train on, or null when no update is due. */
export function nextUpdateGroup(input: UpdatePlanInput): string[] | null {
  if (input.claimsDone < input.warmupClaims) return null;
  const untrained = input.episodeIds.filter((id) => !input.consumed.has(id));
  return untrained.length >= input.groupSize ? untrained.slice(0, input.groupSize) : null;
}

/** A reproducible training seed per scope and update: FNV-1a of `<scope>#<seq>`. */
export function updateSeed(scope: string, seq: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${scope}#${seq}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The claim-order schedule (patch toe-policy-by-claim-order): the version a claim acts with is a
 * function of its position in the run's claim order, whatever the concurrency. The first
 * `warmupClaims` positions act with the heuristic (null); then each block of `claimsPerVersion`
 * positions acts with one version: version 0 for the first block, 1 for the next, …
 */
export function versionSeqOfPosition(position: number, warmupClaims: number, claimsPerVersion: number): number | null {
  if (position < warmupClaims) return null;
  return Math.floor((position - warmupClaims) / claimsPerVersion);
}

/**
 * The positions [from, to) whose episodes make version `seq`: the warm-up's for version 0 (the fit to
 * the heuristic), and for version k ≥ 1 those of the block that acted with version k − 1.
 */
export function trainingPositionsOfVersion(seq: number, warmupClaims: number, claimsPerVersion: number): { from: number; to: number } {
  if (seq === 0) return { from: 0, to: warmupClaims };
  const from = warmupClaims + (seq - 1) * claimsPerVersion;
  return { from, to: from + claimsPerVersion };
}
