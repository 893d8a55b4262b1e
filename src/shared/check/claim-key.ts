import { sha256HexOf } from '../sha256';

/**
 * The normalised form two claims of one document share when they say the same thing in the same
 * words: case, punctuation and spacing aside (sandbox-safe: the document workflow dedups with it).
 */
export function normaliseClaim(claim: string): string {
  return claim
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function claimKey(claim: string): string {
  return sha256HexOf(normaliseClaim(claim));
}

/** The claims of one document seen so far, by normalised text: the first occurrence is verified, later ones point to it. */
export class ClaimDedup {
  private readonly first = new Map<string, number>();

  /** Records the claim at `position`; returns the position of the earlier claim it duplicates, if any. */
  add(claim: string, position: number): number | undefined {
    const key = claimKey(claim);
    const earlier = this.first.get(key);
    if (earlier !== undefined) return earlier;
    this.first.set(key, position);
    return undefined;
  }
}

/** For each claim, the position of the earlier claim it duplicates (undefined for a first occurrence). */
export function duplicatePositions(claims: readonly string[]): (number | undefined)[] {
  const dedup = new ClaimDedup();
  return claims.map((claim, position) => dedup.add(claim, position));
}
