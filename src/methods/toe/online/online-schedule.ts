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
