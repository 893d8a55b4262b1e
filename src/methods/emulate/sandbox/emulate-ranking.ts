/**
 * Reading SearchRank's answer, `<position 1> | <position 2> | ...`. Sandbox-safe: workflows import it.
 */

export interface Ranking {
  /** Engine positions, most credible and relevant first. */
  positions: number[];
  /** True when the answer could not be used and the engine's order was kept. */
  fallback: boolean;
}

/**
 * codeCompat: as the code, split on `|` and read each piece as an integer; any piece that is not
 * an integer or not a known position keeps the engine order (duplicates are kept).
 * Otherwise (spec §7.6): every integer in order, known positions only, no duplicates; engine order
 * when none is left.
 */
export function parseRanking(text: string, known: readonly number[], codeCompat: boolean): Ranking {
  const engineOrder = { positions: [...known], fallback: true };
  const knownSet = new Set(known);
  if (codeCompat) {
    const pieces = text.split('|').map((piece) => piece.trim());
    if (pieces.some((piece) => !/^[+-]?\d+$/.test(piece))) return engineOrder;
    const positions = pieces.map(Number);
    return positions.every((p) => knownSet.has(p)) ? { positions, fallback: false } : engineOrder;
  }
  const positions: number[] = [];
  for (const match of text.match(/\d+/g) ?? []) {
    const position = Number(match);
    if (knownSet.has(position) && !positions.includes(position)) positions.push(position);
  }
  return positions.length > 0 ? { positions, fallback: false } : engineOrder;
}
